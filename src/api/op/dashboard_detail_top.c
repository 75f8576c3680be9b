/* dashboard_detail_top.c — the detail modules read from the raw flows
 * toward an event's range during the event: characterization (the top 5
 * of each element, with integer percents of the bytes), threat_map (the top
 * 10 sources by bytes and by packets, with geography) and traffic_patterns
 * (the top 100 source /24, router, protocol, ports and AS combinations). */
#include <stdlib.h>

#include "api/op/dashboard_detail.h"
#include "core/catalogue.h"
#include "store/tel_top.h"
#include "telemetry/geo.h"

enum { CHARACTERIZATION_TOP = 5, THREAT_MAP_TOP = 10, PATTERNS_TOP = 100 };

/* Top lists of the flows toward the event, read together (lists[i].rows
 * malloc'd). */
static int tops(struct req *r, const struct dash_event_window *w, struct tel_top_list *lists, size_t n_lists,
                struct tel_top_row *all)
{
    struct tel_top_query q = {.site_rid = w->ev.site_rid, .range = &w->ev.range, .from = w->from, .to = w->to};
    int rc = r->store->ops->tel_op_tops(r->store, &q, lists, n_lists, all);
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
    enum { ELEMENTS = sizeof elements / sizeof elements[0] };
    struct tel_top_list lists[ELEMENTS];
    for (size_t e = 0; e < ELEMENTS; e++)
        lists[e] = (struct tel_top_list){.dim = elements[e].dim, .limit = CHARACTERIZATION_TOP};
    struct tel_top_row all;
    if (tops(r, w, lists, ELEMENTS, &all) != 0)
        return 0;
    json_t *out = json_array();
    for (size_t e = 0; e < ELEMENTS; e++) {
        const struct tel_top_row *rows = lists[e].rows;
        size_t n = lists[e].n;
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
    }
    tel_tops_clear(lists, ELEMENTS);
    return reply_result(r, json_pack("{s:o}", "characterization", out));
}

/* The top sources of one list (bps: by bytes, pps: by packets), with geography. */
static json_t *threats(const struct dash_event_window *w, json_t *countries, const struct tel_top_list *list,
                       const struct tel_top_row *all)
{
    bool pps = list->by_packets;
    const struct tel_top_row *rows = list->rows;
    size_t n = list->n;
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
    return out;
}

int dash_detail_threat_map(struct req *r, const struct dash_event_window *w)
{
    json_t *countries = catalogue_value(r, "countries");
    if (!countries)
        return 0;
    struct tel_top_list lists[2] = {{.dim = TEL_DIM_SRC, .limit = THREAT_MAP_TOP},
                                    {.dim = TEL_DIM_SRC, .by_packets = true, .limit = THREAT_MAP_TOP}};
    struct tel_top_row all;
    if (tops(r, w, lists, 2, &all) != 0)
        return 0;
    json_t *bps = threats(w, countries, &lists[0], &all), *pps = threats(w, countries, &lists[1], &all);
    tel_tops_clear(lists, 2);
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
