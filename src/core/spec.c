/* spec.c — checks request fields against a route's field specs (spec.h).
 * Unknown fields are reported first (a typo gets named, rather than showing
 * up as a missing required field), then each spec in order. */
#include "core/spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "core/errors.h"

/* Where a value came from decides how it is read: text encodings (query,
 * url-encoded, multipart, path) carry strings, JSON carries typed values. */
struct source {
    bool text;
};

enum { SPEC_SHOWN_NAME_MAX = 96 }; /* bytes of a field name quoted in a message */

static void set_error(struct spec_error *e, int err, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void set_error(struct spec_error *e, int err, const char *field, const char *fmt, ...)
{
    va_list ap;
    char rule[200];
    va_start(ap, fmt);
    vsnprintf(rule, sizeof rule, fmt, ap);
    va_end(ap);
    e->err = err;
    /* An unknown field's name echoes the input: shorten a long one (at a
     * UTF-8 boundary) so the rule still fits and the message stays UTF-8. */
    size_t n = strlen(field);
    bool cut = n > SPEC_SHOWN_NAME_MAX;
    if (cut) {
        n = SPEC_SHOWN_NAME_MAX;
        while (n > 0 && ((unsigned char)field[n] & 0xC0) == 0x80)
            n--;
    }
    snprintf(e->message, sizeof e->message, "%.*s%s: %s", (int)n, field, cut ? "..." : "", rule);
}

static const struct field_spec *find_spec(const struct field_spec *specs, const char *name)
{
    for (const struct field_spec *s = specs; s->type != FT_END; s++)
        if (s->in != IN_PATH && strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

/* Strict decimal integer: optional '-', digits, no leading zeros, no spaces. */
static bool parse_int_text(const char *s, long long *out)
{
    const char *p = s;
    if (*p == '-')
        p++;
    if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 18)
        return false;
    if (p[0] == '0' && p[1] != '\0')
        return false;
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno)
        return false;
    *out = v;
    return true;
}

static const char *type_word(enum field_type t)
{
    switch (t) {
    case FT_STR: return "a string";
    case FT_INT: return "an integer";
    case FT_BOOL: return "a boolean";
    case FT_STRS: return "an array of strings";
    case FT_INTS: return "an array of integers";
    case FT_OBJ: return "a JSON object";
    case FT_OBJS: return "an array of JSON objects";
    case FT_FILE: return "a file part of a multipart/form-data body";
    default: return "a value";
    }
}

static int check_string(const struct field_spec *s, const char *name, const json_t *v, struct spec_error *e)
{
    const char *str = json_string_value(v);
    size_t chars = utf8_length(str);
    int min = s->min_len, max = s->max_len ? s->max_len : SPEC_DEFAULT_MAX_LEN;
    if (s->required && min == 0 && s->type == FT_STR)
        min = 1;
    if (chars < (size_t)min || chars > (size_t)max) {
        if (min == 1 && chars == 0)
            set_error(e, E_FIELD_INVALID, name, "must not be empty");
        else if (min == max)
            set_error(e, E_FIELD_INVALID, name, "must be %d characters", min);
        else
            set_error(e, E_FIELD_INVALID, name, "must be %d to %d characters", min, max);
        return -1;
    }
    if (s->one_of) {
        bool ok = false;
        for (const char *const *o = s->one_of; *o && !ok; o++)
            ok = strcmp(*o, str) == 0;
        if (!ok) {
            char list[160] = "";
            for (const char *const *o = s->one_of; *o; o++) {
                if (o != s->one_of)
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, *o, sizeof list - strlen(list) - 1);
            }
            set_error(e, E_FIELD_INVALID, name, "must be one of %s", list);
            return -1;
        }
    }
    return 0;
}

/* The spec's own rule, then its canonicalising rule (which may replace *v). */
static int check_rule(const struct field_spec *s, const char *name, json_t **v, struct spec_error *e)
{
    const char *broken = s->check ? s->check(*v, s->check_arg) : NULL;
    if (!broken && s->canon)
        broken = s->canon(v, s->canon_arg);
    if (broken) {
        set_error(e, E_FIELD_INVALID, name, "%s", broken);
        return -1;
    }
    return 0;
}

/* Reads one scalar of the given type; returns a new normalised value or
 * NULL with e set. */
static json_t *scalar(const struct field_spec *s, enum field_type t, const char *name, json_t *v,
                      struct source src, struct spec_error *e)
{
    bool text_ok = src.text || s->loose;
    json_t *out = NULL;
    switch (t) {
    case FT_STR:
        if (json_is_string(v))
            out = json_incref(v);
        break;
    case FT_INT:
        if (json_is_integer(v)) {
            out = json_incref(v);
        } else if (json_is_string(v) && text_ok) {
            long long n;
            const char *text = json_string_value(v);
            if (!parse_int_text(text, &n)) {
                /* more digits than an integer takes (parse_int_text reads 18): a
                 * range error where there is a range */
                const char *digits = text + (*text == '-');
                size_t len = strlen(digits);
                if (s->has_range && len > 18 && digits[0] != '0' && strspn(digits, "0123456789") == len)
                    set_error(e, E_FIELD_INVALID, name, "must be an integer from %lld to %lld", s->min, s->max);
                else
                    set_error(e, E_FIELD_TYPE, name, "must be an integer");
                return NULL;
            }
            out = json_integer(n);
        }
        if (out && s->has_range) {
            long long n = json_integer_value(out);
            if (n < s->min || n > s->max) {
                json_decref(out);
                if (s->min == s->max)
                    set_error(e, E_FIELD_INVALID, name, "must be %lld", s->min);
                else
                    set_error(e, E_FIELD_INVALID, name, "must be an integer from %lld to %lld", s->min,
                              s->max);
                return NULL;
            }
        }
        break;
    case FT_BOOL:
        if (json_is_boolean(v)) {
            out = json_incref(v);
        } else if (text_ok && json_is_string(v)) {
            const char *t_ = json_string_value(v);
            if (!strcmp(t_, "true") || !strcmp(t_, "1"))
                out = json_true();
            else if (!strcmp(t_, "false") || !strcmp(t_, "0"))
                out = json_false();
            else {
                set_error(e, E_FIELD_TYPE, name, "must be true or false");
                return NULL;
            }
        } else if (s->loose && json_is_integer(v) &&
                   (json_integer_value(v) == 0 || json_integer_value(v) == 1)) {
            out = json_boolean(json_integer_value(v) == 1);
        }
        break;
    case FT_ANY: out = json_incref(v); break;
    default: break;
    }
    if (!out) {
        set_error(e, E_FIELD_TYPE, name, "must be %s", type_word(t));
        return NULL;
    }
    if ((t == FT_STR && check_string(s, name, out, e) != 0) || check_rule(s, name, &out, e) != 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static json_t *check_members(const struct field_spec *specs, json_t *obj, const char *prefix,
                             struct spec_error *e);

/* Splits "a, b,c" into an array of strings, trimming spaces around items;
 * "" is an empty list. Empty items are kept so that the element check can
 * name them. */
static json_t *split_commas(const char *s)
{
    json_t *arr = json_array();
    const char *p = s + strspn(s, " ");
    if (!*p)
        return arr;
    for (;;) {
        p += strspn(p, " ");
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        while (n > 0 && p[n - 1] == ' ')
            n--;
        json_array_append_new(arr, json_stringn(p, n));
        if (!c)
            break;
        p = c + 1;
    }
    return arr;
}

static json_t *array_of(const struct field_spec *s, const char *name, json_t *v, struct source src,
                        struct spec_error *e)
{
    enum field_type elem = s->type == FT_STRS ? FT_STR : s->type == FT_INTS ? FT_INT : FT_OBJ;
    json_t *arr;
    if (json_is_array(v)) {
        arr = json_incref(v);
    } else if ((src.text || s->loose) && json_is_string(v)) {
        /* one text value is an array of one; a query may use a comma list */
        arr = s->comma_list ? split_commas(json_string_value(v)) : json_pack("[O]", v);
    } else {
        set_error(e, E_FIELD_TYPE, name, "must be %s", type_word(s->type));
        return NULL;
    }
    size_t n = json_array_size(arr);
    int max = s->max_items ? s->max_items : SPEC_DEFAULT_MAX_ITEMS;
    if (n < (size_t)s->min_items || n > (size_t)max) {
        json_decref(arr);
        if (s->min_items > 0 && n == 0)
            set_error(e, E_FIELD_INVALID, name, "must not be empty");
        else
            set_error(e, E_FIELD_INVALID, name, "must have %d to %d items", s->min_items, max);
        return NULL;
    }
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++) {
        char item[160];
        snprintf(item, sizeof item, "%s[%zu]", name, i);
        json_t *el = json_array_get(arr, i), *norm;
        if (elem == FT_OBJ) {
            if (!json_is_object(el)) {
                set_error(e, E_FIELD_TYPE, item, "must be a JSON object");
                norm = NULL;
            } else {
                char prefix[170];
                snprintf(prefix, sizeof prefix, "%s.", item);
                norm = check_members(s->sub, el, prefix, e);
            }
        } else {
            norm = scalar(s, elem, item, el, src, e);
        }
        if (!norm) {
            json_decref(arr);
            json_decref(out);
            return NULL;
        }
        json_array_append_new(out, norm);
    }
    json_decref(arr);
    return out;
}

static json_t *normalise(const struct field_spec *s, const char *name, json_t *v, struct source src,
                         struct spec_error *e)
{
    switch (s->type) {
    case FT_STRS:
    case FT_INTS:
    case FT_OBJS: return array_of(s, name, v, src, e);
    case FT_OBJ: {
        if (!json_is_object(v)) {
            set_error(e, E_FIELD_TYPE, name, "must be a JSON object");
            return NULL;
        }
        char prefix[170];
        snprintf(prefix, sizeof prefix, "%s.", name);
        return check_members(s->sub, v, prefix, e);
    }
    default:
        if (json_is_array(v) && src.text) {
            set_error(e, E_FIELD_REPEATED, name, "must be given once");
            return NULL;
        }
        return scalar(s, s->type, name, v, src, e);
    }
}

/* Fills a missing field from its default; NULL when there is none. */
static json_t *default_of(const struct field_spec *s)
{
    return s->def ? json_loads(s->def, JSON_DECODE_ANY, NULL) : NULL;
}

/* Members of a JSON object (a body member of type FT_OBJ). */
static json_t *check_members(const struct field_spec *specs, json_t *obj, const char *prefix,
                             struct spec_error *e)
{
    char name[200];
    const char *k;
    json_t *v;
    json_object_foreach (obj, k, v) {
        if (!find_spec(specs, k)) {
            snprintf(name, sizeof name, "%s%s", prefix, k);
            set_error(e, E_FIELD_UNKNOWN, name, "is not a field of this object");
            return NULL;
        }
    }
    json_t *out = json_object();
    struct source json_src = {.text = false};
    for (const struct field_spec *s = specs; s->type != FT_END; s++) {
        snprintf(name, sizeof name, "%s%s", prefix, s->name);
        json_t *val = json_object_get(obj, s->name), *norm;
        if (!val || json_is_null(val)) {
            if (s->required) {
                set_error(e, E_FIELD_MISSING, name, "is required");
                json_decref(out);
                return NULL;
            }
            if ((norm = default_of(s)))
                json_object_set_new(out, s->name, norm);
            continue;
        }
        if (!(norm = normalise(s, name, val, json_src, e))) {
            json_decref(out);
            return NULL;
        }
        json_object_set_new(out, s->name, norm);
    }
    return out;
}

static int file_parts(const char *const *files, const char *name)
{
    int n = 0;
    for (; files && *files; files++)
        n += strcmp(*files, name) == 0;
    return n;
}

static int check_unknown(const struct field_spec *specs, json_t *obj, struct spec_error *e)
{
    const char *k;
    json_t *v;
    json_object_foreach (obj, k, v) {
        if (!find_spec(specs, k)) {
            set_error(e, E_FIELD_UNKNOWN, k, "is not a field of this endpoint");
            return -1;
        }
    }
    return 0;
}

void spec_check(const struct field_spec *specs, json_t *query, json_t *body, bool body_is_json, json_t *path,
                const char *const *files, json_t **out, struct spec_error *e)
{
    e->err = E_OK;
    e->message[0] = '\0';
    *out = NULL;
    if ((query && check_unknown(specs, query, e)) || (body && check_unknown(specs, body, e)))
        return;
    for (const char *const *f = files; f && *f; f++) {
        const struct field_spec *s = find_spec(specs, *f);
        if (!s || s->type != FT_FILE) {
            set_error(e, E_FIELD_UNKNOWN, *f, "is not a file field of this endpoint");
            return;
        }
    }

    json_t *res = json_object();
    for (const struct field_spec *s = specs; s->type != FT_END; s++) {
        json_t *v = NULL, *norm;
        struct source src = {.text = true};
        if (s->type == FT_FILE) {
            int parts = file_parts(files, s->name);
            if (s->required && parts == 0) {
                set_error(e, E_FIELD_MISSING, s->name, "is required (%s)", type_word(FT_FILE));
                goto fail;
            }
            if (parts > 1) {
                set_error(e, E_FIELD_REPEATED, s->name, "must be given once");
                goto fail;
            }
            /* the name as a text value, in the body or the query */
            if ((body && json_object_get(body, s->name)) || (query && json_object_get(query, s->name))) {
                set_error(e, E_FIELD_TYPE, s->name, "must be %s", type_word(FT_FILE));
                goto fail;
            }
            continue;
        }
        if (s->in == IN_PATH) {
            v = path ? json_object_get(path, s->name) : NULL;
        } else {
            json_t *vq = query ? json_object_get(query, s->name) : NULL;
            json_t *vb = body ? json_object_get(body, s->name) : NULL;
            if (vq && vb) {
                set_error(e, E_FIELD_REPEATED, s->name, "is given both in the query and in the body");
                goto fail;
            }
            if (s->in == IN_QUERY && vb) {
                set_error(e, E_FIELD_INVALID, s->name, "must be sent in the query string");
                goto fail;
            }
            if (s->in == IN_BODY && vq) {
                set_error(e, E_FIELD_INVALID, s->name, "must be sent in the request body");
                goto fail;
            }
            v = vq ? vq : vb;
            if (vb && body_is_json)
                src.text = false;
        }
        if (!v || (!src.text && json_is_null(v))) {
            if (s->required) {
                set_error(e, E_FIELD_MISSING, s->name, "is required");
                goto fail;
            }
            if ((norm = default_of(s)))
                json_object_set_new(res, s->name, norm);
            continue;
        }
        if (!(norm = normalise(s, s->name, v, src, e)))
            goto fail;
        json_object_set_new(res, s->name, norm);
    }
    *out = res;
    return;
fail:
    json_decref(res);
}
