/* admin_dataplane.c — `parapet admin dataplane status [--plane P]`: each
 * protected site's deploy state in each data plane (docs/dataplane.md). */
#include <stdio.h>

#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"
#include "dataplane/planes.h"

void admin_dataplane_planes(FILE *out)
{
    for (size_t i = 0; dp_plane_names[i]; i++)
        fprintf(out, "%s%s", i ? "|" : "", dp_plane_names[i]);
}

int admin_dataplane(struct store *s, const char *verb, json_t *args)
{
    (void)verb; /* "status" */
    json_t *rows = NULL;
    const char *plane = arg_str(args, "plane");
    if (plane && !dp_plane_known(plane)) {
        fprintf(stderr, "parapet: --plane: no data plane keeps deploy states under \"%s\" (one of ", plane);
        admin_dataplane_planes(stderr);
        fputs(")\n", stderr);
        return 2;
    }
    if (s->ops->dataplane_states(s, plane, 0, &rows) != STORE_OK) {
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
