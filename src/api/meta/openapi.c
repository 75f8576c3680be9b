/* openapi.c — GET /api/openapi.json: the OpenAPI 3.1 document of this
 * server (core/openapi.h), served as it is (not in the envelope). Built
 * once: the route table does not change while the server runs. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api/meta/meta.h"
#include "core/config.h"
#include "core/openapi.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char *document;
static const char *server_url;

static void build(void)
{
    json_t *doc = openapi_document(server_url);
    document = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(doc);
}

int meta_openapi(struct req *r)
{
    server_url = r->config->public_url;
    pthread_once(&once, build);
    if (!document)
        return reply_error(r, E_INTERNAL, "the OpenAPI document could not be built");
    char *copy = strdup(document);
    return copy ? reply_raw(r, "application/json", copy, strlen(copy))
                : reply_error(r, E_INTERNAL, "out of memory");
}
