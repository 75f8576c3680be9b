/* pgsql/tel_op.c — the reads of the Origin Protection and CleanPipe
 * dashboards on PostgreSQL, as sqlite/tel_op.c: DDoS event lists,
 * flow-down events, a site's traffic volume, one event, per-minute sums,
 * top keys and traffic patterns of the flows. Sums are cast back to bigint
 * (PostgreSQL's sum of bigint is numeric) so that they answer as integers
 * and divide as integers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pgsql/db.h"
#include "store/pgsql/pg_array.h"
#include "store/tel_cells.h"
#include "store/tel_patterns.h"
#include "store/tel_top.h"
#include "store/tel_vector.h"

enum { OID_BYTEA = 17 };

/* Copies a bytea column (binary results, or text ones as \x...) into
 * key[size] (zero-filled); its length, -1 when it is not one. */
static int col_bytes(const PGresult *res, int row, int col, uint8_t *key, size_t size)
{
    memset(key, 0, size);
    size_t len = 0;
    const uint8_t *bytes = pg_bytes(res, row, col, &len);
    unsigned char *raw = bytes ? NULL : PQunescapeBytea((const unsigned char *)PQgetvalue(res, row, col), &len);
    if (!bytes && !(bytes = raw))
        return -1;
    int n = len <= size ? (int)len : -1;
    if (n > 0)
        memcpy(key, bytes, len);
    PQfreemem(raw);
    return n;
}

static void key_text(const uint8_t key[TEL_ADDR_KEY], char *out, size_t size)
{
    char text[NET_TEXT_MAX];
    tel_addr_text(key, text);
    snprintf(out, size, "%s", text);
}

/* ---- DDoS events and flow-down events ---- */

/* The events of a query: $1 customer, $2 family, $3 site rids or NULL,
 * $4 from, $5 to, $6 status, $7 alert_id, $8 site_ip, $9 attack_type. */
#define EVENTS_WHERE                                                                                         \
    " FROM tel_ddos_events e WHERE customer_id = $1 AND family = $2 "                                          \
    "AND ($3::bigint[] IS NULL OR site_rid = ANY($3::bigint[])) "                                              \
    "AND start_time <= $5 AND (end_time IS NULL OR end_time >= $4) "                                         \
    "AND ($6::int = 2 OR ($6::int = 1) = (end_time IS NULL)) AND ($7::text IS NULL OR alert_id = $7) "        \
    "AND ($8::text IS NULL OR site_ip = $8) AND ($9::text IS NULL OR attack_type = $9)"

/* An event's answered peak: the recorded one, or the highest one-minute
 * rate of the flows toward its range during the event (its start's minute
 * to its end's, or now's), whichever is larger (docs/decisions.md,
 * "Dashboards"); integer division as in SQLite. Summed here (add_peaks):
 * the cells of a busy minute are hundreds of destinations, and the
 * PL/pgSQL tel_cells_sum took ~7 µs a cell (a page of ten events at a
 * collector's density: 690 ms). The rows of each listed event's minutes
 * come as they are sent (pg_each_row), its range with them. */
static const char peak_rows_sql[] =
    "SELECT w.k, e.ip_lo, e.ip_hi, m.cells FROM unnest($1::text[]) WITH ORDINALITY AS w(alert_id, k) "
    "JOIN tel_ddos_events e ON e.alert_id = w.alert_id CROSS JOIN LATERAL (SELECT cells FROM tel_dst_minutes "
    "WHERE site_rid = e.site_rid AND minute >= e.start_time - e.start_time % 60 AND minute <= "
    "coalesce(e.end_time, floor(extract(epoch FROM statement_timestamp()))::bigint) OFFSET 0) AS m";

/* The highest minute's bytes and packets of each listed event. */
struct event_peaks {
    size_t n;
    struct tel_counts *top;
};

static int add_peak_row(void *arg, const PGresult *res, int row)
{
    struct event_peaks *pk = arg;
    int64_t k = pg_int(res, row, 0);
    size_t lo_len, hi_len, n;
    const uint8_t *lo = pg_bytes(res, row, 1, &lo_len), *hi = pg_bytes(res, row, 2, &hi_len);
    const uint8_t *cells = pg_bytes(res, row, 3, &n);
    struct tel_counts sum;
    if (k < 1 || (size_t)k > pk->n || !lo || !hi || !cells || lo_len != TEL_ADDR_KEY || hi_len != TEL_ADDR_KEY ||
        tel_cells_sum(cells, n, lo, hi, &sum) != 0)
        return -1;
    struct tel_counts *top = &pk->top[k - 1];
    top->bytes = sum.bytes > top->bytes ? sum.bytes : top->bytes;
    top->packets = sum.packets > top->packets ? sum.packets : top->packets;
    return 0;
}

/* Raises the rows' max_bps and max_pps to their flows' peaks. */
static int add_peaks(struct store *s, json_t *rows)
{
    struct event_peaks pk = {json_array_size(rows), NULL};
    if (!pk.n)
        return STORE_OK;
    pk.top = calloc(pk.n, sizeof *pk.top);
    struct pg_array ids = {0};
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        arr_text(&ids, json_string_value(json_object_get(row, "alert_id")) ?: "");
    struct pg_params p = {.binary_results = true};
    int rc = pk.top && arr_param(&ids, &p) ? pg_each_row(s, peak_rows_sql, &p, add_peak_row, &pk) : STORE_ERROR;
    json_array_foreach (rows, i, row) {
        if (rc != STORE_OK)
            break;
        int64_t bps = json_integer_value(json_object_get(row, "max_bps"));
        int64_t pps = json_integer_value(json_object_get(row, "max_pps"));
        int64_t flow_bps = pk.top[i].bytes * 8 / 60, flow_pps = pk.top[i].packets / 60;
        json_object_set_new(row, "max_bps", json_integer(flow_bps > bps ? flow_bps : bps));
        json_object_set_new(row, "max_pps", json_integer(flow_pps > pps ? flow_pps : pps));
    }
    free(ids.p);
    free(pk.top);
    return rc;
}

static void events_params(struct pg_params *p, const struct tel_event_query *q, const char *sites)
{
    pp_text(p, q->customer_id);
    pp_text(p, q->family);
    pp_text(p, sites);
    pp_int(p, q->from);
    pp_int(p, q->to);
    pp_int(p, (int64_t)q->status);
    pp_text(p, q->alert_id);
    pp_text(p, q->site_ip);
    pp_text(p, q->attack_type);
}

/* The site rids as an int8[] literal; NULL (and *fail false) for none. */
static char *sites_array(const struct tel_event_query *q, bool *fail)
{
    *fail = false;
    if (!q->site_rids)
        return NULL;
    char *text = malloc(q->n_sites * 21 + 3);
    if (!text) {
        *fail = true;
        return NULL;
    }
    size_t len = 0;
    text[len++] = '{';
    for (size_t i = 0; i < q->n_sites; i++)
        len += (size_t)sprintf(text + len, "%s%lld", i ? "," : "", (long long)q->site_rids[i]);
    text[len++] = '}';
    text[len] = '\0';
    return text;
}

int pg_tel_events_list(struct store *s, const struct tel_event_query *q, json_t **rows, long *total)
{
    static const char count_sql[] = "SELECT count(*)" EVENTS_WHERE;
    static const char list_sql[] =
        "SELECT alert_id, attack_type, start_time, end_time, max_bps, max_pps, severity, site_ip, profile_name, "
        "profile_desc, p_type, site_rid, holder_rid" EVENTS_WHERE
        " ORDER BY start_time DESC, alert_id LIMIT $10 OFFSET $11";
    *rows = NULL;
    bool fail;
    char *sites = sites_array(q, &fail);
    if (fail)
        return STORE_ERROR;
    struct pg_params p = {0};
    events_params(&p, q, sites);
    PGresult *res;
    int rc = pg_one(s, count_sql, &p, &res);
    if (rc == STORE_OK) {
        *total = (long)pg_int(res, 0, 0);
        PQclear(res);
        pp_limit(&p, q->limit);
        pp_offset(&p, q->offset);
        rc = pg_rows_json(s, list_sql, &p, rows);
    }
    if (rc == STORE_OK)
        rc = add_peaks(s, *rows);
    free(sites);
    return rc == STORE_NOT_FOUND ? STORE_ERROR : rc;
}

int pg_tel_flow_downs_list(struct store *s, int64_t site_rid, int64_t from, int64_t to, enum tel_status status,
                           json_t **rows)
{
    static const char sql[] =
        "SELECT alert_id, router_name, start_time, end_time FROM tel_flow_downs WHERE site_rid = $1 "
        "AND start_time <= $3 AND (end_time IS NULL OR end_time >= $2) "
        "AND ($4::int = 2 OR ($4::int = 1) = (end_time IS NULL)) ORDER BY start_time DESC, alert_id";
    struct pg_params p = {0};
    pp_int(&p, site_rid);
    pp_int(&p, from);
    pp_int(&p, to);
    pp_int(&p, (int64_t)status);
    return pg_rows_json(s, sql, &p, rows);
}

/* Host events first, while the network event still says which they are. */
int pg_tel_event_stop(struct store *s, const char *alert_id, bool hosts_too, int64_t now, long *stopped)
{
    static const char hosts_sql[] =
        "UPDATE tel_ddos_events h SET end_time = $2, stopped_by = 'api' WHERE h.end_time IS NULL "
        "AND h.holder_kind = 'cp.host' AND EXISTS (SELECT 1 FROM tel_ddos_events n WHERE n.alert_id = $1 "
        "AND n.end_time IS NULL AND n.site_rid = h.site_rid AND n.ip_lo <= h.ip_lo AND h.ip_hi <= n.ip_hi "
        "AND n.alert_id <> h.alert_id)";
    static const char event_sql[] =
        "UPDATE tel_ddos_events SET end_time = $2, stopped_by = 'api' WHERE end_time IS NULL AND alert_id = $1";
    *stopped = 0;
    for (int pass = hosts_too ? 0 : 1; pass < 2; pass++) {
        struct pg_params p = {0};
        pp_text(&p, alert_id);
        pp_int(&p, now);
        long n;
        if (pg_exec(s, pass == 0 ? hosts_sql : event_sql, &p, &n) != STORE_OK)
            return STORE_ERROR;
        *stopped += n;
    }
    return STORE_OK;
}

int pg_tel_site_volume(struct store *s, int64_t site_rid, int64_t from, int64_t to, int64_t *bytes,
                       int64_t *packets)
{
    static const char sql[] = "SELECT hour, mins FROM tel_site_hours WHERE site_rid = $1 AND hour > $2::bigint - 3600 "
                              "AND hour < $3";
    struct pg_params p = {.binary_results = true};
    pp_int(&p, site_rid);
    pp_int(&p, from);
    pp_int(&p, to);
    int rc;
    PGresult *res = pg_query(s, sql, &p, &rc);
    if (!res)
        return rc;
    *bytes = *packets = 0;
    uint8_t mins[TEL_VEC_BYTES];
    for (int i = 0; i < PQntuples(res) && rc == STORE_OK; i++) {
        if (col_bytes(res, i, 1, mins, sizeof mins) != TEL_VEC_BYTES)
            rc = STORE_ERROR;
        else
            tel_vec_sum(mins, pg_int(res, i, 0), from, to, bytes, packets);
    }
    PQclear(res);
    return rc;
}

/* ---- one event, and the flows toward an event or a site (store/telemetry_op.h) ---- */

int pg_tel_op_event_get(struct store *s, const char *family, const char *alert_id, struct tel_event_ref *out)
{
    static const char sql[] =
        "SELECT e.eid, e.site_rid, e.alert_id, e.customer_id, s.kind, e.holder_kind, e.start_time, "
        "coalesce(e.end_time, 0), e.ip_lo, e.ip_hi FROM tel_ddos_events e JOIN resources s ON s.rid = "
        "e.site_rid WHERE e.alert_id = $1 AND e.family = $2";
    memset(out, 0, sizeof *out);
    struct pg_params p = {.binary_results = true};
    pp_text(&p, alert_id);
    pp_text(&p, family);
    PGresult *res;
    int rc = pg_one(s, sql, &p, &res);
    if (rc != STORE_OK)
        return rc;
    out->eid = pg_int(res, 0, 0);
    out->site_rid = pg_int(res, 0, 1);
    pg_text(res, 0, 2, out->alert_id, sizeof out->alert_id);
    pg_text(res, 0, 3, out->customer_id, sizeof out->customer_id);
    pg_text(res, 0, 4, out->site_kind, sizeof out->site_kind);
    pg_text(res, 0, 5, out->holder_kind, sizeof out->holder_kind);
    out->start_time = pg_int(res, 0, 6);
    out->end_time = pg_int(res, 0, 7);
    if (col_bytes(res, 0, 8, out->range.lo, TEL_ADDR_KEY) != TEL_ADDR_KEY ||
        col_bytes(res, 0, 9, out->range.hi, TEL_ADDR_KEY) != TEL_ADDR_KEY)
        rc = STORE_ERROR;
    PQclear(res);
    return rc;
}

/* ---- flows: per-minute sums ---- */

/* With a destination range, the minutes' cells (pg/013), matched to the
 * range and the policy here (tel_cells_to_minutes: $4 is only typed);
 * without one, the site-level roll-up (an hour's minutes a row, and whether
 * they are observations). Parameters: the site ($1 rid, or $1 customer and
 * $5 kind), $2 from, $3 to, $4 policy or NULL. */
#define MINUTES_SQL(sites)                                                                                   \
    "SELECT m.minute, 0, m.cells FROM tel_dst_minutes m WHERE " sites " AND m.minute >= $2 AND m.minute < $3 " \
    "AND ($4::text IS NULL OR $4::text IS NOT NULL)"
#define SITE_HOURS_SQL(sites)                                                                                \
    "SELECT m.hour, (m.action <> 0)::int, m.mins, m.policy = '" TEL_POLICY_OBSERVED "' FROM tel_site_hours m "   \
    "WHERE " sites " AND m.hour > $2::bigint - 3600 AND m.hour < $3 AND ($4::text IS NULL OR m.policy = $4)"
#define ONE_SITE       "m.site_rid = $1"
#define CUSTOMER_SITES "m.site_rid IN (SELECT rid FROM resources WHERE customer_id = $1 AND kind = $5)"

/* Longer windows are cut (the sums are dense, a slot a minute: 5.8 MB at
 * most); retention keeps 35 days by default. */
enum { MINUTES_MAX_SPAN = 100 * 86400 };

/* Adds row i (MINUTES_SQL or SITE_HOURS_SQL, binary results) to the slots,
 * and to obs (when not NULL) what it holds of the observations. */
static int add_minutes_row(const PGresult *res, int i, const struct tel_minutes_query *q, struct tel_minute *slots,
                           struct tel_minute *obs, int64_t first, int64_t to)
{
    struct tel_minutes_row row = {.start = pg_int(res, i, 0)};
    row.v = pg_bytes(res, i, 2, &row.len);
    if (!q->range) {
        row.action = (int)pg_int(res, i, 1);
        row.observed = pg_int(res, i, 3) != 0;
    }
    return tel_minutes_add_row(q, &row, slots, obs, first, to);
}

struct minutes_read {
    const struct tel_minutes_query *q;
    struct tel_minute *slots, *obs;
    int64_t first, to;
};

static int read_minutes(void *arg, const PGresult *res, int row)
{
    struct minutes_read *m = arg;
    return add_minutes_row(res, row, m->q, m->slots, m->obs, m->first, m->to);
}

int pg_tel_op_minutes(struct store *s, const struct tel_minutes_query *q, struct tel_minute **out, size_t *n,
                      struct tel_minute **observed, size_t *n_observed)
{
    static const char *const sql[2][2] = {
        {SITE_HOURS_SQL(ONE_SITE), SITE_HOURS_SQL(CUSTOMER_SITES)},
        {MINUTES_SQL(ONE_SITE), MINUTES_SQL(CUSTOMER_SITES)}};
    bool obs_too = q->observed_too && !q->policy;
    *out = NULL;
    *n = 0;
    if (obs_too) {
        *observed = NULL;
        *n_observed = 0;
    }
    int64_t first = q->from - ((q->from % 60) + 60) % 60; /* the minute holding from */
    int64_t to = q->to - first > MINUTES_MAX_SPAN ? first + MINUTES_MAX_SPAN : q->to;
    if (to <= first)
        return STORE_OK;
    struct pg_params p = {.binary_results = true};
    if (q->site_rid)
        pp_int(&p, q->site_rid);
    else
        pp_text(&p, q->customer_id ? q->customer_id : "");
    pp_int(&p, q->from);
    pp_int(&p, to);
    pp_text(&p, q->policy);
    if (!q->site_rid)
        pp_text(&p, q->site_kind ? q->site_kind : "");
    size_t nslots = (size_t)((to - first + 59) / 60);
    struct minutes_read m = {q, calloc(nslots, sizeof *m.slots), obs_too ? calloc(nslots, sizeof *m.obs) : NULL,
                             first, to};
    struct tel_minute *slots = m.slots, *obs = m.obs;
    /* a month of a customer's sites is megabytes of vectors: summed as
     * they come (pg_each_row) */
    int rc = !slots || (obs_too && !obs) ? STORE_ERROR
                                         : pg_each_row(s, sql[q->range != NULL][q->site_rid == 0], &p, read_minutes, &m);
    if (rc != STORE_OK) {
        free(slots);
        free(obs);
        return rc;
    }
    tel_minutes_compact(slots, nslots, out, n);
    if (obs_too)
        tel_minutes_compact(obs, nslots, observed, n_observed);
    return STORE_OK;
}

/* ---- flows: top keys ---- */

/* Not a counter (tel_flow_is_counter): an observation, or a source named. */
#define NOT_COUNTER                                                                                          \
    " AND (f.policy = '" TEL_POLICY_OBSERVED "' OR f.src NOT IN ('\\x0400000000000000000000000000000000'::bytea, " \
    "'\\x0600000000000000000000000000000000'::bytea))"
/* Raw flows: $1 site, $2 from, $3 to, $4/$5 range or NULL. */
#define RAW_WHERE                                                                                            \
    " FROM tel_flows f WHERE f.site_rid = $1 AND f.ts >= $2 AND f.ts < $3 "                                    \
    "AND ($4::bytea IS NULL OR f.dst BETWEEN $4 AND $5::bytea)" NOT_COUNTER
/* The flows of raw top lists: every key column (dimension d at column
 * d - 1, the source country among them), the counts (summed in C, as on
 * SQLite: store/tel_top.h), read once for all the lists. */
static const char tops_flows_sql[] =
    "SELECT f.app, f.src_as, f.country, f.dst, f.protocol, f.src, f.src_port, f.dst_port, f.bytes, "
    "f.packets" RAW_WHERE;
enum {
    TOPS_COUNTRY = TEL_DIM_COUNTRY - 1,
    TOPS_BYTES = TEL_DIM_DST_PORT,
    TOPS_PACKETS = TEL_DIM_DST_PORT + 1,
};
/* The roll-up rows of [$2, $3): whole days [$5, $6) from tel_flow_days,
 * the hours before and after them from tel_flow_hours ($4 the dimension);
 * the lists add $7 by packets and $8 limit. */
#define HOURLY_ROWS                                                                                          \
    "(SELECT key, bytes, packets, flows FROM tel_flow_hours WHERE site_rid = $1 AND dim = $4 AND hour >= $2 "  \
    "AND hour < $5 UNION ALL SELECT key, bytes, packets, flows FROM tel_flow_days WHERE site_rid = $1 AND "     \
    "dim = $4 AND day >= $5 AND day < $6 UNION ALL SELECT key, bytes, packets, flows FROM tel_flow_hours "    \
    "WHERE site_rid = $1 AND dim = $4 AND hour >= $6 AND hour < $3) h"
#define TOP_HOURS                                                                                            \
    "SELECT h.key, '', sum(h.bytes)::bigint, sum(h.packets)::bigint, sum(h.flows)::bigint FROM " HOURLY_ROWS   \
    " GROUP BY 1 ORDER BY CASE WHEN $7::int <> 0 THEN sum(h.packets) ELSE sum(h.bytes) END DESC, 1 LIMIT $8"
#define TOP_HOURS_ALL                                                                                        \
    "SELECT NULL, '', coalesce(sum(h.bytes), 0)::bigint, coalesce(sum(h.packets), 0)::bigint, "              \
    "coalesce(sum(h.flows), 0)::bigint FROM " HOURLY_ROWS

static const char top_hours_sql[] = TOP_HOURS;
static const char top_hours_all_sql[] = TOP_HOURS_ALL;
/* The same window by destination ($4 = 4): the cells of tel_dst_days and
 * tel_dst_hours (pg/013), summed and ranked here. */
static const char dst_rows_sql[] =
    "SELECT cells FROM tel_dst_hours WHERE $4::int = 4 AND site_rid = $1 AND hour >= $2 AND hour < $5 UNION ALL "
    "SELECT cells FROM tel_dst_days WHERE site_rid = $1 AND day >= $5 AND day < $6 UNION ALL SELECT cells FROM "
    "tel_dst_hours WHERE site_rid = $1 AND hour >= $6 AND hour < $3";

/* The parameters shared by the sums and the list. */
static void top_params(struct pg_params *p, const struct tel_top_query *q)
{
    pp_int(p, q->site_rid);
    pp_int(p, q->from);
    pp_int(p, q->to);
    if (q->hourly) {
        int64_t day_from = q->from + (86400 - q->from % 86400) % 86400, day_to = q->to - q->to % 86400;
        if (day_from >= day_to)
            day_from = day_to = q->to; /* no whole day: hours only */
        pp_int(p, q->dim);
        pp_int(p, day_from);
        pp_int(p, day_to);
    } else if (q->range) {
        pp_bytes(p, q->range->lo, TEL_ADDR_KEY);
        pp_bytes(p, q->range->hi, TEL_ADDR_KEY);
    } else {
        pp_text(p, NULL);
        pp_text(p, NULL);
    }
}

/* Row i as a top row: integer keys in decimal (their text), address keys
 * as addresses, text as is. */
static void read_top_row(const PGresult *res, int i, struct tel_top_row *row)
{
    memset(row, 0, sizeof *row);
    if (PQftype(res, 0) == OID_BYTEA && !PQgetisnull(res, i, 0)) {
        uint8_t key[TEL_ADDR_KEY];
        if (col_bytes(res, i, 0, key, sizeof key) == TEL_ADDR_KEY)
            key_text(key, row->key, sizeof row->key);
    } else {
        pg_text(res, i, 0, row->key, sizeof row->key);
    }
    pg_text(res, i, 1, row->country, sizeof row->country);
    row->bytes = pg_int(res, i, 2);
    row->packets = pg_int(res, i, 3);
    row->flows = pg_int(res, i, 4);
}

/* The hourly path by destination: every cell of the window summed per
 * destination, then ranked (ties by the address's text, as the other keys). */
static int top_dst_hours(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                         struct tel_top_row *all)
{
    struct pg_params p = {.binary_results = true};
    top_params(&p, q);
    int rc;
    PGresult *res = pg_query(s, dst_rows_sql, &p, &rc);
    if (!res)
        return rc;
    struct tel_sums m;
    tel_cells_by_dst_init(&m);
    for (int i = 0; i < PQntuples(res) && rc == STORE_OK; i++) {
        size_t len;
        const uint8_t *cells = pg_bytes(res, i, 0, &len);
        if (!cells || tel_cells_by_dst(&m, cells, len) != 0)
            rc = STORE_ERROR;
    }
    PQclear(res);
    if (rc == STORE_OK && tel_cells_top(&m, q->by_packets, q->limit, out, n, all) != 0)
        rc = STORE_ERROR;
    tel_sums_free(&m);
    return rc;
}

/* One flow of tops_flows_sql into the sums of the dimensions asked. */
struct tops_read {
    bool used[TEL_DIM_DST_PORT + 1];
    struct tel_top_sums sums[TEL_DIM_DST_PORT + 1];
    struct tel_counts total;
};

static int add_tops_row(void *arg, const PGresult *res, int row)
{
    struct tops_read *t = arg;
    int64_t bytes = pg_int(res, row, TOPS_BYTES), packets = pg_int(res, row, TOPS_PACKETS);
    const char *country = PQgetvalue(res, row, TOPS_COUNTRY);
    t->total.bytes += bytes;
    t->total.packets += packets;
    t->total.flows++;
    for (int d = TEL_DIM_APP; d <= TEL_DIM_DST_PORT; d++) {
        if (!t->used[d])
            continue;
        enum tel_key_type type = tel_dim_key_type(d);
        size_t len = 0;
        const uint8_t *addr = type == TEL_KEY_ADDR ? pg_bytes(res, row, d - 1, &len) : NULL;
        if (type == TEL_KEY_ADDR && (!addr || len != TEL_ADDR_KEY))
            continue; /* not an address key (the ingest stores none) */
        if (tel_top_sums_add(&t->sums[d], type == TEL_KEY_INT ? pg_int(res, row, d - 1) : 0, addr,
                             type == TEL_KEY_TEXT ? PQgetvalue(res, row, d - 1) : NULL, country, bytes, packets) != 0)
            return -1;
    }
    return 0;
}

/* The raw path of tel_op_tops: the window's flows read once (as they come:
 * pg_each_row), summed per key of every dimension asked in C, where a
 * hash aggregate a list read them again for each (an event's detail at a
 * collector's density: 175 ms for its six lists). */
static int tops_raw(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                    struct tel_top_row *all)
{
    struct tops_read *t = calloc(1, sizeof *t);
    if (!t)
        return STORE_ERROR;
    for (size_t i = 0; i < n_lists; i++) {
        if (lists[i].dim < TEL_DIM_APP || lists[i].dim > TEL_DIM_DST_PORT || lists[i].limit <= 0) {
            free(t);
            return STORE_ERROR;
        }
        t->used[lists[i].dim] = true;
    }
    for (int d = TEL_DIM_APP; d <= TEL_DIM_DST_PORT; d++)
        tel_top_sums_init(&t->sums[d], tel_dim_key_type(d));
    struct pg_params p = {.binary_results = true};
    top_params(&p, q);
    int rc = pg_each_row(s, tops_flows_sql, &p, add_tops_row, t);
    for (size_t i = 0; i < n_lists && rc == STORE_OK; i++)
        if (tel_top_sums_result(&t->sums[lists[i].dim], lists[i].by_packets, lists[i].limit, &lists[i].rows,
                                &lists[i].n, NULL) != 0)
            rc = STORE_ERROR;
    for (int d = TEL_DIM_APP; d <= TEL_DIM_DST_PORT; d++)
        tel_top_sums_free(&t->sums[d]);
    if (rc != STORE_OK)
        tel_tops_clear(lists, n_lists);
    else if (all)
        *all = (struct tel_top_row){.bytes = t->total.bytes, .packets = t->total.packets, .flows = t->total.flows};
    free(t);
    return rc;
}

int pg_tel_op_tops(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                   struct tel_top_row *all)
{
    return q->hourly ? tel_tops_each(s, q, lists, n_lists, all) : tops_raw(s, q, lists, n_lists, all);
}

int pg_tel_op_top(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                  struct tel_top_row *all)
{
    *out = NULL;
    *n = 0;
    bool raw_dim = q->dim >= TEL_DIM_APP && q->dim <= TEL_DIM_DST_PORT;
    if (!raw_dim || (q->hourly && q->dim > TEL_DIM_PROTOCOL) || q->limit <= 0)
        return STORE_ERROR;
    if (!q->hourly) {
        struct tel_top_list one = {.dim = q->dim, .by_packets = q->by_packets, .limit = q->limit};
        int rc = tops_raw(s, q, &one, 1, all);
        *out = one.rows;
        *n = one.n;
        return rc;
    }
    if (q->dim == TEL_DIM_DST)
        return top_dst_hours(s, q, out, n, all);
    struct pg_params p = {0};
    top_params(&p, q);
    PGresult *res;
    if (all) {
        memset(all, 0, sizeof *all);
        if (pg_one(s, top_hours_all_sql, &p, &res) != STORE_OK)
            return STORE_ERROR;
        read_top_row(res, 0, all);
        PQclear(res);
    }
    pp_int(&p, q->by_packets);
    pp_int(&p, q->limit);
    int rc;
    if (!(res = pg_query(s, top_hours_sql, &p, &rc)))
        return rc;
    *out = calloc((size_t)q->limit, sizeof **out);
    if (!*out) {
        PQclear(res);
        return STORE_ERROR;
    }
    for (int i = 0; i < PQntuples(res) && *n < (size_t)q->limit; i++)
        read_top_row(res, i, &(*out)[(*n)++]);
    PQclear(res);
    return STORE_OK;
}

/* ---- flows: traffic patterns ---- */

/* The flows of the window, summed into patterns in C as on SQLite
 * (store/tel_patterns.h), where two hash aggregates in SQL took 50 ms for
 * an event's hour at a collector's density. */
static const char pattern_flows_sql[] =
    "SELECT f.src, f.router, f.protocol, f.src_port, f.dst_port, f.src_as, f.ts, f.bytes, f.packets" RAW_WHERE;

static int add_pattern_row(void *arg, const PGresult *res, int row)
{
    size_t len = 0;
    const uint8_t *src = pg_bytes(res, row, 0, &len);
    if (!src || len != TEL_ADDR_KEY)
        return 0; /* not an address key: no pattern (the ingest stores none) */
    return tel_pattern_sums_add(arg, src, PQgetvalue(res, row, 1), (int)pg_int(res, row, 2), (int)pg_int(res, row, 3),
                                (int)pg_int(res, row, 4), pg_int(res, row, 5), pg_int(res, row, 6),
                                pg_int(res, row, 7), pg_int(res, row, 8));
}

int pg_tel_op_patterns(struct store *s, int64_t site_rid, const struct tel_range *range, int64_t from, int64_t to,
                       enum tel_pattern_order order, long limit, struct tel_pattern **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (limit <= 0)
        return STORE_OK;
    if ((unsigned)order > TEL_BY_PEAK_PACKETS)
        return STORE_ERROR;
    struct tel_top_query q = {.site_rid = site_rid, .range = range, .from = from, .to = to};
    struct pg_params p = {.binary_results = true};
    top_params(&p, &q);
    struct tel_pattern_sums sums;
    tel_pattern_sums_init(&sums);
    int rc = pg_each_row(s, pattern_flows_sql, &p, add_pattern_row, &sums);
    if (rc == STORE_OK && tel_pattern_sums_result(&sums, order, limit, out, n) != 0)
        rc = STORE_ERROR;
    tel_pattern_sums_free(&sums);
    return rc;
}
