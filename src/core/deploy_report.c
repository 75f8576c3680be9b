/* deploy_report.c — see deploy_report.h. */
#include "core/deploy_report.h"

#include "core/errors.h"

json_t *deploy_report(struct req *r, int64_t site_rid)
{
    json_t *rows = NULL;
    if (site_rid <= 0 || r->store->ops->dataplane_states(r->store, NULL, site_rid, &rows) != STORE_OK) {
        json_decref(rows);
        reply_error(r, E_STORE, "the store is not available");
        return NULL;
    }
    json_t *out = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        json_array_append_new(out, json_pack("{s:O,s:O,s:O,s:O}", "plane", json_object_get(row, "plane"), "state",
                                             json_object_get(row, "state"), "reason", json_object_get(row, "reason"),
                                             "updated_at", json_object_get(row, "updated_at")));
    json_decref(rows);
    return out;
}
