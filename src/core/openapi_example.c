/* openapi_example.c — a route's request example from its api_docs.def row
 * (core/api_docs.h, core/openapi_impl.h): JSON as it is, or form text
 * whose values take the types of the route's field specs. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/api_docs.h"
#include "core/decode.h"
#include "core/openapi_impl.h"

static const struct field_spec *field_named(const struct route *r, const char *name)
{
    for (const struct field_spec *f = r->fields; f && f->type != FT_END; f++)
        if (!strcmp(f->name, name))
            return f;
    return NULL;
}

/* {name} is a parameter of the path template (one without a field spec). */
static bool in_path(const struct route *r, const char *name)
{
    const char *p = strstr(r->path, name);
    size_t n = strlen(name);
    return p && p > r->path && p[-1] == '{' && p[n] == '}';
}

/* One text value as the field's element type. */
static json_t *typed(enum field_type t, const char *text)
{
    char *end;
    switch (t) {
    case FT_INT:
    case FT_INTS: {
        long long v = strtoll(text, &end, 10);
        return *text && !*end ? json_integer(v) : NULL;
    }
    case FT_BOOL: return !strcmp(text, "true") ? json_true() : !strcmp(text, "false") ? json_false() : NULL;
    case FT_OBJ:
    case FT_OBJS:
    case FT_ANY: return json_loads(text, JSON_DECODE_ANY, NULL);
    default: return json_string(text);
    }
}

static json_t *typed_value(const struct field_spec *f, json_t *v)
{
    bool list = f->type == FT_STRS || f->type == FT_INTS;
    if (!json_is_array(v)) {
        json_t *t = typed(f->type, json_string_value(v));
        return list && t ? json_pack("[o]", t) : t;
    }
    if (!list)
        return NULL;
    json_t *out = json_array();
    size_t i;
    json_t *e;
    json_array_foreach (v, i, e) {
        json_t *t = typed(f->type, json_string_value(e));
        if (!t) {
            json_decref(out);
            return NULL;
        }
        json_array_append_new(out, t);
    }
    return out;
}

json_t *openapi_example(const struct route *r, const char **err)
{
    const struct api_doc *d = api_doc_find(r->id);
    if (!d || !d->example || (r->encodings & ENC_NDJSON))
        return json_object(); /* a raw body's example is the body's text (openapi.c) */
    if (d->example[0] == '{') {
        json_t *out = json_loads(d->example, 0, NULL);
        if (!out)
            *err = "the example is not a JSON object";
        return out;
    }
    json_t *text = json_object(), *out = json_object();
    struct decode_error de;
    if (query_decode(d->example, strlen(d->example), text, &de) != 0) {
        *err = "the example is not form-encoded text";
        goto bad;
    }
    const char *name;
    json_t *v;
    json_object_foreach (text, name, v) {
        const struct field_spec *f = field_named(r, name);
        json_t *t = f ? typed_value(f, v) : in_path(r, name) ? json_deep_copy(v) : NULL;
        if (!t) {
            *err = f ? "an example value does not have its field's type"
                     : "the example names a field the route does not take";
            goto bad;
        }
        json_object_set_new(out, name, t);
    }
    json_decref(text);
    return out;
bad:
    json_decref(text);
    json_decref(out);
    return NULL;
}
