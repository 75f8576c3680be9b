/* fuzz_spec.h — shared by fuzz_query.c and fuzz_json_body.c: extra field
 * specs that cover what the real table does not use yet, picking a spec from
 * an input byte, and the invariants a spec_check result must satisfy
 * (checked with __builtin_trap so libFuzzer reports them as crashes). */
#ifndef PARAPET_FUZZ_SPEC_H
#define PARAPET_FUZZ_SPEC_H

#include <stdbool.h>
#include <string.h>

#include "base/text.h"
#include "core/errors.h"
#include "core/route.h"
#include "core/spec.h"
#include "fuzz_assert.h"

/* Specs of our own, listed first so corpus seeds keep their meaning when
 * routes are added to routes.def. */
static const struct field_spec fz_flat[] = {
    F_STR("name", REQUIRED, LEN(1, 8)),
    F_INT("n", RANGE(-5, 5)),
    F_BOOL("on", DEFAULT("false")),
    F_STRS("tags", COMMA_LIST, ITEMS(1, 4), LEN(1, 3)),
    F_INTS("ports", ITEMS(0, 3), RANGE(1, 65535)),
    F_STR("kind", ONE_OF("a", "bb")),
    F_INT("loose", LOOSE),
    F_STR("q", IN(IN_QUERY)),
    F_STR("bd", IN(IN_BODY)),
    F_STR("site_id", IN(IN_PATH), LEN(1, 16)),
    F_ANY("any"),
    F_FILE("cert"),
    F_END,
};

static const struct field_spec fz_nested[] = {
    F_OBJ("cfg", REQUIRED,
          SUB(F_BOOL("enabled", REQUIRED), F_STRS("ip", ITEMS(0, 2)),
              F_OBJ("inner", SUB(F_INT("depth", RANGE(0, 3)), F_STR("s", ONE_OF("x")))))),
    F_OBJS("rules", ITEMS(1, 3),
           SUB(F_STR("name", REQUIRED, LEN(1, 4)), F_INT("prio", DEFAULT("5"), RANGE(0, 9)),
               F_OBJS("sub", SUB(F_BOOL("b", LOOSE))))),
    F_INT("page", DEFAULT("1"), RANGE(1, 100)),
    F_END,
};

static const struct field_spec *fz_pick_spec(unsigned char sel)
{
    if (sel % 4 == 0)
        return fz_flat;
    if (sel % 4 == 1)
        return fz_nested;
    return routes[(sel / 4) % routes_count].fields;
}

/* A path object with a value for each IN_PATH field. */
static json_t *fz_path_for(const struct field_spec *specs)
{
    json_t *p = json_object();
    for (const struct field_spec *s = specs; s->type != FT_END; s++)
        if (s->in == IN_PATH)
            json_object_set_new(p, s->name, json_string("path-value"));
    return p;
}

static const struct field_spec *fz_find(const struct field_spec *specs, const char *name)
{
    for (const struct field_spec *s = specs; s->type != FT_END; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static size_t fz_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void fz_check_str(const struct field_spec *s, const json_t *v, bool whole_field)
{
    FUZZ_ASSERT(json_is_string(v));
    const char *str = json_string_value(v);
    FUZZ_ASSERT(strlen(str) == json_string_length(v)); /* no NUL inside */
    size_t n = fz_chars(str), min = (size_t)s->min_len;
    size_t max = s->max_len ? (size_t)s->max_len : SPEC_DEFAULT_MAX_LEN;
    if (whole_field && s->required && min == 0)
        min = 1;
    FUZZ_ASSERT(n >= min && n <= max);
    if (s->one_of) {
        bool ok = false;
        for (const char *const *o = s->one_of; *o; o++)
            ok = ok || strcmp(*o, str) == 0;
        FUZZ_ASSERT(ok);
    }
}

static void fz_check_int(const struct field_spec *s, const json_t *v)
{
    FUZZ_ASSERT(json_is_integer(v));
    if (s->has_range)
        FUZZ_ASSERT(json_integer_value(v) >= s->min && json_integer_value(v) <= s->max);
}

static void fz_check_object(const struct field_spec *specs, const json_t *obj);

static void fz_check_items(const struct field_spec *s, const json_t *v)
{
    FUZZ_ASSERT(json_is_array(v));
    size_t n = json_array_size(v), max = s->max_items ? (size_t)s->max_items : SPEC_DEFAULT_MAX_ITEMS;
    FUZZ_ASSERT(n >= (size_t)s->min_items && n <= max);
    for (size_t i = 0; i < n; i++) {
        const json_t *el = json_array_get(v, i);
        if (s->type == FT_STRS)
            fz_check_str(s, el, false);
        else if (s->type == FT_INTS)
            fz_check_int(s, el);
        else
            fz_check_object(s->sub, el);
    }
}

/* Every member is a declared field of the declared type and within its
 * rules; every required field is there. */
static void fz_check_object(const struct field_spec *specs, const json_t *obj)
{
    FUZZ_ASSERT(json_is_object(obj));
    const char *k;
    json_t *v;
    json_object_foreach ((json_t *)obj, k, v) {
        const struct field_spec *s = fz_find(specs, k);
        FUZZ_ASSERT(s && s->type != FT_FILE);
        switch (s->type) {
        case FT_STR: fz_check_str(s, v, true); break;
        case FT_INT: fz_check_int(s, v); break;
        case FT_BOOL: FUZZ_ASSERT(json_is_boolean(v)); break;
        case FT_STRS:
        case FT_INTS:
        case FT_OBJS: fz_check_items(s, v); break;
        case FT_OBJ: fz_check_object(s->sub, v); break;
        default: break;
        }
    }
    for (const struct field_spec *s = specs; s->type != FT_END; s++)
        if (s->required && s->type != FT_FILE)
            FUZZ_ASSERT(json_object_get(obj, s->name) != NULL);
}

/* The outcome of spec_check: fields that keep every rule, or an error of
 * the field kind with a "<field>: <rule>" message and no output. */
static void fz_check_result(const struct field_spec *specs, json_t *out, const struct spec_error *e)
{
    if (e->err == E_OK) {
        FUZZ_ASSERT(out != NULL && e->message[0] == '\0');
        fz_check_object(specs, out);
    } else {
        FUZZ_ASSERT(out == NULL);
        FUZZ_ASSERT(e->err == E_FIELD_MISSING || e->err == E_FIELD_TYPE || e->err == E_FIELD_INVALID ||
                    e->err == E_FIELD_UNKNOWN || e->err == E_FIELD_REPEATED);
        FUZZ_ASSERT(strstr(e->message, ": ") != NULL);
        /* the message goes into the envelope as a JSON string */
        FUZZ_ASSERT(utf8_valid(e->message, strlen(e->message)));
    }
}

#endif
