/* openapi.c — see openapi.h. */
#include "core/openapi.h"

#include <stdio.h>
#include <string.h>

#include "core/errors.h"
#include "core/route.h"
#include "core/spec.h"

static const char *method_key(enum http_method m)
{
    static const char *const keys[] = {"get", "post", "put", "delete", "patch", "head", "options", "trace"};
    return (unsigned)m < sizeof keys / sizeof keys[0] ? keys[m] : "get";
}

static json_t *schema_of(const struct field_spec *f);

/* The members of an object (a route's body, an FT_OBJ's .sub). */
static json_t *object_schema(const struct field_spec *fields, enum field_in skip_in, bool body)
{
    json_t *props = json_object(), *required = json_array();
    for (const struct field_spec *f = fields; f && f->type != FT_END; f++) {
        if (f->in == IN_PATH || (body && f->in == IN_QUERY) || (!body && skip_in == IN_BODY && f->in == IN_BODY))
            continue;
        json_object_set_new(props, f->name, schema_of(f));
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

static json_t *schema_of(const struct field_spec *f)
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
        s = object_schema(f->sub, IN_ANY, true);
        break;
    case FT_OBJS:
        s = json_pack("{s:s,s:o}", "type", "array", "items", object_schema(f->sub, IN_ANY, true));
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

/* Path parameters ({name} of the template) and, for requests without a
 * body, every field as a query parameter. */
static json_t *parameters(const struct route *r, bool has_body)
{
    json_t *out = json_array();
    for (const char *p = strchr(r->path, '{'); p; p = strchr(p + 1, '{')) {
        size_t n = strcspn(p + 1, "}");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)n, p + 1);
        json_array_append_new(out, json_pack("{s:s,s:s,s:b,s:{s:s}}", "name", name, "in", "path", "required", 1,
                                             "schema", "type", "string"));
    }
    for (const struct field_spec *f = r->fields; f && f->type != FT_END; f++) {
        if (f->in == IN_PATH || f->in == IN_BODY || (has_body && f->in != IN_QUERY))
            continue;
        json_t *p = json_pack("{s:s,s:s,s:b,s:o}", "name", f->name, "in", "query", "required", f->required,
                              "schema", schema_of(f));
        if (f->type == FT_STRS || f->type == FT_INTS)
            json_object_set_new(p, "explode", json_true());
        json_array_append_new(out, p);
    }
    return out;
}

static json_t *request_body(const struct route *r)
{
    json_t *content = json_object();
    if (r->encodings & ENC_URLENCODED)
        json_object_set_new(content, "application/x-www-form-urlencoded",
                            json_pack("{s:o}", "schema", object_schema(r->fields, IN_ANY, true)));
    if (r->encodings & ENC_MULTIPART)
        json_object_set_new(content, "multipart/form-data",
                            json_pack("{s:o}", "schema", object_schema(r->fields, IN_ANY, true)));
    if (r->encodings & ENC_JSON)
        json_object_set_new(content, "application/json",
                            json_pack("{s:o}", "schema", object_schema(r->fields, IN_ANY, true)));
    if (r->encodings & ENC_NDJSON)
        json_object_set_new(content, "application/x-ndjson", json_pack("{s:{s:s}}", "schema", "type", "string"));
    return json_pack("{s:b,s:o}", "required", 1, "content", content);
}

static json_t *security_of(const struct route *r)
{
    if (r->access == ACCESS_PUBLIC)
        return json_array();
    if (r->access == ACCESS_INGEST)
        return json_pack("[{s:[]}]", "ingestToken");
    return json_pack("[{s:[]}]", "accessToken");
}

static json_t *operation(const struct route *r)
{
    bool has_body = r->encodings != ENC_NONE;
    char tag[32]; /* the id's first part: auth, customer, dns, op, cp, ap, ... */
    snprintf(tag, sizeof tag, "%.*s", (int)strcspn(r->id, "."), r->id);
    json_t *op = json_pack("{s:s,s:s,s:[s],s:o,s:o,s:{s:{s:s,s:{s:{s:{s:s}}}},s:{s:s},s:{s:s}}}", "operationId",
                           r->id, "summary", r->id, "tags", tag, "parameters", parameters(r, has_body), "security",
                           security_of(r), "responses", "200", "description",
                           "the envelope: code 0, msg \"success\" and the result", "content", "application/json",
                           "schema", "$ref", "#/components/schemas/Envelope", "4XX", "$ref",
                           "#/components/responses/Error", "5XX", "$ref", "#/components/responses/Error");
    if (has_body)
        json_object_set_new(op, "requestBody", request_body(r));
    return op;
}

static json_t *error_codes(void)
{
    json_t *codes = json_array();
    for (int e = 0; e < E__COUNT; e++)
        json_array_append_new(codes, json_integer(err_code((enum err)e)));
    return codes;
}

json_t *openapi_document(const char *server_url)
{
    json_t *paths = json_object();
    for (size_t i = 0; i < routes_count; i++) {
        const struct route *r = &routes[i];
        char path[512];
        bool bare = strncmp(r->path, "/oauth/", 7) == 0 || strncmp(r->path, "/ingest/", 8) == 0;
        snprintf(path, sizeof path, "%s%s", bare ? "" : "/api", r->path);
        json_t *item = json_object_get(paths, path);
        if (!item)
            json_object_set_new(paths, path, item = json_object());
        json_object_set_new(item, method_key(r->method), operation(r));
    }
    return json_pack(
        "{s:s,s:{s:s,s:s,s:s},s:[{s:s}],s:o,s:{s:{s:{s:s,s:s,s:s},s:{s:s,s:s,s:s}},s:{s:o,s:o},s:{s:{s:s,s:{s:{s:{"
        "s:s}}}}}}}",
        "openapi", "3.1.0", "info", "title", "parapet", "version", "1", "description",
        "The managed-security Open API platform as parapet implements it: generated from its route table "
        "(src/routes.def) and field specs, so it cannot differ from what the server checks.",
        "servers", "url", server_url, "paths", paths, "components", "securitySchemes", "accessToken", "type",
        "apiKey", "in", "query", "name", "access_token", "ingestToken", "type", "http", "scheme", "bearer",
        "description", "an operator's ingest token (parapet admin ingest-token create)", "schemas", "Envelope",
        json_pack("{s:s,s:[s,s],s:{s:{s:s},s:{s:s},s:{}}}", "type", "object", "required", "code", "msg",
                  "properties", "code", "type", "integer", "msg", "type", "string", "result"),
        "ErrorEnvelope",
        json_pack("{s:s,s:[s,s],s:{s:{s:s,s:o},s:{s:s}}}", "type", "object", "required", "code", "msg",
                  "properties", "code", "type", "integer", "enum", error_codes(), "msg", "type", "string"),
        "responses", "Error", "description", "an error envelope (docs/errors.md)", "content", "application/json",
        "schema", "$ref", "#/components/schemas/ErrorEnvelope");
}
