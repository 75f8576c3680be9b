/* shape.h — a short notation for the JSON an endpoint answers with, turned
 * into a JSON Schema (2020-12, as OpenAPI 3.1 takes it). Used by
 * src/api_docs.def to describe each endpoint's result:
 *
 *   s  i  n  b  null  any      string, integer, number, boolean, null, anything
 *   [T]                        an array of T
 *   {a: T, b?: T}              an object with exactly these members; b may be absent
 *   {a: T, ...}                ... and possibly others
 *   {*: T}                     an object whose every member is a T (a map)
 *   T|U                        either (e.g. s|null)
 *   "text"                     exactly this string
 *   $Name                      a shared shape: #/components/schemas/Name
 *   @endpoint.id               the object an endpoint's body fields describe,
 *                              as it is stored and read back (see openapi.c)
 *
 * Spaces are free. A member name is letters, digits, '_' and '-'. */
#ifndef PARAPET_SHAPE_H
#define PARAPET_SHAPE_H

#include <jansson.h>
#include <stddef.h>

/* Resolves @name (not NUL-terminated: len bytes); returns a new schema, or
 * NULL when there is no such name. */
typedef json_t *shape_ref_fn(const char *name, size_t len, void *ctx);

/* The schema of `text` (a new reference), or NULL with *err set to what
 * is wrong and *at to the offset where. */
json_t *shape_schema(const char *text, shape_ref_fn *ref, void *ctx, const char **err, size_t *at);

#endif
