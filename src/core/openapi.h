/* openapi.h — the API as an OpenAPI 3.1 document, generated from the route
 * table (src/routes.def) and its field specs: paths, methods, path and
 * query parameters, the body encodings with each field's type, required,
 * lengths, ranges, enums and defaults, the access token as an apiKey in the
 * query, and the envelope with the error codes of errors.def. What the
 * server checks and what the document says come from the same rows.
 * Served at GET /api/openapi.json; `parapet openapi` prints it
 * (docs/openapi.json). */
#ifndef PARAPET_OPENAPI_H
#define PARAPET_OPENAPI_H

#include <jansson.h>

/* The document for a server at server_url (new reference). */
json_t *openapi_document(const char *server_url);

#endif
