/* dashboard_mitigation.c — GET {OPD}/site/{site_id}/active_mitigation: for
 * each resource (site, network, host) holding an ongoing event of the site,
 * the dropped ("bot") and passed ("clean") rates toward its blocks over the
 * last five complete minutes. */
#include <stdio.h>
#include <stdlib.h>

#include "api/op/dashboard_flows.h"
#include "base/timefmt.h"
#include "core/resource.h"
#include "store/resource.h"

enum { ACTIVE_EVENTS_MAX = 1000 }; /* ongoing events looked at (newest first) */

/* One holder's entry, or NULL (after replying when *failed). */
static json_t *holder_entry(struct req *r, int64_t holder_rid, int64_t now, bool *failed)
{
    struct resource holder;
    int found = r->store->ops->res_get_rid(r->store, holder_rid, &holder);
    if (found == STORE_NOT_FOUND) /* deleted since: its blocks are gone too */
        return NULL;
    if (found != STORE_OK) {
        reply_store_error(r, found);
        *failed = true;
        return NULL;
    }
    char name[RES_NAME_MAX + 1];
    snprintf(name, sizeof name, "%s", holder.name);
    resource_clear(&holder);
    struct tel_range *ranges;
    size_t nr;
    json_t *cidrs;
    if (dash_holder_ranges(r, holder_rid, &ranges, &nr, &cidrs) != 0) {
        *failed = true;
        return NULL;
    }
    if (nr == 0) { /* a holder without blocks: nothing to measure */
        free(ranges);
        json_decref(cidrs);
        return NULL;
    }
    int64_t to = time_floor(now, DASH_MINUTE);
    struct tel_minutes_query q = {.site_rid = r->site.rid, .from = to - DASH_RECENT_S, .to = to};
    struct tel_minute *m;
    size_t n;
    int rc = dash_minutes(r, &q, ranges, nr, &m, &n);
    free(ranges);
    if (rc != 0) {
        json_decref(cidrs);
        *failed = true;
        return NULL;
    }
    int64_t bytes[2] = {0, 0}, packets[2] = {0, 0};
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            bytes[k] += m[i].bytes[k];
            packets[k] += m[i].packets[k];
        }
    free(m);
    return json_pack("{s:s,s:o,s:{s:I,s:I},s:{s:I,s:I}}", "name", name, "cidr", cidrs, "bps", "bot",
                     (json_int_t)dash_rate_of(bytes[1], 0, DASH_RECENT_S, DASH_BPS), "clean",
                     (json_int_t)dash_rate_of(bytes[0], 0, DASH_RECENT_S, DASH_BPS), "pps", "bot",
                     (json_int_t)dash_rate_of(0, packets[1], DASH_RECENT_S, DASH_PPS), "clean",
                     (json_int_t)dash_rate_of(0, packets[0], DASH_RECENT_S, DASH_PPS));
}

int op_dash_active_mitigation(struct req *r)
{
    int64_t now = dash_now();
    struct tel_event_query q = {.family = "op", .customer_id = r->site.customer_id, .site_rids = &r->site.rid,
                                .n_sites = 1, .from = 0, .to = now, .status = TEL_ONGOING,
                                .limit = ACTIVE_EVENTS_MAX};
    json_t *rows;
    long total;
    int rc = r->store->ops->tel_events_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    req_hold(r, rows);
    json_t *out = json_array(), *seen = json_object();
    size_t i;
    json_t *row;
    bool failed = false;
    json_array_foreach (rows, i, row) {
        int64_t holder = json_integer_value(json_object_get(row, "holder_rid"));
        char key[24];
        snprintf(key, sizeof key, "%lld", (long long)holder);
        if (json_object_get(seen, key))
            continue;
        json_object_set_new(seen, key, json_true());
        json_t *entry = holder_entry(r, holder, now, &failed);
        if (failed)
            break;
        if (entry)
            json_array_append_new(out, entry);
    }
    json_decref(seen);
    if (failed) {
        json_decref(out);
        return 0;
    }
    return reply_result(r, out);
}
