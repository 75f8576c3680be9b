/* spec.h — declarative field specs. Each route row lists the fields it
 * takes; the dispatcher checks and normalises them before the handler runs,
 * so a handler reads typed values without re-checking anything:
 *
 *   F_STR ("site_name", REQUIRED, LEN(1, 20), RULE(check_name_chars, 0))
 *   F_INT ("page", DEFAULT("1"), RANGE(1, 100000))
 *   F_STRS("cidr", REQUIRED, ITEMS(1, 64), RULE(check_cidr, CIDR_V4))
 *   F_STR ("zone_name", REQUIRED, CANON(rule_zone_name, 0))
 *   F_OBJ ("dnssec_multi_signer", SUB(F_BOOL("enabled"), F_STRS("ip")))
 *
 * Values arrive as strings from the query, url-encoded and multipart bodies,
 * and as JSON values from JSON bodies; after checking, every field holds its
 * declared JSON type (integer, boolean, string, array, object). */
#ifndef PARAPET_SPEC_H
#define PARAPET_SPEC_H

#include <jansson.h>
#include <stdbool.h>

enum field_type {
    FT_END = 0,
    FT_STR,  /* string */
    FT_INT,  /* integer (decimal digits in text encodings) */
    FT_BOOL, /* boolean (true/false, or 1/0, in text encodings) */
    FT_STRS, /* array of strings */
    FT_INTS, /* array of integers */
    FT_OBJ,  /* JSON object with members described by .sub */
    FT_OBJS, /* JSON array of such objects */
    FT_FILE, /* a multipart file part */
    FT_ANY,  /* any JSON value: a body member the documents do not detail */
};

enum field_in {
    IN_ANY = 0, /* query or body (not both) */
    IN_QUERY,
    IN_BODY,
    IN_PATH, /* a {param} of the path template */
};

/* An extra rule on one (element) value. Returns NULL when the value is fine,
 * or the rule it breaks, phrased to follow the field name ("must be ..."). */
typedef const char *field_check_fn(const json_t *value, long arg);
/* A rule that also brings the value to its canonical form (an address in
 * RFC 5952 text, a zone name in Punycode): returns NULL when the value is
 * fine, having replaced *value if its form changes, or the rule it breaks. */
typedef const char *field_canon_fn(json_t **value, long arg);

struct field_spec {
    const char *name;
    enum field_type type;
    enum field_in in;
    bool required;
    bool loose;      /* JSON bodies may also send the field in text form */
    bool comma_list; /* an array in the query may be one comma-separated value */
    bool has_range;
    long long min, max;        /* FT_INT / FT_INTS element range */
    int min_len, max_len;      /* string length in characters (0: default max) */
    int min_items, max_items;  /* array length (0: default max) */
    const char *const *one_of; /* allowed string values, NULL-terminated */
    const char *def;           /* JSON text of the value used when absent */
    field_check_fn *check;
    long check_arg;
    field_canon_fn *canon;
    long canon_arg;
    const struct field_spec *sub; /* members of FT_OBJ, elements of FT_OBJS */
};

/* Limits that apply where a spec says nothing. */
enum {
    SPEC_DEFAULT_MAX_LEN = 1024,
    SPEC_DEFAULT_MAX_ITEMS = 1000,
};

#define F_END                                                                                                \
    {                                                                                                        \
        .type = FT_END                                                                                       \
    }
#define F_STR(n, ...)                                                                                        \
    {                                                                                                        \
        .name = (n), .type = FT_STR, __VA_ARGS__                                                             \
    }
#define F_INT(n, ...)                                                                                        \
    {                                                                                                        \
        .name = (n), .type = FT_INT, __VA_ARGS__                                                             \
    }
#define F_BOOL(n, ...)                                                                                       \
    {                                                                                                        \
        .name = (n), .type = FT_BOOL, __VA_ARGS__                                                            \
    }
#define F_STRS(n, ...)                                                                                       \
    {                                                                                                        \
        .name = (n), .type = FT_STRS, __VA_ARGS__                                                            \
    }
#define F_INTS(n, ...)                                                                                       \
    {                                                                                                        \
        .name = (n), .type = FT_INTS, __VA_ARGS__                                                            \
    }
#define F_OBJ(n, ...)                                                                                        \
    {                                                                                                        \
        .name = (n), .type = FT_OBJ, __VA_ARGS__                                                             \
    }
#define F_OBJS(n, ...)                                                                                       \
    {                                                                                                        \
        .name = (n), .type = FT_OBJS, __VA_ARGS__                                                            \
    }
#define F_FILE(n, ...)                                                                                       \
    {                                                                                                        \
        .name = (n), .type = FT_FILE, .in = IN_BODY, __VA_ARGS__                                             \
    }
#define F_ANY(n, ...)                                                                                        \
    {                                                                                                        \
        .name = (n), .type = FT_ANY, __VA_ARGS__                                                             \
    }

#define REQUIRED    .required = true
#define OPTIONAL    .required = false
#define LOOSE       .loose = true
#define COMMA_LIST  .comma_list = true
#define IN(where)   .in = (where)
#define LEN(a, b)   .min_len = (a), .max_len = (b)
#define RANGE(a, b) .has_range = true, .min = (a), .max = (b)
#define ITEMS(a, b) .min_items = (a), .max_items = (b)
#define ONE_OF(...)                                                                                          \
    .one_of = (const char *const[])                                                                          \
    {                                                                                                        \
        __VA_ARGS__, NULL                                                                                    \
    }
#define DEFAULT(json_text) .def = (json_text)
#define RULE(fn, arg)      .check = (fn), .check_arg = (arg)
#define CANON(fn, arg)     .canon = (fn), .canon_arg = (arg)
#define SUB(...)                                                                                             \
    .sub = (const struct field_spec[])                                                                       \
    {                                                                                                        \
        __VA_ARGS__, F_END                                                                                   \
    }

/* The outcome of checking a request against a spec. */
struct spec_error {
    int err;           /* enum err; E_OK when everything passed */
    char message[256]; /* "<field path>: <rule>" */
};

/* Check `query`, `body` (either may be NULL) and `path` against `specs`;
 * on success *out holds the normalised fields (a new object) and
 * e->err == E_OK. `body_is_json` tells whether body values are typed JSON or
 * text. `files` lists the names of multipart file parts present
 * (NULL-terminated), so FT_FILE fields can be checked. */
void spec_check(const struct field_spec *specs, json_t *query, json_t *body, bool body_is_json, json_t *path,
                const char *const *files, json_t **out, struct spec_error *e);

#endif
