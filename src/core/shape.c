/* shape.c — see shape.h: a recursive-descent reader of the notation. */
#include "core/shape.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct reader {
    const char *text, *p;
    shape_ref_fn *ref;
    void *ctx;
    const char *err;
    int depth;
};

enum { SHAPE_MAX_DEPTH = 32 };

static json_t *alternatives(struct reader *r);

static void skip(struct reader *r)
{
    while (isspace((unsigned char)*r->p))
        r->p++;
}

static json_t *fail(struct reader *r, const char *why)
{
    if (!r->err)
        r->err = why;
    return NULL;
}

static size_t name_len(const char *p, const char *extra)
{
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_' || (p[n] && strchr(extra, p[n])))
        n++;
    return n;
}

static bool word(struct reader *r, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(r->p, w, n) || name_len(r->p + n, "") || r->p[n] == '.')
        return false;
    r->p += n;
    return true;
}

static json_t *typed(const char *type)
{
    return json_pack("{s:s}", "type", type);
}

static json_t *array(struct reader *r)
{
    json_t *items = alternatives(r);
    skip(r);
    if (!items || *r->p != ']') {
        json_decref(items);
        return fail(r, "expected ']'");
    }
    r->p++;
    return json_pack("{s:s,s:o}", "type", "array", "items", items);
}

/* One member "name?: T", "*: T" or "...", added to the object schema. */
static int member(struct reader *r, json_t *props, json_t *required, json_t *out)
{
    if (!strncmp(r->p, "...", 3)) {
        r->p += 3;
        json_object_del(out, "additionalProperties");
        return 0;
    }
    bool map = *r->p == '*';
    size_t n = map ? 1 : name_len(r->p, "-");
    if (!n)
        return fail(r, "expected a member name"), -1;
    char name[128];
    if (n >= sizeof name)
        return fail(r, "member name too long"), -1;
    memcpy(name, r->p, n);
    name[n] = '\0';
    r->p += n;
    bool optional = *r->p == '?';
    r->p += optional;
    skip(r);
    if (*r->p != ':')
        return fail(r, "expected ':' after a member name"), -1;
    r->p++;
    json_t *s = alternatives(r);
    if (!s)
        return -1;
    if (map) {
        json_object_set_new(out, "additionalProperties", s);
        return 0;
    }
    if (json_object_get(props, name)) {
        json_decref(s);
        return fail(r, "a member is named twice"), -1;
    }
    json_object_set_new(props, name, s);
    if (!optional)
        json_array_append_new(required, json_string(name));
    return 0;
}

static json_t *object(struct reader *r)
{
    json_t *props = json_object(), *required = json_array();
    json_t *out = json_pack("{s:s,s:b}", "type", "object", "additionalProperties", 0);
    skip(r);
    while (*r->p != '}') {
        if (member(r, props, required, out) != 0)
            goto bad;
        skip(r);
        if (*r->p == ',') {
            r->p++;
            skip(r);
        } else if (*r->p != '}') {
            fail(r, "expected ',' or '}'");
            goto bad;
        }
    }
    r->p++;
    if (json_object_size(props))
        json_object_set(out, "properties", props);
    if (json_array_size(required))
        json_object_set(out, "required", required);
    json_decref(props);
    json_decref(required);
    return out;
bad:
    json_decref(props);
    json_decref(required);
    json_decref(out);
    return NULL;
}

static json_t *literal(struct reader *r)
{
    const char *end = strchr(r->p, '"');
    if (!end)
        return fail(r, "unterminated string");
    json_t *out = json_pack("{s:s%}", "const", r->p, (size_t)(end - r->p));
    r->p = end + 1;
    return out;
}

static json_t *one(struct reader *r)
{
    skip(r);
    if (++r->depth > SHAPE_MAX_DEPTH)
        return fail(r, "nested too deeply");
    char c = *r->p;
    json_t *out = NULL;
    if (strchr("[{\"$@", c) && c)
        r->p++;
    if (c == '[')
        out = array(r);
    else if (c == '{')
        out = object(r);
    else if (c == '"')
        out = literal(r);
    else if (c == '$') {
        size_t n = name_len(r->p, "");
        char ref[160];
        if (n && n < 100) {
            snprintf(ref, sizeof ref, "#/components/schemas/%.*s", (int)n, r->p);
            out = json_pack("{s:s}", "$ref", ref);
        } else
            fail(r, "expected a shape name after '$'");
        r->p += n;
    } else if (c == '@') {
        size_t n = name_len(r->p, ".");
        out = n && r->ref ? r->ref(r->p, n, r->ctx) : NULL;
        if (!out)
            fail(r, "'@' names no endpoint with body fields");
        r->p += n;
    } else if (word(r, "s"))
        out = typed("string");
    else if (word(r, "i"))
        out = typed("integer");
    else if (word(r, "n"))
        out = typed("number");
    else if (word(r, "b"))
        out = typed("boolean");
    else if (word(r, "null"))
        out = typed("null");
    else if (word(r, "any"))
        out = json_object();
    else
        fail(r, "expected a shape");
    r->depth--;
    return out;
}

static json_t *alternatives(struct reader *r)
{
    json_t *first = one(r);
    skip(r);
    if (!first || *r->p != '|')
        return first;
    json_t *any = json_pack("{s:[o]}", "anyOf", first);
    while (*r->p == '|') {
        r->p++;
        json_t *next = one(r);
        if (!next) {
            json_decref(any);
            return NULL;
        }
        json_array_append_new(json_object_get(any, "anyOf"), next);
        skip(r);
    }
    return any;
}

json_t *shape_schema(const char *text, shape_ref_fn *ref, void *ctx, const char **err, size_t *at)
{
    struct reader r = {.text = text, .p = text, .ref = ref, .ctx = ctx};
    json_t *out = alternatives(&r);
    skip(&r);
    if (out && *r.p) {
        json_decref(out);
        out = fail(&r, "unexpected text after the shape");
    }
    if (!out) {
        *err = r.err ? r.err : "not a shape";
        *at = (size_t)(r.p - text);
    }
    return out;
}
