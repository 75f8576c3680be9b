/* dashboard_flow_down.c — GET {OPD}/site/{site_id}/flow_down_events: the
 * site's flow-down events (a router stopped exporting its flows) in a window
 * of 10-digit timestamps, 90 days ago to now by default, at most 90 days;
 * status 0 ongoing, 1 stopped, 2 all (document 001). */
#include <time.h>

#include "api/dashboard/dashboard.h"
#include "api/op/op.h"

enum { FLOW_DOWN_SPAN = 90 * DASH_DAY };

int op_dash_flow_down_events(struct req *r)
{
    int64_t now = (int64_t)time(NULL), from, to;
    struct dash_window_rule rule = {DASH_STAMP, now - FLOW_DOWN_SPAN, now, FLOW_DOWN_SPAN, "90 days", 0};
    if (dash_window(r, &rule, &from, &to) != 0)
        return 0;
    /* this list's status scale is 0 ongoing, 1 stopped (the DDoS lists' is the reverse) */
    static const enum tel_status status_of[] = {TEL_ONGOING, TEL_STOPPED, TEL_ANY};
    enum tel_status status = status_of[field_int(r, "status", 2)];
    json_t *rows;
    int rc = r->store->ops->tel_flow_downs_list(r->store, r->site.rid, from, to, status, &rows);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *events = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_int_t start = json_integer_value(json_object_get(row, "start_time"));
        json_t *end_v = json_object_get(row, "end_time");
        json_int_t end = json_is_null(end_v) ? 0 : json_integer_value(end_v);
        json_array_append_new(events, json_pack("{s:O,s:I,s:I,s:O,s:s,s:I}", "alert_id",
                                                json_object_get(row, "alert_id"), "duration",
                                                (end ? end : (json_int_t)now) - start, "end_time", end,
                                                "router_name", json_object_get(row, "router_name"), "site",
                                                r->site.name, "start_time", start));
    }
    json_decref(rows);
    return reply_result(r, events);
}
