/* dashboard_detail.c — GET {OPD}/ddos_event/{event_id}/detail: one module
 * of an Origin Protection event's detail. The path has no site_id (gaps
 * B.4.7): the event names its site, and through it the customer; an event
 * the caller may not see answers like an unknown one. Also the traffic
 * module: bps and pps series (total, pass, drop) toward the event's range. */
#include <stdlib.h>
#include <string.h>

#include "api/op/dashboard_detail.h"
#include "base/timefmt.h"

/* Loads the path's event when the caller may act for its customer (a
 * portal token: a customer of its portal with Origin Protection; an
 * installed app's token: its customer, loaded and checked already). */
static int load_event(struct req *r, struct tel_event_ref *ev)
{
    int rc = r->store->ops->tel_op_event_get(r->store, "op", path_param(r, "event_id"), ev);
    if (rc == STORE_OK && r->caller.kind == TOKEN_PORTAL) {
        struct customer c;
        rc = r->store->ops->customer_get(r->store, ev->customer_id, &c);
        if (rc == STORE_OK && strcmp(c.portal_id, r->caller.portal_id) != 0)
            rc = STORE_NOT_FOUND;
        if (rc == STORE_OK && !c.svc_op)
            return reply_error(r, E_SERVICE_DISABLED, "customer %s does not have origin_protection", c.id), -1;
        if (rc == STORE_OK)
            r->customer = c;
    }
    return dash_event_lookup(r, rc, ev->customer_id);
}

int op_dash_event_detail(struct req *r)
{
    struct dash_event_window w;
    if (load_event(r, &w.ev) != 0)
        return 0;
    int64_t now = dash_now();
    int64_t last = w.ev.end_time ? w.ev.end_time : now > w.ev.start_time ? now : w.ev.start_time;
    w.from = time_floor(w.ev.start_time, DASH_MINUTE);
    w.to = time_floor(last, DASH_MINUTE) + DASH_MINUTE;
    const char *module = field_str(r, "module");
    if (strcmp(module, "traffic") == 0)
        return dash_detail_traffic(r, &w);
    if (strcmp(module, "characterization") == 0)
        return dash_detail_characterization(r, &w);
    if (strcmp(module, "threat_map") == 0)
        return dash_detail_threat_map(r, &w);
    return dash_detail_traffic_patterns(r, &w);
}

/* {"total": [[t, v]...], "pass": ..., "drop": ...} of one rate. */
static json_t *parts(const struct tel_minute *m, size_t n, const struct dash_event_window *w, int64_t step,
                     enum dash_rate rate)
{
    return json_pack("{s:o,s:o,s:o}", "total", dash_series(m, n, w->from, w->to, step, rate, DASH_TOTAL), "pass",
                     dash_series(m, n, w->from, w->to, step, rate, DASH_PASS), "drop",
                     dash_series(m, n, w->from, w->to, step, rate, DASH_DROP));
}

int dash_detail_traffic(struct req *r, const struct dash_event_window *w)
{
    struct tel_minutes_query q = {.site_rid = w->ev.site_rid, .from = w->from, .to = w->to};
    struct tel_range range = w->ev.range;
    struct tel_minute *m;
    size_t n;
    if (dash_minutes(r, &q, &range, 1, &m, &n) != 0)
        return 0;
    int64_t step = dash_step(w->to - w->from);
    json_t *traffic = json_pack("{s:o,s:o}", "bps", parts(m, n, w, step, DASH_BPS), "pps",
                                parts(m, n, w, step, DASH_PPS));
    free(m);
    return reply_result(r, json_pack("{s:o}", "traffic", traffic));
}
