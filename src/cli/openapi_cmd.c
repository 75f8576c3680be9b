/* openapi_cmd.c — `parapet openapi [--server URL]`: prints the OpenAPI 3.1
 * document (core/openapi.h) that GET /api/openapi.json serves;
 * docs/openapi.json is this output for the placeholder server (a case of
 * the suite keeps the two equal). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "core/openapi.h"

int cli_openapi(int argc, char **argv)
{
    static const struct opt opts[] = {{.name = "server"}, {.name = NULL}};
    json_t *a = args_parse(argc, argv, opts);
    if (!a)
        return 2;
    json_t *doc = openapi_document(arg_str(a, "server") ?: "https://parapet.example:8443");
    char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    int rc = text && puts(text) >= 0 ? 0 : 1;
    free(text);
    json_decref(doc);
    json_decref(a);
    return rc;
}
