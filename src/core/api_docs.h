/* api_docs.h — what each endpoint is for and what it answers, kept beside
 * the route table: src/api_docs.def has one row per route id
 *
 *   DOC(endpoint id, summary, result, request example)
 *
 * and src/api_shapes.def the shapes several endpoints share
 *
 *   SHAPE(name, shape)
 *
 * The result is a shape (core/shape.h) of the envelope's `result`, or
 *   "-"                 the envelope without a result ({"code":0,"msg":"success"})
 *   "!redirect"         a 302 redirect (Location), no body
 *   "!file TYPE"        a download of media type TYPE, no envelope
 *   "!raw SHAPE"        a JSON document of that shape, no envelope
 * The request example is NULL, a JSON object (for JSON bodies), or
 * form-encoded text ("site_name=edge&cidr=198.51.100.0/24&cidr=..."), with
 * values typed by the route's field specs. openapi.c puts all of it into
 * the OpenAPI document; tests/unit/test_api_docs.c fails when a route has
 * no row, a row no route, or a shape or example does not read. */
#ifndef PARAPET_API_DOCS_H
#define PARAPET_API_DOCS_H

#include <stddef.h>

struct api_doc {
    const char *id;
    const char *summary;
    const char *result;
    const char *example;
};

struct api_shape {
    const char *name;
    const char *shape;
};

extern const struct api_doc api_docs[];
extern const size_t api_docs_count;
extern const struct api_shape api_shapes[];
extern const size_t api_shapes_count;

/* The row of an endpoint id, or NULL. */
const struct api_doc *api_doc_find(const char *id);

#endif
