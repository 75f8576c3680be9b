/* openapi.c — see openapi.h. The field schemas come from openapi_fields.c,
 * each operation's responses and example from its api_docs.def row
 * (openapi_result.c, openapi_example.c). */
#include "core/openapi.h"

#include <stdio.h>
#include <string.h>

#include "core/api_docs.h"
#include "core/openapi_impl.h"
#include "core/route.h"
#include "core/spec.h"

static const char *method_key(enum http_method m)
{
    static const char *const keys[] = {"get", "post", "put", "delete", "patch", "head", "options", "trace"};
    return (unsigned)m < sizeof keys / sizeof keys[0] ? keys[m] : "get";
}

static const struct field_spec *path_field(const struct route *r, const char *name)
{
    for (const struct field_spec *f = r->fields; f && f->type != FT_END; f++)
        if (f->in == IN_PATH && !strcmp(f->name, name))
            return f;
    return NULL;
}

/* Path parameters ({name} of the template) and, for requests without a
 * body, every field as a query parameter; with the example's value. */
static json_t *parameters(const struct route *r, bool has_body, json_t *example)
{
    json_t *out = json_array();
    for (const char *t = strchr(r->path, '{'); t; t = strchr(t + 1, '{')) {
        size_t n = strcspn(t + 1, "}");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)n, t + 1);
        const struct field_spec *f = path_field(r, name);
        json_t *p = json_pack("{s:s,s:s,s:b,s:o}", "name", name, "in", "path", "required", 1, "schema",
                              f ? openapi_field_schema(f) : json_pack("{s:s}", "type", "string"));
        json_t *v = json_object_get(example, name);
        if (v)
            json_object_set(p, "example", v);
        json_array_append_new(out, p);
    }
    for (const struct field_spec *f = r->fields; f && f->type != FT_END; f++) {
        if (f->in == IN_PATH || f->in == IN_BODY || (has_body && f->in != IN_QUERY))
            continue;
        json_t *p = json_pack("{s:s,s:s,s:b,s:o}", "name", f->name, "in", "query", "required", f->required,
                              "schema", openapi_field_schema(f));
        if (f->type == FT_STRS || f->type == FT_INTS)
            json_object_set_new(p, "explode", json_true());
        json_t *v = json_object_get(example, f->name);
        if (v)
            json_object_set(p, "example", v);
        json_array_append_new(out, p);
    }
    return out;
}

/* The body's media types, each with the schema of the body fields and the
 * example's body members. */
static json_t *request_body(const struct route *r, json_t *example)
{
    static const struct {
        unsigned enc;
        const char *type;
    } kinds[] = {{ENC_URLENCODED, "application/x-www-form-urlencoded"},
                 {ENC_MULTIPART, "multipart/form-data"},
                 {ENC_JSON, "application/json"}};
    json_t *content = json_object(), *body_example = json_object();
    for (const struct field_spec *f = r->fields; f && f->type != FT_END; f++) {
        json_t *v = json_object_get(example, f->name);
        if (v && f->in != IN_QUERY && f->in != IN_PATH)
            json_object_set(body_example, f->name, v);
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (!(r->encodings & kinds[i].enc))
            continue;
        json_t *c = json_pack("{s:o}", "schema", openapi_object_schema(r->fields, true));
        if (json_object_size(body_example))
            json_object_set(c, "example", body_example);
        json_object_set_new(content, kinds[i].type, c);
    }
    if (r->encodings & ENC_NDJSON) {
        json_t *c = json_pack("{s:{s:s}}", "schema", "type", "string");
        const struct api_doc *d = api_doc_find(r->id);
        if (d && d->example)
            json_object_set_new(c, "example", json_string(d->example));
        json_object_set_new(content, "application/x-ndjson", c);
    }
    json_decref(body_example);
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

/* Who may call: the access rule of the row (route.h), for readers and for
 * clients that pick a token (tests/contract). */
static const char *access_name(enum access a)
{
    switch (a) {
    case ACCESS_PUBLIC: return "public";
    case ACCESS_PORTAL: return "portal";
    case ACCESS_CUSTOMER: return "customer";
    case ACCESS_BOUND_CUSTOMER: return "bound_customer";
    case ACCESS_SITE: return "site";
    case ACCESS_TOKEN: return "token";
    case ACCESS_INGEST: return "ingest";
    case ACCESS_QUERY_CUSTOMER: return "query_customer";
    }
    return "token";
}

static const char *access_text(enum access a)
{
    switch (a) {
    case ACCESS_PUBLIC: return "No access_token: the app authenticates with its credentials.";
    case ACCESS_PORTAL: return "A portal app's token (client_credential).";
    case ACCESS_CUSTOMER:
        return "A token for the customer of the path: its portal's app, or the app installed for it.";
    case ACCESS_BOUND_CUSTOMER:
        return "The token of an app installed for a customer; acts for that customer.";
    case ACCESS_SITE: return "A token for the customer that owns the site of the path.";
    case ACCESS_TOKEN:
        return "Any app's token: a portal app's acts for its portal's customers, an installed app's for its "
               "customer.";
    case ACCESS_INGEST: return "An operator's ingest token (Authorization: Bearer).";
    case ACCESS_QUERY_CUSTOMER: return "A token for the customer named by the query's customer_id.";
    }
    return "";
}

static const char *service_text(enum service s)
{
    switch (s) {
    case SVC_AP: return " The customer must have Application Protection.";
    case SVC_OP: return " The customer must have Origin Protection (CleanPipe included).";
    case SVC_DNS: return " The customer must have DNS Protection.";
    case SVC_CDN: return " The customer must have CDN Federation.";
    case SVC_NONE: break;
    }
    return "";
}

static json_t *operation(const struct route *r, const char **err, size_t *at)
{
    const struct api_doc *d = api_doc_find(r->id);
    json_t *responses = openapi_responses(r, err, at);
    json_t *example = responses ? openapi_example(r, err) : NULL;
    if (!example) {
        json_decref(responses);
        return NULL;
    }
    bool has_body = r->encodings != ENC_NONE;
    char tag[32], description[512]; /* tag: the id's first part: auth, customer, dns, op, cp, ap, ... */
    snprintf(tag, sizeof tag, "%.*s", (int)strcspn(r->id, "."), r->id);
    snprintf(description, sizeof description, "%s. %s%s", d->summary, access_text(r->access),
             service_text(r->service));
    json_t *op =
        json_pack("{s:s,s:s,s:s,s:[s],s:o,s:o,s:o,s:s}", "operationId", r->id, "summary", d->summary,
                  "description", description, "tags", tag, "parameters", parameters(r, has_body, example),
                  "security", security_of(r), "responses", responses, "x-access", access_name(r->access));
    if (has_body)
        json_object_set_new(op, "requestBody", request_body(r, example));
    json_decref(example);
    return op;
}

json_t *openapi_document(const char *server_url)
{
    const char *err = NULL, *name = NULL;
    json_t *schemas = openapi_schemas(&err, &name);
    if (!schemas) {
        fprintf(stderr, "openapi: shape %s: %s\n", name, err);
        return NULL;
    }
    json_t *paths = json_object();
    for (size_t i = 0; i < routes_count; i++) {
        const struct route *r = &routes[i];
        char path[512];
        bool bare = strncmp(r->path, "/oauth/", 7) == 0 || strncmp(r->path, "/ingest/", 8) == 0;
        snprintf(path, sizeof path, "%s%s", bare ? "" : "/api", r->path);
        size_t at = 0;
        json_t *op = operation(r, &err, &at);
        if (!op) {
            fprintf(stderr, "openapi: %s: %s (at %zu)\n", r->id, err, at);
            json_decref(paths);
            json_decref(schemas);
            return NULL;
        }
        json_t *item = json_object_get(paths, path);
        if (!item)
            json_object_set_new(paths, path, item = json_object());
        json_object_set_new(item, method_key(r->method), op);
    }
    return json_pack(
        "{s:s,s:{s:s,s:s,s:s},s:[{s:s}],s:o,s:{s:{s:{s:s,s:s,s:s},s:{s:s,s:s,s:s}},s:o,s:{s:{s:s,s:{s:{s:{"
        "s:s}}}}}}}",
        "openapi", "3.1.0", "info", "title", "parapet", "version", "1", "description",
        "The managed-security Open API platform as parapet implements it: generated from its route table "
        "(src/routes.def), field specs and result shapes (src/api_docs.def), so it cannot differ from what "
        "the "
        "server checks.",
        "servers", "url", server_url, "paths", paths, "components", "securitySchemes", "accessToken", "type",
        "apiKey", "in", "query", "name", "access_token", "ingestToken", "type", "http", "scheme", "bearer",
        "description", "an operator's ingest token (parapet admin ingest-token create)", "schemas", schemas,
        "responses", "Error", "description", "an error envelope (docs/errors.md)", "content",
        "application/json", "schema", "$ref", "#/components/schemas/ErrorEnvelope");
}
