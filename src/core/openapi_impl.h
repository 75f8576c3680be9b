/* openapi_impl.h — the parts of the OpenAPI document (core/openapi.h) built
 * outside openapi.c: each operation's responses from its api_docs.def row
 * (openapi_result.c) and its request example (openapi_example.c). */
#ifndef PARAPET_OPENAPI_IMPL_H
#define PARAPET_OPENAPI_IMPL_H

#include <jansson.h>
#include <stdbool.h>

#include "core/route.h"

/* The schema of one field (its type and rules). */
json_t *openapi_field_schema(const struct field_spec *f);

/* The object schema of a list of field specs; body: the body's members
 * (query-only ones left out). */
json_t *openapi_object_schema(const struct field_spec *fields, bool body);

/* The responses of a route: its result per api_docs.def, and the error
 * envelopes. NULL with *err (and the offset *at in the result text) when
 * the route has no row or its result does not read. */
json_t *openapi_responses(const struct route *r, const char **err, size_t *at);

/* components/schemas: the error envelope and api_shapes.def. NULL with *err,
 * *name on a shape that does not read. */
json_t *openapi_schemas(const char **err, const char **name);

/* The request example of a route (an object of field name -> value typed by
 * the field specs), a new reference; NULL with *err when it does not read or
 * names a field the route does not take. No example: an empty object. */
json_t *openapi_example(const struct route *r, const char **err);

#endif
