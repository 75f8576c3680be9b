/* dashboard_summary.c — GET {OPD}/site/{site_id}/network_summary: the
 * site's traffic of the last hour, day, week (7 days) or month (30 days)
 * by application, source AS, source country, destination address and
 * protocol (the top 10 of each, by bytes for bps and packets for pps; size
 * is the mean rate over the range, count the number of flows), and the
 * attack types of the range's events (size: their largest peak). The hour
 * and the day are read from the raw flows, week and month from the hourly
 * roll-up (whole hours, the current one included). */
#include <stdlib.h>
#include <string.h>

#include "api/op/dashboard_flows.h"
#include "base/timefmt.h"
#include "core/catalogue.h"
#include "store/tel_top.h"

enum { SUMMARY_TOP = 10, SUMMARY_EVENTS_MAX = 1000 };

struct summary {
    struct req *r;
    int64_t from, to, seconds; /* flows: from <= ts (or hour) < to */
    bool hourly, pps;
    json_t *countries, *protocols;
};

/* One group: [{<name>: key, count (with_count), size}] of a top list. */
static json_t *group(const struct summary *s, const struct tel_top_list *list, const char *name, bool with_count)
{
    json_t *out = json_array();
    for (size_t i = 0; i < list->n; i++) {
        const struct tel_top_row *row = &list->rows[i];
        json_t *key = list->dim == TEL_DIM_AS        ? json_integer(strtoll(row->key, NULL, 10))
                      : list->dim == TEL_DIM_COUNTRY ? json_string(dash_country_name(s->countries, row->key))
                      : list->dim == TEL_DIM_PROTOCOL ? json_string(dash_protocol_name(s->protocols, row->key))
                                                      : json_string(row->key);
        json_t *e = json_pack("{s:o,s:I}", name, key, "size",
                              (json_int_t)dash_rate_of(row->bytes, row->packets, s->seconds,
                                                       s->pps ? DASH_PPS : DASH_BPS));
        if (with_count)
            json_object_set_new(e, "count", json_integer(row->flows));
        json_array_append_new(out, e);
    }
    return out;
}

static int by_size(const void *pa, const void *pb)
{
    json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
    json_int_t x = json_integer_value(json_object_get(a, "size")), y = json_integer_value(json_object_get(b, "size"));
    if (x != y)
        return x > y ? -1 : 1;
    return strcmp(json_string_value(json_object_get(a, "attack_type")),
                  json_string_value(json_object_get(b, "attack_type")));
}

/* The attack types of the events overlapping the range, each with the
 * largest peak (bps or pps) of its events. */
static json_t *attack_types(const struct summary *s, int64_t now)
{
    struct tel_event_query q = {.family = "op", .customer_id = s->r->site.customer_id, .site_rids = &s->r->site.rid,
                                .n_sites = 1, .from = now - s->seconds, .to = now, .status = TEL_ANY,
                                .limit = SUMMARY_EVENTS_MAX};
    json_t *rows;
    long total;
    int rc = s->r->store->ops->tel_events_list(s->r->store, &q, &rows, &total);
    if (rc != STORE_OK) {
        reply_store_error(s->r, rc);
        return NULL;
    }
    json_t *peaks = json_object();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        const char *type = json_string_value(json_object_get(row, "attack_type"));
        json_int_t v = json_integer_value(json_object_get(row, s->pps ? "max_pps" : "max_bps"));
        json_t *was = json_object_get(peaks, type);
        if (!was || json_integer_value(was) < v)
            json_object_set_new(peaks, type, json_integer(v));
    }
    json_decref(rows);
    size_t n = json_object_size(peaks);
    json_t **items = calloc(n ? n : 1, sizeof *items);
    const char *type;
    json_t *v;
    n = 0;
    json_object_foreach (peaks, type, v)
        items[n++] = json_pack("{s:s,s:O}", "attack_type", type, "size", v);
    qsort(items, n, sizeof *items, by_size);
    json_t *out = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(out, items[k]);
    free(items);
    json_decref(peaks);
    return out;
}

int op_dash_network_summary(struct req *r)
{
    static const struct {
        const char *name;
        int64_t seconds;
    } ranges[] = {{"hour", DASH_HOUR}, {"day", DASH_DAY}, {"week", 7 * DASH_DAY}, {"month", 30 * DASH_DAY}};
    const char *range = field_str(r, "range");
    struct summary s = {.r = r, .pps = strcmp(field_str(r, "type"), "pps") == 0};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (strcmp(range, ranges[i].name) == 0)
            s.seconds = ranges[i].seconds;
    int64_t now = dash_now();
    s.hourly = s.seconds > DASH_DAY;
    s.to = s.hourly ? time_floor(now, DASH_HOUR) + DASH_HOUR : now + 1;
    s.from = s.to - s.seconds;
    if (!(s.countries = catalogue_value(r, "countries")) ||
        !(s.protocols = catalogue_value(r, "ip_protocol_number_list")))
        return 0;
    /* the five lists of the range read together (tel_op_tops), in the order of `groups` */
    static const struct {
        int dim;
        const char *member, *name;
        bool with_count;
    } groups[] = {{TEL_DIM_APP, "app", "app", true},
                  {TEL_DIM_AS, "as_num", "as", true},
                  {TEL_DIM_COUNTRY, "country", "country", false},
                  {TEL_DIM_DST, "ip", "ip", false},
                  {TEL_DIM_PROTOCOL, "proto", "proto", true}};
    enum { GROUPS = sizeof groups / sizeof groups[0] };
    struct tel_top_list lists[GROUPS];
    for (size_t i = 0; i < GROUPS; i++)
        lists[i] = (struct tel_top_list){.dim = groups[i].dim, .by_packets = s.pps, .limit = SUMMARY_TOP};
    struct tel_top_query q = {.site_rid = r->site.rid, .from = s.from, .to = s.to, .hourly = s.hourly};
    int rc = r->store->ops->tel_op_tops(r->store, &q, lists, GROUPS, NULL);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *types = attack_types(&s, now);
    if (!types) {
        tel_tops_clear(lists, GROUPS);
        return 0;
    }
    json_t *out = json_object();
    for (size_t i = 0; i < GROUPS; i++) {
        json_object_set_new(out, groups[i].member, group(&s, &lists[i], groups[i].name, groups[i].with_count));
        if (groups[i].dim == TEL_DIM_AS) /* the members in the document's order */
            json_object_set_new(out, "attack_type", types);
    }
    tel_tops_clear(lists, GROUPS);
    return reply_result(r, out);
}
