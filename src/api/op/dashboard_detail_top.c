/* dashboard_detail_top.c — the detail modules read from the raw flows
 * toward an event's range during the event: characterization (the top 5
 * of each element, with integer percents of the bytes), threat_map (the top
 * 10 sources by bytes and by packets, with geography) and traffic_patterns
 * (the top 100 source /24, router, protocol, ports and AS combinations). */
#include <stdlib.h>

#include "api/op/dashboard_detail.h"
#include "core/catalogue.h"
#include "telemetry/geo.h"

enum { CHARACTERIZATION_TOP = 5, THREAT_MAP_TOP = 10, PATTERNS_TOP = 100 };

/* The top `limit` keys of dim toward the event; *rows malloc'd. */
static int top(struct req *r, const struct dash_event_window *w, int dim, bool by_packets, long limit,
               struct tel_top_row **rows, size_t *n, struct tel_top_row *all)
{
    struct tel_top_query q = {.site_rid = w->ev.site_rid, .range = &w->ev.range, .from = w->from, .to = w->to,
                              .dim = dim, .by_packets = by_packets, .limit = limit};
    int rc = r->store->ops->tel_op_top(r->store, &q, rows, n, all);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    return 0;
}

/* Percents of each row's bytes (or packets) in all's. */
static int *row_percents(const struct tel_top_row *rows, size_t n, const struct tel_top_row *all, bool by_packets)
{
    int64_t *v = calloc(n + 1, sizeof *v);
    int *pct = calloc(n + 1, sizeof *pct);
    if (v && pct) {
        for (size_t i = 0; i < n; i++)
            v[i] = by_packets ? rows[i].packets : rows[i].bytes;
        dash_percents(v, n, by_packets ? all->packets : all->bytes, pct);
    }
    free(v);
    return pct;
}

int dash_detail_characterization(struct req *r, const struct dash_event_window *w)
{
    static const struct {
        const char *element;
        int dim;
    } elements[] = {{"src_country", TEL_DIM_COUNTRY}, {"src_as", TEL_DIM_AS},         {"src_ip", TEL_DIM_SRC},
                    {"protocol", TEL_DIM_PROTOCOL},   {"src_port", TEL_DIM_SRC_PORT}, {"dst_port", TEL_DIM_DST_PORT}};
    json_t *countries = catalogue_value(r, "countries"), *protocols;
    if (!countries || !(protocols = catalogue_value(r, "ip_protocol_number_list")))
        return 0;
    json_t *out = json_array();
    struct tel_top_row all; /* every element's rows share it: read once */
    for (size_t e = 0; e < sizeof elements / sizeof elements[0]; e++) {
        struct tel_top_row *rows;
        size_t n;
        if (top(r, w, elements[e].dim, false, CHARACTERIZATION_TOP, &rows, &n, e ? NULL : &all) != 0) {
            json_decref(out);
            return 0;
        }
        int *pct = row_percents(rows, n, &all, false);
        for (size_t i = 0; pct && i < n; i++) {
            int dim = elements[e].dim;
            const char *item = dim == TEL_DIM_PROTOCOL ? dash_protocol_name(protocols, rows[i].key) : rows[i].key;
            const char *cc = dim == TEL_DIM_COUNTRY ? rows[i].key : dim == TEL_DIM_SRC ? rows[i].country : "";
            json_array_append_new(out, json_pack("{s:s,s:s,s:s,s:i,s:I}", "country", dash_country_name(countries, cc),
                                                 "element", elements[e].element, "item", item, "percent", pct[i],
                                                 "value", (json_int_t)rows[i].bytes));
        }
        free(pct);
        free(rows);
    }
    return reply_result(r, json_pack("{s:o}", "characterization", out));
}

/* The top sources by bytes (bps) or packets (pps); *all is read by the
 * first call (bytes and packets alike) and reused by the second. */
static json_t *threats(struct req *r, const struct dash_event_window *w, json_t *countries, bool pps,
                       struct tel_top_row *all)
{
    struct tel_top_row *rows;
    size_t n;
    if (top(r, w, TEL_DIM_SRC, pps, THREAT_MAP_TOP, &rows, &n, pps ? NULL : all) != 0)
        return NULL;
    int *pct = row_percents(rows, n, all, pps);
    json_t *out = json_array();
    for (size_t i = 0; pct && i < n; i++) {
        struct ip_addr a;
        struct geo_place place = {0};
        if (ip_parse(rows[i].key, &a) == 0)
            geo_locate(&a, &place);
        int64_t size = dash_rate_of(rows[i].bytes, rows[i].packets, w->to - w->from, pps ? DASH_PPS : DASH_BPS);
        json_array_append_new(out, json_pack("{s:s,s:s,s:s,s:f,s:f,s:s,s:i,s:I}", "code", rows[i].country,
                                             "country", dash_country_name(countries, rows[i].country), "ip",
                                             rows[i].key, "latitude", place.latitude, "longitude", place.longitude,
                                             "org", place.org, "percent", pct[i], "size", (json_int_t)size));
    }
    free(pct);
    free(rows);
    return out;
}

int dash_detail_threat_map(struct req *r, const struct dash_event_window *w)
{
    json_t *countries = catalogue_value(r, "countries");
    if (!countries)
        return 0;
    struct tel_top_row all;
    json_t *bps = threats(r, w, countries, false, &all);
    json_t *pps = bps ? threats(r, w, countries, true, &all) : NULL;
    if (!pps) {
        json_decref(bps);
        return 0;
    }
    return reply_result(r, json_pack("{s:{s:o,s:o}}", "threat_map", "bps", bps, "pps", pps));
}

int dash_detail_traffic_patterns(struct req *r, const struct dash_event_window *w)
{
    struct tel_pattern *p;
    size_t n;
    int rc = r->store->ops->tel_op_patterns(r->store, w->ev.site_rid, &w->ev.range, w->from, w->to, TEL_BY_BYTES,
                                            PATTERNS_TOP,
                                            &p, &n);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    int64_t seconds = w->to - w->from;
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(
            out, json_pack("{s:I,s:s,s:i,s:i,s:i,s:s,s:{s:I,s:I},s:{s:I,s:I},s:{s:I,s:I}}", "asn",
                           (json_int_t)p[i].src_as, "cidr", p[i].cidr, "dest_port", p[i].dst_port, "src_port",
                           p[i].src_port, "protocol", p[i].protocol, "router", p[i].router, "average", "bps",
                           (json_int_t)dash_rate_of(p[i].bytes, 0, seconds, DASH_BPS), "pps",
                           (json_int_t)dash_rate_of(0, p[i].packets, seconds, DASH_PPS), "max", "bps",
                           (json_int_t)dash_rate_of(p[i].peak_bytes, 0, DASH_MINUTE, DASH_BPS), "pps",
                           (json_int_t)dash_rate_of(0, p[i].peak_packets, DASH_MINUTE, DASH_PPS), "total", "byte",
                           (json_int_t)p[i].bytes, "packet", (json_int_t)p[i].packets));
    free(p);
    return reply_result(r, json_pack("{s:o}", "traffic_patterns", out));
}
