/* admin_dataplane.c — `parapet admin dataplane status [--plane P]`: each
 * protected site's deploy state in each data plane (docs/dataplane.md). */
#include <stdio.h>

#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"

int admin_dataplane(struct store *s, const char *verb, json_t *args)
{
    (void)verb; /* "status" */
    json_t *rows = NULL;
    if (s->ops->dataplane_states(s, arg_str(args, "plane"), 0, &rows) != STORE_OK) {
        fprintf(stderr, "parapet: the store could not be read\n");
        return 1;
    }
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        json_object_del(row, "deployed"); /* the fragment itself: long, and the files show it */
        json_object_del(row, "site_rid");
    }
    return admin_print(json_pack("{s:o}", "dataplane", rows));
}
