/* pgsql/tel_ingest.c — telemetry writes on PostgreSQL (store_ops.tel_ingest).
 * The semantics are sqlite/tel_ingest.c's; the shape is PostgreSQL's:
 * - flows go in slices, one statement a slice: the slice's columns as
 *   arrays (unnest), inserted in record order with ON CONFLICT DO NOTHING
 *   (a re-sent or repeated flow is a duplicate, as with INSERT OR IGNORE),
 *   and the new ones summed into the roll-ups in the same statement (a
 *   site hour's minutes as one vector, pg/011); the statement answers the
 *   new ones, whose destinations are summed here and merged into the rows
 *   of cells of their minute, hour and day (pg/013, tel_dst_sums.h);
 * - bandwidth samples go in slices of distinct keys, one upsert a slice;
 * - events and flow-downs are one upsert each, whose affected rows say
 *   whether the record changed anything;
 * - WAF entries are grouped into events by pgsql/tel_waf.c.
 * Nothing relies on catching a constraint error: one aborts the transaction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pgsql/db.h"
#include "store/pgsql/pg_array.h"
#include "store/tel_dst_sums.h"

enum { FLOW_SLICE = 4096, FLOW_COLS = 17 };

/* ---- flows and their roll-ups ---- */

#define ADD_SUMS(table)                                                                                      \
    " DO UPDATE SET bytes = " table ".bytes + excluded.bytes, packets = " table ".packets + excluded.packets, " \
    "flows = " table ".flows + excluded.flows"

/* The slice's records in order (u.ord); the first of equal keys is the one
 * stored, and `new` holds exactly the stored ones: the statement answers
 * their ordinals, whose destinations are then summed here (store_dst). The
 * hourly keys are sqlite/tel_ingest.c's: app, source AS and protocol in
 * decimal, country. */
static const char flows_sql[] =
    "WITH u AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], "
    "$6::bytea[], $7::bytea[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], "
    "$13::bigint[], $14::text[], $15::text[], $16::bigint[], $17::text[]) WITH ORDINALITY AS "
    "u(site_rid, ts, fid, holder_rid, router, src, dst, src_port, dst_port, protocol, bytes, packets, src_as, "
    "country, app, action, policy, ord)), "
    "ins AS (INSERT INTO tel_flows (site_rid, ts, fid, holder_rid, router, src, dst, src_port, dst_port, "
    "protocol, bytes, packets, src_as, country, app, action, policy) SELECT site_rid, ts, fid, holder_rid, "
    "router, src, dst, src_port, dst_port, protocol, bytes, packets, src_as, country, app, action, policy "
    "FROM u ORDER BY ord ON CONFLICT DO NOTHING RETURNING site_rid, ts, fid), "
    "new AS (SELECT DISTINCT ON (u.site_rid, u.ts, u.fid) u.* FROM ins JOIN u USING (site_rid, ts, fid) "
    "ORDER BY u.site_rid, u.ts, u.fid, u.ord), "
    "site_mins AS (SELECT site_rid, ts - ts % 3600 AS hour, action, policy, (ts % 3600 / 60)::int AS i, "
    "sum(bytes)::bigint AS b, sum(packets)::bigint AS p, count(*) AS n FROM new GROUP BY 1, 2, 3, 4, 5), "
    "by_site AS (INSERT INTO tel_site_hours AS t (site_rid, hour, action, policy, mins, flows) "
    "SELECT site_rid, hour, action, policy, tel_minutes_vector(array_agg(i), array_agg(b), array_agg(p)), "
    "sum(n)::bigint FROM site_mins GROUP BY 1, 2, 3, 4 ON CONFLICT (site_rid, hour, action, policy) DO UPDATE "
    "SET mins = tel_minutes_add(t.mins, excluded.mins), flows = t.flows + excluded.flows), "
    "keyed AS (SELECT n.site_rid, n.ts - n.ts % 3600 AS hour, k.dim, k.key, n.bytes, n.packets FROM new n "
    "CROSS JOIN LATERAL (VALUES (1, n.app), (2, n.src_as::text), (3, n.country), "
    "(5, n.protocol::text)) AS k(dim, key) WHERE n.policy = '" TEL_POLICY_OBSERVED "' OR n.src NOT IN "
    "('\\x0400000000000000000000000000000000'::bytea, '\\x0600000000000000000000000000000000'::bytea)), "
    "hours AS (INSERT INTO tel_flow_hours AS t (site_rid, dim, hour, key, bytes, packets, flows) "
    "SELECT site_rid, dim, hour, key, sum(bytes), sum(packets), count(*) FROM keyed GROUP BY 1, 2, 3, 4 "
    "ON CONFLICT (site_rid, dim, hour, key)" ADD_SUMS("t") "), "
    "days AS (INSERT INTO tel_flow_days AS t (site_rid, dim, day, key, bytes, packets, flows) "
    "SELECT site_rid, dim, hour - hour % 86400, key, sum(bytes), sum(packets), count(*) FROM keyed "
    "GROUP BY 1, 2, 3, 4 ON CONFLICT (site_rid, dim, day, key)" ADD_SUMS("t") ") "
    "SELECT ord FROM new";

/* ---- the roll-ups by destination (pg/013: tel_dst_sums.h) ---- */

/* One row to write: a site, a period's start, its cells (the slice's,
 * then merged with the stored ones). */
struct dst_row {
    int64_t site_rid, start;
    uint8_t *cells;
    size_t n;
};

struct dst_rows {
    struct dst_row *v;
    size_t n, cap;
};

static int collect_row(void *ctx, int64_t site_rid, int64_t start, const uint8_t *cells, size_t n)
{
    struct dst_rows *r = ctx;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        struct dst_row *v = realloc(r->v, cap * sizeof *v);
        if (!v)
            return -1;
        r->v = v;
        r->cap = cap;
    }
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy)
        return -1;
    memcpy(copy, cells, n);
    r->v[r->n++] = (struct dst_row){site_rid, start, copy, n};
    return 0;
}

/* The row of (site_rid, start) among rows (in key order), or NULL. */
static struct dst_row *find_row(struct dst_rows *r, int64_t site_rid, int64_t start)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        struct dst_row *m = &r->v[mid];
        if (m->site_rid == site_rid && m->start == start)
            return m;
        if (m->site_rid < site_rid || (m->site_rid == site_rid && m->start < start))
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Adds the rows of one period to its table: the stored cells of the same
 * keys are read, merged here and written back (one statement each way, the
 * merge in C: a day's row holds every destination of the site). */
static int write_dst(struct store *s, struct tel_dst_sums *d, enum tel_dst_period period)
{
    static const char *const read_sql[] = {
        [TEL_DST_MINUTES] = "SELECT site_rid, minute, cells FROM tel_dst_minutes WHERE (site_rid, minute) IN "
                            "(SELECT * FROM unnest($1::bigint[], $2::bigint[]))",
        [TEL_DST_HOURS] = "SELECT site_rid, hour, cells FROM tel_dst_hours WHERE (site_rid, hour) IN "
                          "(SELECT * FROM unnest($1::bigint[], $2::bigint[]))",
        [TEL_DST_DAYS] = "SELECT site_rid, day, cells FROM tel_dst_days WHERE (site_rid, day) IN "
                         "(SELECT * FROM unnest($1::bigint[], $2::bigint[]))",
    };
    static const char *const write_sql[] = {
        [TEL_DST_MINUTES] = "INSERT INTO tel_dst_minutes (site_rid, minute, cells) SELECT * FROM unnest($1::bigint[], "
                            "$2::bigint[], $3::bytea[]) ON CONFLICT (site_rid, minute) DO UPDATE SET cells = "
                            "excluded.cells",
        [TEL_DST_HOURS] = "INSERT INTO tel_dst_hours (site_rid, hour, cells) SELECT * FROM unnest($1::bigint[], "
                          "$2::bigint[], $3::bytea[]) ON CONFLICT (site_rid, hour) DO UPDATE SET cells = "
                          "excluded.cells",
        [TEL_DST_DAYS] = "INSERT INTO tel_dst_days (site_rid, day, cells) SELECT * FROM unnest($1::bigint[], "
                         "$2::bigint[], $3::bytea[]) ON CONFLICT (site_rid, day) DO UPDATE SET cells = "
                         "excluded.cells",
    };
    struct dst_rows rows = {0};
    struct pg_array col[3] = {0};
    int rc = tel_dst_sums_rows(d, period, collect_row, &rows) == 0 ? STORE_OK : STORE_ERROR;
    for (size_t i = 0; i < rows.n && rc == STORE_OK; i++) {
        arr_int(&col[0], rows.v[i].site_rid);
        arr_int(&col[1], rows.v[i].start);
    }
    const char *sites = rows.n ? arr_end(&col[0]) : NULL, *starts = rows.n ? arr_end(&col[1]) : NULL;
    if (rc == STORE_OK && rows.n) {
        struct pg_params p = {0};
        pp_text(&p, sites);
        pp_text(&p, starts);
        PGresult *res = sites && starts ? pg_query(s, read_sql[period], &p, &rc) : NULL;
        if (!res && rc == STORE_OK)
            rc = STORE_ERROR;
        for (int i = 0; res && i < PQntuples(res) && rc == STORE_OK; i++) {
            struct dst_row *row = find_row(&rows, pg_int(res, i, 0), pg_int(res, i, 1));
            size_t len = 0, n;
            unsigned char *stored = PQunescapeBytea((const unsigned char *)PQgetvalue(res, i, 2), &len);
            uint8_t *sum = NULL;
            if (!row || !stored || !tel_cells_valid(stored, len) ||
                tel_cells_merge(stored, len, row->cells, row->n, &sum, &n) != 0) {
                rc = STORE_ERROR;
            } else {
                free(row->cells);
                row->cells = sum;
                row->n = n;
            }
            PQfreemem(stored);
        }
        PQclear(res);
    }
    for (size_t i = 0; i < rows.n && rc == STORE_OK; i++)
        arr_bytes(&col[2], rows.v[i].cells, rows.v[i].n);
    if (rc == STORE_OK && rows.n) {
        struct pg_params p = {0};
        const char *cells = arr_end(&col[2]);
        pp_text(&p, sites);
        pp_text(&p, starts);
        pp_text(&p, cells);
        long changed;
        rc = sites && starts && cells ? pg_exec(s, write_sql[period], &p, &changed) : STORE_ERROR;
    }
    for (size_t i = 0; i < rows.n; i++)
        free(rows.v[i].cells);
    free(rows.v);
    for (int c = 0; c < 3; c++)
        free(col[c].p);
    return rc;
}

/* Stores the flows among recs[0..n) (one statement per FLOW_SLICE of
 * them); *flows counts them, *stored the new ones. */
/* The sums by destination of a batch, kept until its end (the call of no
 * records, store.h) so that a period's row is read and written once a
 * batch, not once a chunk. Per thread and store, tagged with the write
 * transaction (its start): sums left by a batch that was rolled back are
 * dropped by the next. A thread writing more stores at once than there are
 * slots writes at each chunk. */
enum { PENDING_SLOTS = 4, PENDING_MAX = 1 << 18 };
static __thread struct pending_dst {
    struct store *s;
    struct timespec began;
    struct tel_dst_sums d;
} pending[PENDING_SLOTS];

static struct tel_dst_sums *pending_for(struct store *s)
{
    const struct timespec *began = &PG(s)->began;
    struct pending_dst *free_slot = NULL;
    for (int i = 0; i < PENDING_SLOTS; i++) {
        struct pending_dst *p = &pending[i];
        if (p->s == s) {
            if (p->began.tv_sec != began->tv_sec || p->began.tv_nsec != began->tv_nsec) {
                tel_dst_sums_clear(&p->d); /* another transaction's: rolled back */
                p->began = *began;
            }
            return &p->d;
        }
        if (!p->s && !free_slot)
            free_slot = p;
    }
    if (!free_slot)
        return NULL;
    free_slot->s = s;
    free_slot->began = *began;
    tel_dst_sums_init(&free_slot->d);
    return &free_slot->d;
}

static int write_all_dst(struct store *s, struct tel_dst_sums *d)
{
    int rc = STORE_OK;
    for (int period = TEL_DST_MINUTES; period <= TEL_DST_DAYS && rc == STORE_OK; period++)
        rc = write_dst(s, d, period);
    tel_dst_sums_clear(d);
    return rc;
}

/* The batch's end: its sums written. */
static int end_batch(struct store *s)
{
    for (int i = 0; i < PENDING_SLOTS; i++) {
        struct pending_dst *p = &pending[i];
        if (p->s != s)
            continue;
        int rc = p->began.tv_sec == PG(s)->began.tv_sec && p->began.tv_nsec == PG(s)->began.tv_nsec
                     ? write_all_dst(s, &p->d)
                     : STORE_OK;
        tel_dst_sums_free(&p->d);
        p->s = NULL;
        return rc;
    }
    return STORE_OK;
}

static int store_flows(struct store *s, const struct tel_record *recs, size_t n, long *flows, long *stored)
{
    *flows = *stored = 0;
    size_t i = 0;
    struct tel_dst_sums local, *dst = pending_for(s);
    if (!dst) {
        tel_dst_sums_init(&local);
        dst = &local;
    }
    static __thread const struct tel_record *slice[FLOW_SLICE];
    int rc = STORE_OK;
    while (i < n && rc == STORE_OK) {
        struct pg_array col[FLOW_COLS] = {0};
        size_t in_slice = 0;
        for (; i < n && in_slice < FLOW_SLICE; i++) {
            const struct tel_record *r = &recs[i];
            if (r->kind != TEL_FLOW)
                continue;
            const struct tel_flow *f = &r->u.flow;
            slice[in_slice] = r;
            arr_int(&col[0], r->place.site_rid);
            arr_int(&col[1], f->time);
            arr_int(&col[2], (int64_t)f->fid);
            arr_int(&col[3], r->place.holder_rid);
            arr_text(&col[4], f->router);
            arr_key(&col[5], f->src);
            arr_key(&col[6], f->dst);
            arr_int(&col[7], f->src_port);
            arr_int(&col[8], f->dst_port);
            arr_int(&col[9], f->protocol);
            arr_int(&col[10], f->bytes);
            arr_int(&col[11], f->packets);
            arr_int(&col[12], f->src_as);
            arr_text(&col[13], f->country);
            arr_text(&col[14], f->app);
            arr_int(&col[15], f->action);
            arr_text(&col[16], f->policy);
            in_slice++;
        }
        if (in_slice) {
            struct pg_params p = {0};
            for (int c = 0; c < FLOW_COLS && rc == STORE_OK; c++) {
                const char *text = arr_end(&col[c]);
                if (!text)
                    rc = STORE_ERROR;
                pp_text(&p, text);
            }
            PGresult *res = rc == STORE_OK ? pg_query(s, flows_sql, &p, &rc) : NULL;
            for (int k = 0; res && k < PQntuples(res) && rc == STORE_OK; k++) {
                int64_t ord = pg_int(res, k, 0); /* from 1 */
                if (ord < 1 || ord > (int64_t)in_slice ||
                    tel_dst_sums_add(dst, slice[ord - 1]->place.site_rid, &slice[ord - 1]->u.flow) != 0)
                    rc = STORE_ERROR;
            }
            if (res)
                *stored += PQntuples(res);
            PQclear(res);
            *flows += (long)in_slice;
        }
        for (int c = 0; c < FLOW_COLS; c++)
            free(col[c].p);
    }
    if (rc == STORE_OK && (dst == &local || tel_dst_sums_keys(dst) > PENDING_MAX))
        rc = write_all_dst(s, dst); /* no slot, or bounded memory for a batch of any size */
    if (dst == &local)
        tel_dst_sums_free(&local);
    return rc;
}

/* ---- DDoS and flow-down events, bandwidth ---- */

/* 1 stored or changed, 0 nothing new, -1 failure. A known event only
 * closes (once) and raises its peaks. */
static int upsert_ddos(struct store *s, const struct tel_record *r)
{
    static const char sql[] =
        "INSERT INTO tel_ddos_events AS t (alert_id, family, customer_id, site_rid, holder_rid, holder_kind, "
        "attack_type, start_time, end_time, max_bps, max_pps, severity, site_ip, ip_lo, ip_hi, profile_name, "
        "profile_desc, p_type) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::bigint, $10, $11, $12, $13, $14, $15, "
        "$16, $17, $18) ON CONFLICT (alert_id) DO UPDATE SET end_time = coalesce(t.end_time, excluded.end_time), "
        "max_bps = greatest(t.max_bps, excluded.max_bps), max_pps = greatest(t.max_pps, excluded.max_pps) "
        "WHERE (t.end_time IS NULL AND excluded.end_time IS NOT NULL) OR t.max_bps < excluded.max_bps "
        "OR t.max_pps < excluded.max_pps";
    const struct tel_ddos_event *e = &r->u.ev;
    char end[24];
    snprintf(end, sizeof end, "%lld", (long long)e->end_time);
    struct pg_params p = {0};
    pp_text(&p, e->alert_id);
    pp_text(&p, r->place.family);
    pp_text(&p, r->place.customer_id);
    pp_int(&p, r->place.site_rid);
    pp_int(&p, r->place.holder_rid);
    pp_text(&p, r->place.holder_kind);
    pp_text(&p, e->attack_type);
    pp_int(&p, e->start_time);
    pp_text(&p, e->end_time ? end : NULL);
    pp_int(&p, e->max_bps);
    pp_int(&p, e->max_pps);
    pp_int(&p, e->severity);
    pp_text(&p, e->site_ip);
    pp_bytes(&p, e->ip_lo, TEL_ADDR_KEY);
    pp_bytes(&p, e->ip_hi, TEL_ADDR_KEY);
    pp_text(&p, e->profile_name);
    pp_text(&p, e->profile_desc);
    pp_int(&p, e->p_type);
    long changed;
    return pg_exec(s, sql, &p, &changed) == STORE_OK ? changed > 0 : -1;
}

/* A known flow-down only closes, once. */
static int upsert_flow_down(struct store *s, const struct tel_record *r)
{
    static const char sql[] =
        "INSERT INTO tel_flow_downs AS t (alert_id, customer_id, site_rid, router_name, start_time, end_time) "
        "VALUES ($1, $2, $3, $4, $5, $6::bigint) ON CONFLICT (alert_id) DO UPDATE SET end_time = excluded.end_time "
        "WHERE t.end_time IS NULL AND excluded.end_time IS NOT NULL";
    const struct tel_flow_down *d = &r->u.down;
    char end[24];
    snprintf(end, sizeof end, "%lld", (long long)d->end_time);
    struct pg_params p = {0};
    pp_text(&p, d->alert_id);
    pp_text(&p, r->place.customer_id);
    pp_int(&p, r->place.site_rid);
    pp_text(&p, d->router_name);
    pp_int(&p, d->start_time);
    pp_text(&p, d->end_time ? end : NULL);
    long changed;
    return pg_exec(s, sql, &p, &changed) == STORE_OK ? changed > 0 : -1;
}

/* Bandwidth samples go in slices too, one upsert a slice: a known sample
 * changes only when its values do, and the rows the statement inserted or
 * changed are the samples stored. A key may be affected once per
 * statement, so a sample whose key is already in the slice starts the next
 * one (the later sample then replaces the earlier, as one by one). */
static const char bandwidth_sql[] =
    "INSERT INTO tel_bandwidth AS t (site_rid, minute, node, raw_in, raw_out, clean_in, clean_out) "
    "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], "
    "$7::bigint[]) ON CONFLICT (site_rid, minute, node) DO UPDATE SET raw_in = excluded.raw_in, "
    "raw_out = excluded.raw_out, clean_in = excluded.clean_in, clean_out = excluded.clean_out "
    "WHERE t.raw_in <> excluded.raw_in OR t.raw_out <> excluded.raw_out OR t.clean_in <> excluded.clean_in "
    "OR t.clean_out <> excluded.clean_out";

enum { BW_COLS = 7, BW_SLOTS = 2 * FLOW_SLICE };

static bool same_sample(const struct tel_record *a, const struct tel_record *b)
{
    return a->place.site_rid == b->place.site_rid && a->u.bw.minute == b->u.bw.minute &&
           strcmp(a->u.bw.node, b->u.bw.node) == 0;
}

static size_t sample_hash(const struct tel_record *r)
{
    uint64_t h = (uint64_t)r->place.site_rid * 0x9e3779b97f4a7c15u ^ (uint64_t)r->u.bw.minute;
    for (const char *c = r->u.bw.node; *c; c++)
        h = (h ^ (unsigned char)*c) * 0x100000001b3u;
    return (size_t)(h % BW_SLOTS);
}

/* Adds r's key to the slice's set (slots hold record indices + 1); false
 * when it is there already. */
static bool slice_add(const struct tel_record *recs, size_t *slots, size_t i)
{
    size_t h = sample_hash(&recs[i]);
    for (; slots[h]; h = (h + 1) % BW_SLOTS)
        if (same_sample(&recs[slots[h] - 1], &recs[i]))
            return false;
    slots[h] = i + 1;
    return true;
}

static int flush_bandwidth(struct store *s, struct pg_array *col, long *stored)
{
    struct pg_params p = {0};
    int rc = STORE_OK;
    for (int c = 0; c < BW_COLS; c++) {
        const char *text = arr_end(&col[c]);
        if (!text)
            rc = STORE_ERROR;
        pp_text(&p, text);
    }
    long changed = 0;
    if (rc == STORE_OK)
        rc = pg_exec(s, bandwidth_sql, &p, &changed);
    *stored += changed;
    for (int c = 0; c < BW_COLS; c++) {
        free(col[c].p);
        col[c] = (struct pg_array){0};
    }
    return rc;
}

/* Stores the bandwidth samples among recs[0..n); *samples counts them,
 * *stored the new or changed ones. */
static int store_bandwidth(struct store *s, const struct tel_record *recs, size_t n, long *samples, long *stored)
{
    *samples = *stored = 0;
    size_t *slots = calloc(BW_SLOTS, sizeof *slots), in_slice = 0;
    struct pg_array col[BW_COLS] = {0};
    int rc = slots ? STORE_OK : STORE_ERROR;
    for (size_t i = 0; i < n && rc == STORE_OK; i++) {
        const struct tel_record *r = &recs[i];
        if (r->kind != TEL_BANDWIDTH)
            continue;
        if (in_slice == FLOW_SLICE || !slice_add(recs, slots, i)) {
            rc = flush_bandwidth(s, col, stored);
            memset(slots, 0, BW_SLOTS * sizeof *slots);
            in_slice = 0;
            slice_add(recs, slots, i);
        }
        const struct tel_bandwidth *b = &r->u.bw;
        arr_int(&col[0], r->place.site_rid);
        arr_int(&col[1], b->minute);
        arr_text(&col[2], b->node);
        arr_int(&col[3], b->raw_in);
        arr_int(&col[4], b->raw_out);
        arr_int(&col[5], b->clean_in);
        arr_int(&col[6], b->clean_out);
        in_slice++;
        (*samples)++;
    }
    if (rc == STORE_OK && in_slice)
        rc = flush_bandwidth(s, col, stored);
    for (int c = 0; c < BW_COLS; c++)
        free(col[c].p);
    free(slots);
    return rc;
}

int pg_tel_waf_store(struct store *s, const struct tel_record *recs, size_t n, long *entries,
                     long *stored); /* pgsql/tel_waf.c */

/* The WAF entries among recs[0..n), a few statements for them all. */
static int store_waf(struct store *s, const struct tel_record *recs, size_t n, struct tel_ingest_result *out)
{
    long entries, stored;
    if (pg_tel_waf_store(s, recs, n, &entries, &stored) != STORE_OK)
        return STORE_ERROR;
    out->records += entries;
    out->stored += stored;
    out->duplicates += entries - stored;
    return STORE_OK;
}

/* Flows and bandwidth samples do not depend on the other records (nor
 * they on them): they are stored after the others, which go in their
 * order (the WAF entries between two others together). */
/* The monthly partitions of the flow and bandwidth tables (pg/010) for the
 * times of this batch, made before the rows go in. */
static int cover_months(struct store *s, const struct tel_record *recs, size_t n)
{
    static const char sql[] = "SELECT tel_partitions_cover($1, $2)";
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        int64_t t = recs[i].kind == TEL_FLOW ? recs[i].u.flow.time
                    : recs[i].kind == TEL_BANDWIDTH ? recs[i].u.bw.minute
                                                    : INT64_MIN;
        if (t == INT64_MIN)
            continue;
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
    }
    if (lo > hi)
        return STORE_OK;
    struct pg_params p = {0};
    pp_int(&p, lo);
    pp_int(&p, hi);
    return pg_exec(s, sql, &p, NULL);
}

int pg_tel_ingest(struct store *s, const struct tel_record *recs, size_t n, struct tel_ingest_result *out)
{
    memset(out, 0, sizeof *out);
    if (!recs && n == 0)
        return end_batch(s);
    size_t waf_from = 0; /* the WAF entries from here on wait to be stored together */
    for (size_t i = 0; i < n; i++) {
        const struct tel_record *r = &recs[i];
        int added = 0;
        switch (r->kind) {
        case TEL_FLOW:
        case TEL_BANDWIDTH:
        case TEL_WAF_LOG: continue;
        case TEL_DDOS_EVENT:
        case TEL_FLOW_DOWN:
            /* the WAF entries before it first: the webhook rows of their
             * events and of this one keep the records' order */
            if (store_waf(s, recs + waf_from, i - waf_from, out) != STORE_OK)
                return STORE_ERROR;
            waf_from = i + 1;
            added = r->kind == TEL_DDOS_EVENT ? upsert_ddos(s, r) : upsert_flow_down(s, r);
            break;
        }
        if (added < 0)
            return STORE_ERROR;
        out->records++;
        if (added)
            out->stored++;
        else
            out->duplicates++;
    }
    long flows, stored, samples, changed;
    if (store_waf(s, recs + waf_from, n - waf_from, out) != STORE_OK ||
        cover_months(s, recs, n) != STORE_OK || store_flows(s, recs, n, &flows, &stored) != STORE_OK ||
        store_bandwidth(s, recs, n, &samples, &changed) != STORE_OK)
        return STORE_ERROR;
    out->records += flows + samples;
    out->stored += stored + changed;
    out->duplicates += flows - stored + samples - changed;
    return STORE_OK;
}
