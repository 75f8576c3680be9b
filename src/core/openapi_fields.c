/* openapi_fields.c — JSON Schemas of field specs (core/spec.h) for the
 * OpenAPI document: each field's type, lengths, ranges, enum and default. */
#include "core/openapi_impl.h"
#include "core/spec.h"

/* The members of an object (a route's body, an FT_OBJ's .sub). */
json_t *openapi_object_schema(const struct field_spec *fields, bool body)
{
    json_t *props = json_object(), *required = json_array();
    for (const struct field_spec *f = fields; f && f->type != FT_END; f++) {
        if (f->in == IN_PATH || (body && f->in == IN_QUERY))
            continue;
        json_object_set_new(props, f->name, openapi_field_schema(f));
        if (f->required)
            json_array_append_new(required, json_string(f->name));
    }
    json_t *out = json_pack("{s:s,s:o}", "type", "object", "properties", props);
    if (json_array_size(required))
        json_object_set_new(out, "required", required);
    else
        json_decref(required);
    return out;
}

/* A string, integer or boolean with its limits. */
static json_t *scalar(const struct field_spec *f, enum field_type t)
{
    json_t *s = json_object();
    if (t == FT_INT || t == FT_INTS) {
        json_object_set_new(s, "type", json_string("integer"));
        if (f->has_range) {
            json_object_set_new(s, "minimum", json_integer(f->min));
            json_object_set_new(s, "maximum", json_integer(f->max));
        }
    } else if (t == FT_BOOL) {
        json_object_set_new(s, "type", json_string("boolean"));
    } else {
        json_object_set_new(s, "type", json_string("string"));
        if (f->min_len)
            json_object_set_new(s, "minLength", json_integer(f->min_len));
        json_object_set_new(s, "maxLength", json_integer(f->max_len ? f->max_len : SPEC_DEFAULT_MAX_LEN));
        if (f->one_of) {
            json_t *e = json_array();
            for (const char *const *v = f->one_of; *v; v++)
                json_array_append_new(e, json_string(*v));
            json_object_set_new(s, "enum", e);
        }
    }
    return s;
}

json_t *openapi_field_schema(const struct field_spec *f)
{
    json_t *s;
    switch (f->type) {
    case FT_STRS:
    case FT_INTS:
        s = json_pack("{s:s,s:o,s:i}", "type", "array", "items", scalar(f, f->type), "maxItems",
                      f->max_items ? f->max_items : SPEC_DEFAULT_MAX_ITEMS);
        if (f->min_items)
            json_object_set_new(s, "minItems", json_integer(f->min_items));
        break;
    case FT_OBJ:
        s = openapi_object_schema(f->sub, true);
        break;
    case FT_OBJS:
        s = json_pack("{s:s,s:o}", "type", "array", "items", openapi_object_schema(f->sub, true));
        break;
    case FT_FILE:
        s = json_pack("{s:s,s:s}", "type", "string", "format", "binary");
        break;
    case FT_ANY:
        s = json_object();
        break;
    default:
        s = scalar(f, f->type);
    }
    if (f->def) {
        json_t *d = json_loads(f->def, JSON_DECODE_ANY, NULL);
        if (d)
            json_object_set_new(s, "default", d);
    }
    return s;
}
