/* pgsql/tel_ingest.c — telemetry writes on PostgreSQL (store_ops.tel_ingest).
 * The semantics are sqlite/tel_ingest.c's; the shape is PostgreSQL's:
 * - flows go in slices of distinct keys (the first of a key in the batch
 *   is the one stored, as with INSERT OR IGNORE in record order): one query
 *   for the keys stored already, the others sent with COPY (binary); the
 *   new flows are summed in C into every roll-up (store/tel_sums.h,
 *   store/tel_dst_sums.h) until the batch's end, and each key is written
 *   once then (array upserts; the destination cells merged in C, pg/013);
 * - bandwidth samples go in slices of distinct keys, one upsert a slice;
 * - events and flow-downs are one upsert each, whose affected rows say
 *   whether the record changed anything;
 * - WAF entries are grouped into events by pgsql/tel_waf.c.
 * Nothing relies on catching a constraint error: one aborts the transaction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "store/pgsql/db.h"
#include "store/pgsql/pg_array.h"
#include "store/tel_flow_sums.h"
#include "store/tel_vector.h"

enum { FLOW_SLICE = 4096, FLOW_COLS = 17 };

enum { COPY_HEAD = 19 };

/* ---- the raw flows of a slice ---- */

/* Which keys of the slice are stored already: those tel_flows holds in
 * the spans of time the slice's keys cover, a span a run of a site's key
 * times less than RUN_GAP_S apart (mark_stored). One index range a run,
 * where a probe a key cost 1.7 µs of PostgreSQL's time a flow; fresh flows,
 * newer than those stored, read nothing. What a run may read beside the
 * slice's own keys is bounded by the stored flows of RUN_GAP_S a key.
 * Planned each time (pg_params.plan_each_time): the generic plan of this
 * statement, made while tel_flows was small, was seen to stay a bad one.
 * The others go in with COPY (write transactions hold the write lock: no
 * other can store them in between; and the primary key still refuses a
 * duplicate, which would abort the transaction rather than count twice). */
enum { RUN_GAP_S = 60 };
static const char stored_sql[] =
    "SELECT f.site_rid, f.ts, f.fid FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS w(site_rid, lo, hi) "
    "CROSS JOIN LATERAL (SELECT site_rid, ts, fid FROM tel_flows WHERE site_rid = w.site_rid AND ts >= w.lo "
    "AND ts <= w.hi OFFSET 0) AS f";

static const char copy_sql[] =
    "COPY tel_flows (site_rid, ts, fid, holder_rid, router, src, dst, src_port, dst_port, protocol, bytes, packets, "
    "src_as, country, app, action, policy) FROM STDIN (FORMAT binary)";

/* The slice's distinct keys: open addressing over slice indexes + 1. */
enum { SLICE_SLOTS = 2 * FLOW_SLICE };

struct flow_slice {
    const struct tel_record *r[FLOW_SLICE];
    bool stored[FLOW_SLICE]; /* already in tel_flows */
    size_t n;
    uint32_t slots[SLICE_SLOTS];
};

static size_t key_slot(int64_t site_rid, int64_t ts, uint64_t fid)
{
    uint64_t h = ((uint64_t)site_rid * 0x9e3779b97f4a7c15u) ^ ((uint64_t)ts * 0xbf58476d1ce4e5b9u) ^ fid;
    h ^= h >> 31;
    return (size_t)(h * 0x94d049bb133111ebu >> 40) % SLICE_SLOTS;
}

/* The slot of a key: its record's, or the empty one where it would go. */
static size_t slice_slot(const struct flow_slice *sl, int64_t site_rid, int64_t ts, uint64_t fid)
{
    size_t h = key_slot(site_rid, ts, fid);
    for (; sl->slots[h]; h = (h + 1) % SLICE_SLOTS) {
        const struct tel_record *q = sl->r[sl->slots[h] - 1];
        if (q->place.site_rid == site_rid && q->u.flow.time == ts && q->u.flow.fid == fid)
            break;
    }
    return h;
}

/* Adds r unless its key is in the slice already (a duplicate in the
 * batch: the first is the one stored). */
static void slice_add_flow(struct flow_slice *sl, const struct tel_record *r)
{
    size_t h = slice_slot(sl, r->place.site_rid, r->u.flow.time, r->u.flow.fid);
    if (sl->slots[h])
        return;
    sl->stored[sl->n] = false;
    sl->r[sl->n] = r;
    sl->slots[h] = (uint32_t)++sl->n;
}

/* One row of COPY's binary format. */
static void put_flow(struct pg_array *w, const struct tel_record *r)
{
    const struct tel_flow *f = &r->u.flow;
    static const char fields[2] = {0, FLOW_COLS};
    arr_put(w, fields, 2);
    wire_int(w, r->place.site_rid);
    wire_int(w, f->time);
    wire_int(w, (int64_t)f->fid);
    wire_int(w, r->place.holder_rid);
    wire_text(w, f->router);
    wire_field(w, f->src, TEL_ADDR_KEY);
    wire_field(w, f->dst, TEL_ADDR_KEY);
    wire_int(w, f->src_port);
    wire_int(w, f->dst_port);
    wire_int(w, f->protocol);
    wire_int(w, f->bytes);
    wire_int(w, f->packets);
    wire_int(w, f->src_as);
    wire_text(w, f->country);
    wire_text(w, f->app);
    wire_int(w, f->action);
    wire_text(w, f->policy);
}

/* Marks the slice's keys that tel_flows holds already (stored_sql). */
static int mark_stored(struct store *s, struct flow_slice *sl)
{
    static __thread struct pg_key_time keys[FLOW_SLICE];
    for (size_t i = 0; i < sl->n; i++)
        keys[i] = (struct pg_key_time){sl->r[i]->place.site_rid, sl->r[i]->u.flow.time};
    struct pg_array run[3] = {0}; /* site, first and last time */
    pg_time_runs(keys, sl->n, RUN_GAP_S, 0, run);
    struct pg_params p = {.binary_results = true, .plan_each_time = true};
    int rc = STORE_OK;
    for (int c = 0; c < 3; c++)
        if (!arr_param(&run[c], &p))
            rc = STORE_ERROR;
    PGresult *res = rc == STORE_OK ? pg_query(s, stored_sql, &p, &rc) : NULL;
    for (int k = 0; res && k < PQntuples(res); k++) {
        size_t h = slice_slot(sl, pg_int(res, k, 0), pg_int(res, k, 1), (uint64_t)pg_int(res, k, 2));
        if (sl->slots[h]) /* a key of the slice; the run's others are not */
            sl->stored[sl->slots[h] - 1] = true;
    }
    PQclear(res);
    for (int c = 0; c < 3; c++)
        free(run[c].p);
    return rc;
}

/* Stores the slice's new rows (the first of a key in the batch); their
 * flows are added to p. Every row is put in COPY's format before the key
 * query, those stored already cut out after it; the COPY then runs on a
 * thread of its own (pg_copy_start) while the flows are summed here and
 * the next slice is made, and the connection's next statement waits for
 * it (a failed COPY fails that statement, and so the batch). */
static int insert_slice(struct store *s, struct flow_slice *sl, struct tel_flow_sums *p, long *stored)
{
    static const char head[COPY_HEAD] = "PGCOPY\n\377\r\n"; /* then flags and extension length: zero */
    static const char trailer[2] = {'\377', '\377'};
    struct pg_array rows = {0};
    static __thread size_t ends[FLOW_SLICE]; /* row i ends at ends[i] */
    arr_put(&rows, head, COPY_HEAD);
    for (size_t i = 0; i < sl->n; i++) {
        put_flow(&rows, sl->r[i]);
        ends[i] = rows.len;
    }
    int rc = rows.failed ? STORE_ERROR : mark_stored(s, sl);
    long fresh = 0;
    size_t kept = COPY_HEAD;
    for (size_t i = 0; i < sl->n && rc == STORE_OK; i++) {
        size_t from = i ? ends[i - 1] : COPY_HEAD;
        if (sl->stored[i])
            continue;
        if (kept != from) /* a row stored already was cut out before this one */
            memmove(rows.p + kept, rows.p + from, ends[i] - from);
        kept += ends[i] - from;
        fresh++;
    }
    rows.len = kept;
    arr_put(&rows, trailer, 2);
    if (rows.failed)
        rc = STORE_ERROR;
    if (rc == STORE_OK && fresh)
        rc = pg_copy_start(s, copy_sql, rows.p, rows.len, fresh); /* takes rows.p */
    else
        free(rows.p);
    for (size_t i = 0; i < sl->n && rc == STORE_OK; i++)
        if (!sl->stored[i] && tel_flow_sums_add(p, sl->r[i]->place.site_rid, &sl->r[i]->u.flow) != 0)
            rc = STORE_ERROR;
    if (rc == STORE_OK)
        *stored += fresh;
    return rc;
}

/* ---- the roll-ups written: one statement per table, a row per key ---- */

#define ADD_SUMS(table)                                                                                      \
    " DO UPDATE SET bytes = " table ".bytes + excluded.bytes, packets = " table ".packets + excluded.packets, " \
    "flows = " table ".flows + excluded.flows"

/* One row of tel_site_hours (tel_site_hour_rows) into the statement's
 * columns. */
static int collect_site_hour(void *ctx, const struct tel_site_hour_row *r)
{
    struct pg_array *col = ctx;
    arr_int(&col[0], r->site_rid);
    arr_int(&col[1], r->hour);
    arr_int(&col[2], r->action);
    arr_text(&col[3], r->policy);
    arr_bytes(&col[4], r->mins, TEL_VEC_BYTES);
    arr_int(&col[5], r->flows);
    return 0;
}

/* The site minutes as rows of tel_site_hours: each run of one site, hour,
 * action and policy becomes one vector added to the row's. */
static int write_site_hours(struct store *s, struct tel_sums *m)
{
    static const char sql[] =
        "INSERT INTO tel_site_hours AS t (site_rid, hour, action, policy, mins, flows) SELECT * FROM "
        "unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bytea[], $6::bigint[]) ON CONFLICT "
        "(site_rid, hour, action, policy) DO UPDATE SET mins = tel_minutes_add(t.mins, excluded.mins), "
        "flows = t.flows + excluded.flows";
    if (!m->n)
        return STORE_OK;
    struct pg_array col[6] = {0};
    if (tel_site_hour_rows(m, collect_site_hour, col) != 0) {
        for (int i = 0; i < 6; i++)
            free(col[i].p);
        return STORE_ERROR;
    }
    return pg_run_columns(s, sql, col, 6, NULL);
}

/* Per hour (tel_flow_hours) or per day (tel_flow_days), in key order. */
static int write_hours(struct store *s, struct tel_sums *h, bool days)
{
    static const char sql[] = "INSERT INTO tel_flow_hours AS t (site_rid, dim, hour, key, bytes, packets, flows) "
                              "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], "
                              "$5::bigint[], $6::bigint[], $7::bigint[]) ON CONFLICT (site_rid, dim, hour, key)" ADD_SUMS("t");
    static const char day_sql[] = "INSERT INTO tel_flow_days AS t (site_rid, dim, day, key, bytes, packets, flows) "
                                  "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], "
                                  "$5::bigint[], $6::bigint[], $7::bigint[]) ON CONFLICT (site_rid, dim, day, key)" ADD_SUMS("t");
    if (!h->n)
        return STORE_OK;
    if (tel_sums_sort(h, tel_cmp_hour) != 0)
        return STORE_ERROR;
    struct pg_array col[7] = {0};
    for (size_t i = 0; i < h->n; i++) {
        const struct tel_hour_item *it = tel_sums_sorted(h, i);
        char key[NET_TEXT_MAX];
        tel_hour_key_text(&it->key, key);
        arr_int(&col[0], it->key.site_rid);
        arr_int(&col[1], it->key.dim);
        arr_int(&col[2], it->key.hour);
        arr_text(&col[3], key);
        arr_int(&col[4], it->c.bytes);
        arr_int(&col[5], it->c.packets);
        arr_int(&col[6], it->c.flows);
    }
    return pg_run_columns(s, days ? day_sql : sql, col, 7, NULL);
}

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
    if (GROW_FOR(r->v, r->cap, r->n, 64) != 0)
        return -1;
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
    if (rc == STORE_OK && rows.n) {
        struct pg_params p = {.binary_results = true};
        PGresult *res = arr_param(&col[0], &p) && arr_param(&col[1], &p) ? pg_query(s, read_sql[period], &p, &rc)
                                                                          : NULL;
        if (!res && rc == STORE_OK)
            rc = STORE_ERROR;
        for (int i = 0; res && i < PQntuples(res) && rc == STORE_OK; i++) {
            struct dst_row *row = find_row(&rows, pg_int(res, i, 0), pg_int(res, i, 1));
            size_t len, n;
            const uint8_t *stored = pg_bytes(res, i, 2, &len);
            uint8_t *sum = NULL;
            if (!row || !stored || !tel_cells_valid(stored, len) ||
                tel_cells_merge(stored, len, row->cells, row->n, &sum, &n) != 0) {
                rc = STORE_ERROR;
            } else {
                free(row->cells);
                row->cells = sum;
                row->n = n;
            }
        }
        PQclear(res);
    }
    for (size_t i = 0; i < rows.n && rc == STORE_OK; i++)
        arr_bytes(&col[2], rows.v[i].cells, rows.v[i].n);
    if (rc == STORE_OK && rows.n)
        rc = pg_run_columns(s, write_sql[period], col, 3, NULL);
    for (size_t i = 0; i < rows.n; i++)
        free(rows.v[i].cells);
    free(rows.v);
    for (int c = 0; c < 3; c++)
        free(col[c].p);
    return rc;
}

/* What the flows of a batch add to the roll-ups, kept until its end (the
 * call of no records, store.h) so that each key is written once a batch,
 * not once a chunk. Per thread and store, tagged with the write transaction
 * (its start): sums left by a batch that was rolled back are dropped by the
 * next. A thread writing more stores at once than there are slots writes
 * at each chunk. */
enum { PENDING_SLOTS = 4, PENDING_MAX = 1 << 18 };
static __thread struct pending_slot {
    struct store *s;
    struct timespec began;
    struct tel_flow_sums p;
} pending[PENDING_SLOTS];

static struct tel_flow_sums *pending_for(struct store *s)
{
    const struct timespec *began = &PG(s)->began;
    struct pending_slot *free_slot = NULL;
    for (int i = 0; i < PENDING_SLOTS; i++) {
        struct pending_slot *p = &pending[i];
        if (p->s == s) {
            if (p->began.tv_sec != began->tv_sec || p->began.tv_nsec != began->tv_nsec) {
                tel_flow_sums_clear(&p->p); /* another transaction's: rolled back */
                p->began = *began;
            }
            return &p->p;
        }
        if (!p->s && !free_slot)
            free_slot = p;
    }
    if (!free_slot)
        return NULL;
    free_slot->s = s;
    free_slot->began = *began;
    tel_flow_sums_init(&free_slot->p);
    return &free_slot->p;
}

/* Every roll-up's keys written, then the sums emptied. */
static int write_pending(struct store *s, struct tel_flow_sums *p)
{
    int rc = tel_flow_rollups_days(&p->roll) == 0 ? STORE_OK : STORE_ERROR;
    if (rc == STORE_OK)
        rc = write_site_hours(s, &p->roll.site_minutes);
    if (rc == STORE_OK)
        rc = write_hours(s, &p->roll.hours, false);
    if (rc == STORE_OK)
        rc = write_hours(s, &p->roll.days, true);
    for (int period = TEL_DST_MINUTES; period <= TEL_DST_DAYS && rc == STORE_OK; period++)
        rc = write_dst(s, &p->dst, period);
    tel_flow_sums_clear(p);
    return rc;
}

/* The batch's end: its sums written. */
static int end_batch(struct store *s)
{
    for (int i = 0; i < PENDING_SLOTS; i++) {
        struct pending_slot *p = &pending[i];
        if (p->s != s)
            continue;
        int rc = p->began.tv_sec == PG(s)->began.tv_sec && p->began.tv_nsec == PG(s)->began.tv_nsec
                     ? write_pending(s, &p->p)
                     : STORE_OK;
        tel_flow_sums_free(&p->p);
        p->s = NULL;
        return rc;
    }
    return STORE_OK;
}

/* Stores the flows among recs[0..n) (a key query and a COPY per FLOW_SLICE
 * distinct keys); *flows counts them, *stored the new ones. */
static int store_flows(struct store *s, const struct tel_record *recs, size_t n, long *flows, long *stored)
{
    *flows = *stored = 0;
    struct tel_flow_sums local, *p = pending_for(s);
    if (!p) {
        tel_flow_sums_init(&local);
        p = &local;
    }
    static __thread struct flow_slice slice;
    int rc = STORE_OK;
    for (size_t i = 0; i < n && rc == STORE_OK;) {
        slice.n = 0;
        memset(slice.slots, 0, sizeof slice.slots);
        for (; i < n && slice.n < FLOW_SLICE; i++)
            if (recs[i].kind == TEL_FLOW) {
                slice_add_flow(&slice, &recs[i]); /* a later equal key is a duplicate */
                (*flows)++;
            }
        if (slice.n)
            rc = insert_slice(s, &slice, p, stored);
    }
    if (rc == STORE_OK &&
        (p == &local || tel_flow_sums_keys(p) > PENDING_MAX))
        rc = write_pending(s, p); /* no slot, or bounded memory for a batch of any size */
    if (p == &local)
        tel_flow_sums_free(&local);
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
    for (int c = 0; c < BW_COLS; c++)
        if (!arr_param(&col[c], &p))
            rc = STORE_ERROR;
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
    /* the flows last: their last COPY goes on while the caller makes the
     * next call's records (pg_copy_start) */
    long flows, stored, samples, changed;
    if (store_waf(s, recs + waf_from, n - waf_from, out) != STORE_OK ||
        cover_months(s, recs, n) != STORE_OK || store_bandwidth(s, recs, n, &samples, &changed) != STORE_OK ||
        store_flows(s, recs, n, &flows, &stored) != STORE_OK)
        return STORE_ERROR;
    out->records += flows + samples;
    out->stored += stored + changed;
    out->duplicates += flows - stored + samples - changed;
    return STORE_OK;
}
