/* admin_audit.c — `parapet admin audit list|export [--customer ID]
 * [--app ID] [--route ID] [--since T] [--until T] [--limit N]`: the audit
 * log's rows (core/audit.h) in commit order, as one JSON object (list) or
 * as JSON lines (export, for log shippers). T: unix seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"

/* target, changes and diff are stored as JSON text: hand them out as JSON. */
static void parse_members(json_t *row)
{
    static const char *const members[] = {"target", "changes", "diff"};
    for (size_t i = 0; i < 3; i++) {
        json_t *v = json_loads(json_string_value(json_object_get(row, members[i])) ?: "{}", 0, NULL);
        json_object_set_new(row, members[i], v ? v : json_object());
    }
}

int admin_audit(struct store *s, const char *verb, json_t *args)
{
    long since, until, limit;
    if (arg_long(args, "since", 0, 0, 1L << 40, &since) != 0 ||
        arg_long(args, "until", (long)time(NULL) + 1, 0, 1L << 40, &until) != 0 ||
        arg_long(args, "limit", 1000, 1, 10000000, &limit) != 0)
        return 2;
    struct audit_query q = {.customer_id = arg_str(args, "customer"), .app_id = arg_str(args, "app"),
                            .route = arg_str(args, "route"), .since = since, .until = until, .limit = limit};
    json_t *rows = NULL;
    if (s->ops->audit_list(s, &q, &rows) != STORE_OK) {
        fprintf(stderr, "parapet: the store could not be read\n");
        return 1;
    }
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        parse_members(row);
    if (strcmp(verb, "export") != 0)
        return admin_print(json_pack("{s:o}", "audit", rows));
    json_array_foreach (rows, i, row) {
        char *line = json_dumps(row, JSON_COMPACT);
        if (line)
            puts(line);
        free(line);
    }
    json_decref(rows);
    return 0;
}
