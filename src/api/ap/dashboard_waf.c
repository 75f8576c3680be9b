/* dashboard_waf.c — the WAF event list (GET /spe/ap/dashboard/waf/event,
 * doc 002; docs/decisions.md, "Dashboards: Application Protection"): the
 * WAF events of one site of the customer named in the query, newest first,
 * with their attack type summary. */
#include <string.h>
#include <time.h>

#include "api/ap/ap.h"
#include "api/ap/ap_kinds.h"
#include "api/ap/dashboard.h"
#include "api/ap/dashboard_calc.h"
#include "api/dashboard/dashboard.h"
#include "core/resource.h"

/* The summary looks at the 3 commonest types, and one more when "others"
 * itself is among them. */
enum { SUMMARY_ROWS = 4 };

static json_t *event_json(struct req *r, const json_t *row, const struct resource *site, int64_t now,
                          int64_t offset_s)
{
    json_t *counts;
    int64_t all;
    int64_t weid = json_integer_value(json_object_get(row, "weid"));
    if (r->store->ops->tel_waf_event_counts(r->store, weid, TEL_WAF_TYPE, SUMMARY_ROWS, &counts, &all) != STORE_OK)
        return NULL;
    json_t *summary = ap_waf_type_summary(counts, all);
    json_decref(counts);
    int64_t end = json_integer_value(json_object_get(row, "end_time"));
    json_int_t severity = json_integer_value(json_object_get(row, "severity"));
    return json_pack("{s:O,s:o,s:s,s:s,s:O,s:O,s:o,s:O,s:I,s:s,s:s,s:o,s:i}", "attack_count",
                     json_object_get(row, "attack_count"), "attack_type_summary", summary, "customer_id",
                     r->customer.id, "customer_name", r->customer.name, "domain_name",
                     json_object_get(row, "domain_name"), "domain_port_id", json_object_get(row, "domain_port_id"),
                     "end_time", ap_dash_time(end, offset_s), "event_id", json_object_get(row, "event_id"),
                     "severity", severity > TEL_SEV_HIGH ? (json_int_t)TEL_SEV_HIGH : severity, "site_id", site->id,
                     "site_name", site->name, "start_time",
                     ap_dash_time(json_integer_value(json_object_get(row, "start_time")), offset_s), "status",
                     now - end < TEL_WAF_GAP_S ? 0 : 1);
}

int ap_dash_waf_events(struct req *r)
{
    struct resource site;
    if (res_by_id(r, AP_SITE.name, field_str(r, "site_id"), "site_id", "site", NULL, &site) != 0)
        return 0;
    int64_t now = (int64_t)time(NULL), from, to, offset_s = ap_dash_offset_s(r);
    struct dash_window_rule rule = {DASH_TEXT_OR_STAMP, 0, now, DASH_MONTH_SPAN, "31 days", offset_s};
    if (dash_window(r, &rule, &from, &to) != 0)
        return 0;
    struct tel_waf_event_query q = {.customer_id = r->customer.id,
                                    .site_rid = site.rid,
                                    .from = from,
                                    .to = to,
                                    .offset = field_int(r, "start", 0),
                                    .limit = field_int(r, "num", AP_DASH_NUM_DEFAULT)};
    json_t *rows;
    long total;
    int rc = r->store->ops->tel_waf_events_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *events = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_t *e = event_json(r, row, &site, now, offset_s);
        if (!e) {
            json_decref(rows);
            json_decref(events);
            return reply_store_error(r, STORE_ERROR);
        }
        json_array_append_new(events, e);
    }
    json_decref(rows);
    return reply_result(r, json_pack("{s:o,s:I}", "events", events, "total_num", (json_int_t)total));
}
