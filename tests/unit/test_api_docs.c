/* test_api_docs.c — every route has a summary, a result and an example that
 * read (src/api_docs.def, core/api_docs.h), no row names a route that does
 * not exist, every $Shape is defined; and the shape notation (core/shape.h)
 * itself: what it turns into, and the mistakes it refuses. */
#include "core/api_docs.h"
#include "core/openapi.h"
#include "core/openapi_impl.h"
#include "core/route.h"
#include "core/shape.h"

#include <stdlib.h>

#include "unit.h"

/* The schema of a shape as compact JSON text, or "error: <why> at <n>". */
static const char *schema_text(const char *shape)
{
    static char out[2048];
    const char *err = NULL;
    size_t at = 0;
    json_t *s = shape_schema(shape, NULL, NULL, &err, &at);
    if (!s) {
        snprintf(out, sizeof out, "error: %s at %zu", err, at);
        return out;
    }
    char *t = json_dumps(s, JSON_COMPACT | JSON_SORT_KEYS);
    snprintf(out, sizeof out, "%s", t);
    free(t);
    json_decref(s);
    return out;
}

TEST(shape_scalars_and_arrays)
{
    CHECK_STR(schema_text("s"), "{\"type\":\"string\"}");
    CHECK_STR(schema_text(" i "), "{\"type\":\"integer\"}");
    CHECK_STR(schema_text("[n]"), "{\"items\":{\"type\":\"number\"},\"type\":\"array\"}");
    CHECK_STR(schema_text("any"), "{}");
    CHECK_STR(schema_text("s|null"), "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]}");
    CHECK_STR(schema_text("\"3.1.0\""), "{\"const\":\"3.1.0\"}");
    CHECK_STR(schema_text("$Site"), "{\"$ref\":\"#/components/schemas/Site\"}");
}

TEST(shape_objects)
{
    CHECK_STR(schema_text("{a: s, b?: [i]}"),
              "{\"additionalProperties\":false,\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"items\":"
              "{\"type\":\"integer\"},\"type\":\"array\"}},\"required\":[\"a\"],\"type\":\"object\"}");
    CHECK_STR(schema_text("{a: s, ...}"),
              "{\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"a\"],\"type\":\"object\"}");
    CHECK_STR(schema_text("{*: i}"), "{\"additionalProperties\":{\"type\":\"integer\"},\"type\":\"object\"}");
    CHECK_STR(schema_text("{}"), "{\"additionalProperties\":false,\"type\":\"object\"}");
}

TEST(shape_mistakes)
{
    CHECK_STR(schema_text(""), "error: expected a shape at 0");
    CHECK_STR(schema_text("str"), "error: expected a shape at 0");
    CHECK_STR(schema_text("[s"), "error: expected ']' at 2");
    CHECK_STR(schema_text("{a s}"), "error: expected ':' after a member name at 3");
    CHECK_STR(schema_text("{a: s, a: i}"), "error: a member is named twice at 11");
    CHECK_STR(schema_text("{a: s b: i}"), "error: expected ',' or '}' at 6");
    CHECK_STR(schema_text("s i"), "error: unexpected text after the shape at 2");
    CHECK_STR(schema_text("@op.site.create"), "error: '@' names no endpoint with body fields at 15");
    char deep[80] = "";
    for (int i = 0; i < 40; i++)
        strcat(deep, "[");
    CHECK(strncmp(schema_text(deep), "error: nested too deeply", 24) == 0);
}

/* Every route: a row, a summary, a result that reads, an example that reads. */
TEST(every_route_is_documented)
{
    for (size_t i = 0; i < routes_count; i++) {
        const struct api_doc *d = api_doc_find(routes[i].id);
        if (!d || !d->summary || strlen(d->summary) < 10) {
            fprintf(stderr, "  %s: no summary in src/api_docs.def\n", routes[i].id);
            unit_failed_checks++;
            continue;
        }
        const char *err = NULL;
        size_t at = 0;
        json_t *responses = openapi_responses(&routes[i], &err, &at);
        if (!responses) {
            fprintf(stderr, "  %s: result: %s (at %zu)\n", routes[i].id, err, at);
            unit_failed_checks++;
        }
        json_decref(responses);
        json_t *example = openapi_example(&routes[i], &err);
        if (!example) {
            fprintf(stderr, "  %s: example: %s\n", routes[i].id, err);
            unit_failed_checks++;
        }
        json_decref(example);
    }
}

/* No row for a route that does not exist, and one row per route. */
TEST(every_row_is_a_route)
{
    for (size_t i = 0; i < api_docs_count; i++) {
        size_t routes_named = 0, rows_named = 0;
        for (size_t j = 0; j < routes_count; j++)
            routes_named += !strcmp(routes[j].id, api_docs[i].id);
        for (size_t j = 0; j < api_docs_count; j++)
            rows_named += !strcmp(api_docs[j].id, api_docs[i].id);
        if (routes_named != 1 || rows_named != 1) {
            fprintf(stderr, "  %s: %zu routes, %zu rows\n", api_docs[i].id, routes_named, rows_named);
            unit_failed_checks++;
        }
    }
}

/* Each $Name used anywhere is a shape of api_shapes.def, each shape reads. */
static void refs_defined(const json_t *v, const json_t *schemas, const char *where)
{
    if (json_is_object(v)) {
        const char *ref = json_string_value(json_object_get(v, "$ref"));
        const char *prefix = "#/components/schemas/";
        if (ref && !strncmp(ref, prefix, strlen(prefix)) && !json_object_get(schemas, ref + strlen(prefix))) {
            fprintf(stderr, "  %s: %s is not defined\n", where, ref);
            unit_failed_checks++;
        }
        const char *k;
        json_t *m;
        json_object_foreach ((json_t *)v, k, m)
            refs_defined(m, schemas, where);
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m;
        json_array_foreach (v, i, m)
            refs_defined(m, schemas, where);
    }
}

TEST(every_shape_is_defined)
{
    json_t *doc = openapi_document("https://parapet.example:8443");
    CHECK(doc != NULL);
    json_t *schemas = json_object_get(json_object_get(doc, "components"), "schemas");
    refs_defined(json_object_get(doc, "paths"), schemas, "paths");
    refs_defined(schemas, schemas, "components");
    for (size_t i = 0; i < api_shapes_count; i++)
        CHECK(json_object_get(schemas, api_shapes[i].name) != NULL);
    json_decref(doc);
}

UNIT_MAIN(UNIT_CASE(shape_scalars_and_arrays), UNIT_CASE(shape_objects), UNIT_CASE(shape_mistakes),
          UNIT_CASE(every_route_is_documented), UNIT_CASE(every_row_is_a_route),
          UNIT_CASE(every_shape_is_defined))
