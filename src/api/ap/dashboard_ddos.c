/* dashboard_ddos.c — the Application Protection DDoS dashboard
 * ({DASH}/ddos_events and {DASH}/ddos/event/{event_id}/top_traffic_patterns,
 * doc 002; docs/decisions.md, "Dashboards: Application Protection"): the
 * customer's AP DDoS events of one attack type, and the traffic patterns of
 * the flows toward an event's VIP while it lasted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/ap/ap.h"
#include "api/ap/ap_kinds.h"
#include "api/ap/dashboard.h"
#include "api/dashboard/calc.h"
#include "base/timefmt.h"
#include "core/resource.h"

enum { PATTERNS_TOP = 100 };

/* A stored AP event row as the list answers it: times at the caller's
 * offset (end_time "" while ongoing), doc 002's scales (severity 0 low, 1
 * medium, 2 high; status 0 ongoing, 1 stopped, as its WAF events). */
static json_t *event_json(struct req *r, const json_t *row, int64_t now, int64_t offset_s)
{
    char site_id[RES_ID_MAX + 1], site_name[RES_NAME_MAX + 1];
    ap_dash_site_name(r, json_integer_value(json_object_get(row, "site_rid")), site_id, sizeof site_id, site_name,
                      sizeof site_name);
    json_int_t start = json_integer_value(json_object_get(row, "start_time"));
    json_t *end_v = json_object_get(row, "end_time");
    bool ongoing = json_is_null(end_v);
    json_int_t end = ongoing ? now : json_integer_value(end_v);
    json_int_t severity = json_integer_value(json_object_get(row, "severity"));
    if (severity > TEL_SEV_HIGH)
        severity = TEL_SEV_HIGH; /* blackhole: AP's scale ends at high */
    return json_pack("{s:O,s:O,s:s,s:s,s:O,s:o,s:o,s:I,s:O,s:O,s:I,s:i}", "alert_id",
                     json_object_get(row, "alert_id"), "attack_type", json_object_get(row, "attack_type"), "site_id",
                     site_id, "site_name", site_name, "site_ip", json_object_get(row, "site_ip"), "start_time",
                     ap_dash_time(start, offset_s), "end_time",
                     ongoing ? json_string("") : ap_dash_time(end, offset_s), "duration",
                     end > start ? end - start : 0, "max_bps", json_object_get(row, "max_bps"), "max_pps",
                     json_object_get(row, "max_pps"), "severity", severity, "status", ongoing ? 0 : 1);
}

int ap_dash_ddos_events(struct req *r)
{
    int64_t now = (int64_t)time(NULL), from, to, offset_s = ap_dash_offset_s(r);
    /* end_time blank means ongoing: the window runs to now */
    struct dash_window_rule rule = {DASH_TEXT, 0, now, DASH_MONTH_SPAN, "31 days", offset_s};
    if (dash_window(r, &rule, &from, &to) != 0)
        return 0;
    struct resource site;
    const char *site_id = field_str(r, "site_id");
    if (site_id && res_by_id(r, AP_SITE.name, site_id, "site_id", "site", NULL, &site) != 0)
        return 0;
    const char *type = field_str(r, "attack_type");
    struct tel_event_query q = {.family = "ap",
                                .customer_id = r->customer.id,
                                .site_rids = site_id ? &site.rid : NULL,
                                .n_sites = site_id ? 1 : 0,
                                .from = from,
                                .to = to,
                                .status = TEL_ANY,
                                .attack_type = type,
                                .offset = field_int(r, "start", 0),
                                .limit = field_int(r, "num", AP_DASH_NUM_DEFAULT)};
    json_t *rows;
    long total;
    int rc = r->store->ops->tel_events_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *events = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        json_array_append_new(events, event_json(r, row, now, offset_s));
    json_decref(rows);
    char member[48];
    snprintf(member, sizeof member, "%s_ddos_events", type);
    return reply_result(r, json_pack("{s:{s:s,s:o},s:I}", "events", "attack_type", type, member, events, "total",
                                     (json_int_t)total));
}

/* What sort_type and unit rank the patterns by (average and total rank alike). */
static enum tel_pattern_order pattern_order(const char *sort_type, const char *unit)
{
    bool pps = strcmp(unit, "pps") == 0;
    if (strcmp(sort_type, "max") == 0)
        return pps ? TEL_BY_PEAK_PACKETS : TEL_BY_PEAK_BYTES;
    return pps ? TEL_BY_PACKETS : TEL_BY_BYTES;
}

static json_t *number_text(int64_t v)
{
    char text[24];
    snprintf(text, sizeof text, "%lld", (long long)v);
    return json_string(text);
}

int ap_dash_ddos_patterns(struct req *r)
{
    struct tel_event_ref ev;
    int rc = r->store->ops->tel_op_event_get(r->store, "ap", path_param(r, "event_id"), &ev);
    if (dash_event_lookup(r, rc, ev.customer_id) != 0)
        return 0;
    const char *sort_type = field_str(r, "sort_type"), *unit = field_str(r, "unit");
    int64_t from = time_floor(ev.start_time, DASH_MINUTE);
    int64_t to = (ev.end_time ? ev.end_time : (int64_t)time(NULL)) + 1;
    struct tel_pattern *p;
    size_t n;
    rc = r->store->ops->tel_op_patterns(r->store, ev.site_rid, &ev.range, from, to, pattern_order(sort_type, unit),
                                        PATTERNS_TOP, &p, &n);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    bool pps = strcmp(unit, "pps") == 0;
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++) {
        int64_t average = dash_rate_of(p[i].bytes, p[i].packets, to - from, pps ? DASH_PPS : DASH_BPS);
        json_array_append_new(
            out, json_pack("{s:o,s:o,s:s,s:o,s:o,s:s,s:o,s:{s:I,s:I},s:{s:o,s:o}}", "asn", number_text(p[i].src_as),
                           "average", number_text(average), "cidr", p[i].cidr, "dest_port", number_text(p[i].dst_port),
                           "protocol", number_text(p[i].protocol), "router", p[i].router, "src_port",
                           number_text(p[i].src_port), "max", "bps",
                           (json_int_t)dash_rate_of(p[i].peak_bytes, 0, DASH_MINUTE, DASH_BPS), "pps",
                           (json_int_t)dash_rate_of(0, p[i].peak_packets, DASH_MINUTE, DASH_PPS), "total", "byte",
                           number_text(p[i].bytes), "packet", number_text(p[i].packets)));
    }
    free(p);
    return reply_result(r, out);
}
