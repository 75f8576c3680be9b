/* openapi_result.c — an operation's responses from its api_docs.def row
 * (core/api_docs.h, core/openapi_impl.h). */
#include <string.h>

#include "core/api_docs.h"
#include "core/errors.h"
#include "core/openapi_impl.h"
#include "core/shape.h"

/* @endpoint.id: what the endpoint's body fields describe, as a stored
 * document reads back: every member present. */
static json_t *stored_fields(const char *name, size_t len, void *ctx)
{
    (void)ctx;
    for (size_t i = 0; i < routes_count; i++) {
        const struct route *r = &routes[i];
        if (strlen(r->id) != len || strncmp(r->id, name, len) || r->encodings == ENC_NONE)
            continue;
        json_t *s = openapi_object_schema(r->fields, true);
        json_t *required = json_array();
        const char *key;
        json_t *v;
        json_object_foreach (json_object_get(s, "properties"), key, v)
            json_array_append_new(required, json_string(key));
        json_object_set_new(s, "required", required);
        json_object_set_new(s, "additionalProperties", json_false());
        return s;
    }
    return NULL;
}

static json_t *success(json_t *result)
{
    json_t *s =
        json_pack("{s:s,s:[s,s],s:b,s:{s:{s:i},s:{s:s}}}", "type", "object", "required", "code", "msg",
                  "additionalProperties", 0, "properties", "code", "const", 0, "msg", "const", "success");
    if (result) {
        json_array_append_new(json_object_get(s, "required"), json_string("result"));
        json_object_set_new(json_object_get(s, "properties"), "result", result);
    }
    return s;
}

static json_t *content(const char *type, json_t *schema)
{
    return json_pack("{s:{s:o}}", type, "schema", schema);
}

static json_t *ok_response(const char *result, const char **err, size_t *at)
{
    if (!strcmp(result, "-"))
        return json_pack("{s:s,s:o}", "description", "the envelope without a result", "content",
                         content("application/json", success(NULL)));
    if (!strcmp(result, "!redirect"))
        return json_pack("{s:s,s:{s:{s:s,s:{s:s}}}}", "description", "a redirect", "headers", "Location",
                         "description", "where the client goes on", "schema", "type", "string");
    if (!strncmp(result, "!file ", 6))
        return json_pack("{s:s,s:o}", "description", "a download (no envelope)", "content",
                         content(result + 6, json_pack("{s:s,s:s}", "type", "string", "format", "binary")));
    bool raw = !strncmp(result, "!raw ", 5);
    size_t skip = raw ? 5 : 0;
    json_t *s = shape_schema(result + skip, stored_fields, NULL, err, at);
    if (!s) {
        *at += skip;
        return NULL;
    }
    return json_pack("{s:s,s:o}", "description",
                     raw ? "the document itself (no envelope)"
                         : "the envelope: code 0, msg \"success\" and the result",
                     "content", content("application/json", raw ? s : success(s)));
}

json_t *openapi_responses(const struct route *r, const char **err, size_t *at)
{
    const struct api_doc *d = api_doc_find(r->id);
    *at = 0;
    if (!d || !d->result) {
        *err = "no row in src/api_docs.def";
        return NULL;
    }
    json_t *ok = ok_response(d->result, err, at);
    if (!ok)
        return NULL;
    return json_pack("{s:o,s:{s:s},s:{s:s}}", strcmp(d->result, "!redirect") ? "200" : "302", ok, "4XX",
                     "$ref", "#/components/responses/Error", "5XX", "$ref", "#/components/responses/Error");
}

static json_t *error_codes(void)
{
    json_t *codes = json_array();
    for (int e = 0; e < E__COUNT; e++)
        json_array_append_new(codes, json_integer(err_code((enum err)e)));
    return codes;
}

json_t *openapi_schemas(const char **err, const char **name)
{
    json_t *out = json_pack("{s:{s:s,s:[s,s],s:b,s:{s:{s:s,s:o},s:{s:s}}}}", "ErrorEnvelope", "type",
                            "object", "required", "code", "msg", "additionalProperties", 0, "properties",
                            "code", "type", "integer", "enum", error_codes(), "msg", "type", "string");
    for (size_t i = 0; i < api_shapes_count; i++) {
        size_t at;
        json_t *s = shape_schema(api_shapes[i].shape, stored_fields, NULL, err, &at);
        if (!s) {
            *name = api_shapes[i].name;
            json_decref(out);
            return NULL;
        }
        json_object_set_new(out, api_shapes[i].name, s);
    }
    return out;
}
