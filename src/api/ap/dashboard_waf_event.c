/* dashboard_waf_event.c — one WAF event of the customer ({DASH}/waf/event/
 * {event_id}/log, /top and /download, doc 002; docs/decisions.md,
 * "Dashboards: Application Protection"): its log entries a page at a time,
 * its top countries and URLs, and all its entries as a CSV file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/ap/ap.h"
#include "api/ap/dashboard.h"
#include "api/ap/dashboard_calc.h"
#include "api/ap/waf_csv.h"
#include "api/dashboard/calc.h"
#include "base/strbuf.h"
#include "base/timefmt.h"
#include "core/catalogue.h"
#include "telemetry/geo.h"

enum {
    TOP_LIST = 10,
    DOWNLOAD_MAX_ENTRIES = 100000, /* ~40 MB of CSV at most */
};

/* The path's event when it is the customer's (404 otherwise, also for
 * another tenant's); -1 after replying. */
static int event_from_path(struct req *r, struct tel_waf_event_ref *ev)
{
    int rc = r->store->ops->tel_waf_event_get(r->store, path_param(r, "event_id"), ev);
    return dash_event_lookup(r, rc, ev->customer_id);
}

int ap_dash_waf_log(struct req *r)
{
    struct tel_waf_event_ref ev;
    if (event_from_path(r, &ev) != 0)
        return 0;
    int64_t from = field_int(r, "start_time", ev.start_time);
    int64_t to = field_int(r, "end_time", from + DASH_DAY);
    if (to < from)
        return reply_error(r, E_RULE, "end_time: is before start_time");
    json_t *logs;
    long total;
    int rc = r->store->ops->tel_waf_logs_list(r->store, ev.weid, from, to, field_int(r, "start", 0),
                                              field_int(r, "num", AP_DASH_NUM_DEFAULT), &logs, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, json_pack("{s:o,s:I}", "logs", logs, "total_num", (json_int_t)total));
}

/* The top rows of one counted dimension with their percents of all
 * entries; NULL after replying. */
static json_t *top_rows(struct req *r, const struct tel_waf_event_ref *ev, int dim, int *pct)
{
    json_t *rows;
    int64_t all;
    int rc = r->store->ops->tel_waf_event_counts(r->store, ev->weid, dim, TOP_LIST, &rows, &all);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return NULL;
    }
    int64_t counts[TOP_LIST];
    size_t n = json_array_size(rows);
    for (size_t i = 0; i < n && i < TOP_LIST; i++)
        counts[i] = json_integer_value(json_object_get(json_array_get(rows, i), "count"));
    dash_percents(counts, n, all, pct);
    return rows;
}

/* A country of the top list, placed where its commonest source is (the
 * operator's MaxMind database; 0, 0 without one). */
static json_t *country_json(struct req *r, const struct tel_waf_event_ref *ev, json_t *countries, const json_t *row,
                            int percent)
{
    const char *code = json_string_value(json_object_get(row, "key"));
    struct geo_place place = {0};
    char ip[64];
    struct ip_addr a;
    if (*code && r->store->ops->tel_waf_top_source(r->store, ev->weid, code, ip) == STORE_OK &&
        ip_parse(ip, &a) == 0)
        geo_locate(&a, &place);
    return json_pack("{s:s,s:O,s:s,s:f,s:f,s:i}", "code", code, "count", json_object_get(row, "count"), "country",
                     dash_country_name(countries, code), "latitude", place.latitude, "longitude", place.longitude,
                     "percent", percent);
}

int ap_dash_waf_top(struct req *r)
{
    struct tel_waf_event_ref ev;
    json_t *countries;
    if (event_from_path(r, &ev) != 0 || !(countries = catalogue_value(r, "countries")))
        return 0;
    int pct_country[TOP_LIST], pct_url[TOP_LIST];
    json_t *by_country = top_rows(r, &ev, TEL_WAF_COUNTRY, pct_country), *by_url;
    if (!by_country)
        return 0;
    if (!(by_url = top_rows(r, &ev, TEL_WAF_URL, pct_url))) {
        json_decref(by_country);
        return 0;
    }
    json_t *top_country = json_array(), *top_url = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (by_country, i, row)
        json_array_append_new(top_country, country_json(r, &ev, countries, row, pct_country[i]));
    json_array_foreach (by_url, i, row)
        json_array_append_new(top_url, json_pack("{s:O,s:i,s:O}", "count", json_object_get(row, "count"), "percent",
                                                 pct_url[i], "url", json_object_get(row, "key")));
    json_decref(by_country);
    json_decref(by_url);
    return reply_result(r, json_pack("{s:o,s:o}", "top10_country", top_country, "top10_url", top_url));
}

/* Each entry as its CSV row (waf_csv.h). */
static int csv_row(void *arg, const char *text)
{
    ap_waf_csv_row(arg, text);
    return 0;
}

int ap_dash_waf_download(struct req *r)
{
    struct tel_waf_event_ref ev;
    if (event_from_path(r, &ev) != 0)
        return 0;
    struct strbuf b = {0};
    ap_waf_csv_header(&b);
    int rc = r->store->ops->tel_waf_logs_each(r->store, ev.weid, DOWNLOAD_MAX_ENTRIES, csv_row, &b);
    if (rc != STORE_OK) {
        sb_free(&b);
        return reply_store_error(r, rc);
    }
    char filename[64];
    snprintf(filename, sizeof filename, "waf-event-%s.csv", ev.event_id);
    size_t len = b.len;
    return reply_download(r, "text/csv; charset=utf-8", filename, sb_take(&b), len);
}
