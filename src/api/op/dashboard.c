/* dashboard.c — the Origin Protection dashboard reads about a site's DDoS
 * events and traffic ({OPD}/site/{site_id}/...): ddos_events,
 * is_under_attack, current_traffic (document 001; docs/decisions.md,
 * "Dashboards"). Everything is computed from stored telemetry. */
#include <string.h>
#include <time.h>

#include "api/dashboard/dashboard.h"
#include "api/op/op.h"
#include "base/timefmt.h"

/* The site's events that q selects (family and customer filled in here). */
static int site_events(struct req *r, struct tel_event_query *q, json_t **rows, long *total)
{
    q->family = "op";
    q->customer_id = r->site.customer_id;
    q->site_rids = &r->site.rid;
    q->n_sites = 1;
    int rc = r->store->ops->tel_events_list(r->store, q, rows, total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc), -1;
    return 0;
}

int op_dash_events(struct req *r)
{
    int64_t now = (int64_t)time(NULL), from, to;
    struct dash_window_rule rule = {DASH_TEXT, time_month_start(now, 0), 0, DASH_MONTH_SPAN, "31 days", 0};
    if (dash_window(r, &rule, &from, &to) != 0)
        return 0;
    struct tel_event_query q = {.from = from,
                                .to = to,
                                .status = (enum tel_status)field_int(r, "status", TEL_ANY),
                                .alert_id = field_str(r, "alert_id"),
                                .site_ip = field_str(r, "site_ip"),
                                .offset = field_int(r, "start", 0),
                                .limit = field_int(r, "num", 10)};
    json_t *events = json_array(), *rows = NULL;
    long total = 0;
    /* site_name names the path's site or none */
    const char *site_name = field_str(r, "site_name");
    if (!site_name || strcmp(site_name, r->site.name) == 0) {
        if (site_events(r, &q, &rows, &total) != 0) {
            json_decref(events);
            return 0;
        }
        size_t i;
        json_t *row;
        json_array_foreach (rows, i, row)
            json_array_append_new(events, dash_event_json(row, "op", r->site.name, now));
        json_decref(rows);
    }
    return reply_result(r, json_pack("{s:o,s:I}", "events", events, "total", (json_int_t)total));
}

/* The largest max_bps of the rows. */
static json_int_t largest_bps(const json_t *rows)
{
    json_int_t best = 0;
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_int_t bps = json_integer_value(json_object_get(row, "max_bps"));
        if (bps > best)
            best = bps;
    }
    return best;
}

/* Under attack while an event of the site is ongoing (bps_size: the largest
 * ongoing one); otherwise status 0 and the largest attack of ddos_events'
 * default window (this month). Agrees with ddos_events by construction. */
int op_dash_is_under_attack(struct req *r)
{
    int64_t now = (int64_t)time(NULL);
    struct tel_event_query q = {.from = 0, .to = now, .status = TEL_ONGOING, .limit = -1};
    json_t *rows;
    long total;
    if (site_events(r, &q, &rows, &total) != 0)
        return 0;
    int status = total > 0;
    if (!status) {
        json_decref(rows);
        struct tel_event_query month = {.from = time_month_start(now, 0), .to = now, .status = TEL_ANY, .limit = -1};
        if (site_events(r, &month, &rows, &total) != 0)
            return 0;
    }
    json_int_t size = largest_bps(rows);
    json_decref(rows);
    return reply_result(r, json_pack("{s:i,s:I}", "status", status, "bps_size", size));
}

/* bits/s toward the site's addresses in the last complete minute, passed
 * and dropped together. */
int op_dash_current_traffic(struct req *r)
{
    int64_t minute = time_floor((int64_t)time(NULL), 60) - 60, bytes, packets;
    int rc = r->store->ops->tel_site_volume(r->store, r->site.rid, minute, minute + 60, &bytes, &packets);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, json_pack("{s:I}", "bps_size", (json_int_t)(bytes * 8 / 60)));
}
