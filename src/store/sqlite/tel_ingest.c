/* sqlite/tel_ingest.c — telemetry writes on SQLite (store_ops.tel_ingest,
 * tel_purge). Flows new to the store are summed into the roll-ups in
 * memory, one upsert per key per write transaction (at its commit; the
 * roll-ups by destination one per site and period, their destinations as
 * cells: store/tel_cells.h); WAF entries are grouped into events by the
 * quiet-gap rule (docs/telemetry.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "base/text.h"
#include "store/sqlite/db.h"
#include "store/tel_cells.h"
#include "store/tel_flow_sums.h"
#include "store/tel_vector.h"

/* ---- flow roll-ups ---- */

/* What the flows of a write transaction add to the roll-ups
 * (store/tel_sums.h, tel_flow_rollups: the site minutes go to
 * tel_site_hours, an hour's minutes in one row, tel_vector.h; the sums by
 * destination are tel_dst_sums.h's), written once per key before it
 * commits (flush_pending), or early past PENDING_MAX keys. */
struct sq_waf_pending; /* sqlite/tel_waf.c */
struct tel_pending {
    struct tel_flow_sums flows;
    struct sq_waf_pending *waf; /* what WAF entries add to their events */
};

enum { PENDING_MAX = 1 << 18 };

/* sqlite/tel_waf.c */
int sq_tel_waf_add(struct store *s, struct sq_waf_pending **pending, const struct tel_record *r);
int sq_tel_waf_flush(struct store *s, struct sq_waf_pending *w);
void sq_tel_waf_free(struct sq_waf_pending *w);

static int flush_pending(struct store *s);
static void drop_pending(struct store *s);
static const struct sqlite_pending_steps pending_steps = {.flush = flush_pending, .drop = drop_pending};

static struct tel_pending *pending(struct store *s)
{
    struct sqlite_store *d = DB(s);
    if (!d->tel_pending && (d->tel_pending = calloc(1, sizeof *d->tel_pending))) {
        d->pending = &pending_steps;
        tel_flow_sums_init(&d->tel_pending->flows);
    }
    return d->tel_pending;
}

static void bind_sums(sqlite3_stmt *st, int first, const struct tel_counts *c)
{
    sqlite3_bind_int64(st, first, c->bytes);
    sqlite3_bind_int64(st, first + 1, c->packets);
    sqlite3_bind_int64(st, first + 2, c->flows);
}

#define ADD_SUMS                                                                                             \
    " ON CONFLICT DO UPDATE SET bytes = bytes + excluded.bytes, packets = packets + excluded.packets, "      \
    "flows = flows + excluded.flows"

#define ADD_VECTOR " ON CONFLICT DO UPDATE SET mins = tel_minutes_add(mins, excluded.mins), flows = flows + excluded.flows"

#define ADD_CELLS " ON CONFLICT DO UPDATE SET cells = tel_cells_add(cells, excluded.cells)"

/* One row of a destination roll-up (tel_dst_sums_rows): a site, a period's
 * start, its cells added to the row's. */
struct cells_upsert {
    struct store *s;
    const char *sql;
};

static int upsert_cells(void *ctx, int64_t site_rid, int64_t start, const uint8_t *cells, size_t n)
{
    const struct cells_upsert *u = ctx;
    sqlite3_stmt *st = db_stmt(u->s, u->sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, site_rid);
    sqlite3_bind_int64(st, 2, start);
    sqlite3_bind_blob(st, 3, cells, (int)n, SQLITE_STATIC);
    return db_exec_stmt(u->s, st) == STORE_OK ? 0 : STORE_ERROR;
}

/* The roll-ups by destination: one row per site and minute, hour, day. */
static int upsert_dst(struct store *s, struct tel_dst_sums *d)
{
    static const char *const sql[] = {
        [TEL_DST_MINUTES] = "INSERT INTO tel_dst_minutes (site_rid, minute, cells) VALUES (?1, ?2, ?3)" ADD_CELLS,
        [TEL_DST_HOURS] = "INSERT INTO tel_dst_hours (site_rid, hour, cells) VALUES (?1, ?2, ?3)" ADD_CELLS,
        [TEL_DST_DAYS] = "INSERT INTO tel_dst_days (site_rid, day, cells) VALUES (?1, ?2, ?3)" ADD_CELLS,
    };
    for (int period = TEL_DST_MINUTES; period <= TEL_DST_DAYS; period++) {
        struct cells_upsert u = {s, sql[period]};
        if (tel_dst_sums_rows(d, period, upsert_cells, &u) != 0)
            return STORE_ERROR;
    }
    return STORE_OK;
}

/* One row of tel_site_hours (tel_site_hour_rows): its vector added to the
 * row's. */
static int upsert_site_hour(void *ctx, const struct tel_site_hour_row *r)
{
    static const char sql[] = "INSERT INTO tel_site_hours (site_rid, hour, action, policy, mins, flows) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6)" ADD_VECTOR;
    struct store *s = ctx;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, r->site_rid);
    sqlite3_bind_int64(st, 2, r->hour);
    sqlite3_bind_int(st, 3, r->action);
    BIND_TEXT(st, 4, r->policy);
    sqlite3_bind_blob(st, 5, r->mins, TEL_VEC_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(st, 6, r->flows);
    return db_exec_stmt(s, st) == STORE_OK ? 0 : STORE_ERROR;
}

/* Per hour (tel_flow_hours) or per day (tel_flow_days), in key order. */
static int upsert_hours(struct store *s, struct tel_sums *h, bool days)
{
    static const char sql[] = "INSERT INTO tel_flow_hours (site_rid, dim, hour, key, bytes, packets, flows) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)" ADD_SUMS;
    static const char day_sql[] =
        "INSERT INTO tel_flow_days (site_rid, dim, day, key, bytes, packets, flows) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)" ADD_SUMS;
    if (tel_sums_sort(h, tel_cmp_hour) != 0)
        return STORE_ERROR;
    for (size_t i = 0; i < h->n; i++) {
        const struct tel_hour_item *it = tel_sums_sorted(h, i);
        char key[NET_TEXT_MAX];
        tel_hour_key_text(&it->key, key);
        sqlite3_stmt *st = db_stmt(s, days ? day_sql : sql);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, it->key.site_rid);
        sqlite3_bind_int(st, 2, it->key.dim);
        sqlite3_bind_int64(st, 3, it->key.hour);
        BIND_TEXT(st, 4, key);
        bind_sums(st, 5, &it->c);
        if (db_exec_stmt(s, st) != STORE_OK)
            return STORE_ERROR;
    }
    return STORE_OK;
}

/* Before COMMIT (db.c, through pending_steps). */
static int flush_pending(struct store *s)
{
    struct tel_pending *p = DB(s)->tel_pending;
    if (!p)
        return STORE_OK;
    int rc = tel_flow_rollups_days(&p->flows.roll) == 0 && sq_tel_waf_flush(s, p->waf) == STORE_OK &&
                     upsert_dst(s, &p->flows.dst) == STORE_OK && tel_site_hour_rows(&p->flows.roll.site_minutes, upsert_site_hour, s) == 0 &&
                     upsert_hours(s, &p->flows.roll.hours, false) == STORE_OK &&
                     upsert_hours(s, &p->flows.roll.days, true) == STORE_OK
                 ? STORE_OK
                 : STORE_ERROR;
    drop_pending(s);
    return rc;
}

static void drop_pending(struct store *s)
{
    struct tel_pending *p = DB(s)->tel_pending;
    if (!p)
        return;
    tel_flow_sums_free(&p->flows);
    sq_tel_waf_free(p->waf);
    free(p);
    DB(s)->tel_pending = NULL;
    DB(s)->pending = NULL;
}

/* 1 stored, 0 a duplicate, -1 failure. */
static int insert_flow(struct store *s, const struct tel_record *r)
{
    static const char sql[] =
        "INSERT OR IGNORE INTO tel_flows (site_rid, ts, fid, holder_rid, router, src, dst, src_port, dst_port, "
        "protocol, bytes, packets, src_as, country, app, action, policy) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)";
    const struct tel_flow *f = &r->u.flow;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, r->place.site_rid);
    sqlite3_bind_int64(st, 2, f->time);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)f->fid);
    sqlite3_bind_int64(st, 4, r->place.holder_rid);
    BIND_TEXT(st, 5, f->router);
    sqlite3_bind_blob(st, 6, f->src, TEL_ADDR_KEY, SQLITE_STATIC);
    sqlite3_bind_blob(st, 7, f->dst, TEL_ADDR_KEY, SQLITE_STATIC);
    sqlite3_bind_int(st, 8, f->src_port);
    sqlite3_bind_int(st, 9, f->dst_port);
    sqlite3_bind_int(st, 10, f->protocol);
    sqlite3_bind_int64(st, 11, f->bytes);
    sqlite3_bind_int64(st, 12, f->packets);
    sqlite3_bind_int64(st, 13, f->src_as);
    BIND_TEXT(st, 14, f->country);
    BIND_TEXT(st, 15, f->app);
    sqlite3_bind_int(st, 16, f->action);
    BIND_TEXT(st, 17, f->policy);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    return sqlite3_changes(DB(s)->db) > 0;
}

/* ---- DDoS and flow-down events ---- */

/* 1 stored or changed, 0 nothing new, -1 failure. A known event only
 * closes (once) and raises its peaks. */
static int upsert_ddos(struct store *s, const struct tel_record *r)
{
    static const char insert_sql[] =
        "INSERT OR IGNORE INTO tel_ddos_events (alert_id, family, customer_id, site_rid, holder_rid, holder_kind, "
        "attack_type, start_time, end_time, max_bps, max_pps, severity, site_ip, ip_lo, ip_hi, profile_name, "
        "profile_desc, p_type) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
        "?17, ?18)";
    static const char update_sql[] =
        "UPDATE tel_ddos_events SET end_time = coalesce(end_time, ?2), max_bps = max(max_bps, ?3), "
        "max_pps = max(max_pps, ?4) WHERE alert_id = ?1 AND ((end_time IS NULL AND ?2 IS NOT NULL) OR "
        "max_bps < ?3 OR max_pps < ?4)";
    const struct tel_ddos_event *e = &r->u.ev;
    sqlite3_stmt *st = db_stmt(s, insert_sql);
    if (!st)
        return -1;
    BIND_TEXT(st, 1, e->alert_id);
    BIND_TEXT(st, 2, r->place.family);
    BIND_TEXT(st, 3, r->place.customer_id);
    sqlite3_bind_int64(st, 4, r->place.site_rid);
    sqlite3_bind_int64(st, 5, r->place.holder_rid);
    BIND_TEXT(st, 6, r->place.holder_kind);
    BIND_TEXT(st, 7, e->attack_type);
    sqlite3_bind_int64(st, 8, e->start_time);
    if (e->end_time)
        sqlite3_bind_int64(st, 9, e->end_time);
    sqlite3_bind_int64(st, 10, e->max_bps);
    sqlite3_bind_int64(st, 11, e->max_pps);
    sqlite3_bind_int(st, 12, e->severity);
    BIND_TEXT(st, 13, e->site_ip);
    sqlite3_bind_blob(st, 14, e->ip_lo, TEL_ADDR_KEY, SQLITE_STATIC);
    sqlite3_bind_blob(st, 15, e->ip_hi, TEL_ADDR_KEY, SQLITE_STATIC);
    BIND_TEXT(st, 16, e->profile_name);
    BIND_TEXT(st, 17, e->profile_desc);
    sqlite3_bind_int(st, 18, e->p_type);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    if (sqlite3_changes(DB(s)->db) > 0)
        return 1;
    if (!(st = db_stmt(s, update_sql)))
        return -1;
    BIND_TEXT(st, 1, e->alert_id);
    if (e->end_time)
        sqlite3_bind_int64(st, 2, e->end_time);
    sqlite3_bind_int64(st, 3, e->max_bps);
    sqlite3_bind_int64(st, 4, e->max_pps);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    return sqlite3_changes(DB(s)->db) > 0;
}

static int upsert_flow_down(struct store *s, const struct tel_record *r)
{
    static const char insert_sql[] =
        "INSERT OR IGNORE INTO tel_flow_downs (alert_id, customer_id, site_rid, router_name, start_time, end_time) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
    static const char close_sql[] =
        "UPDATE tel_flow_downs SET end_time = ?2 WHERE alert_id = ?1 AND end_time IS NULL";
    const struct tel_flow_down *d = &r->u.down;
    sqlite3_stmt *st = db_stmt(s, insert_sql);
    if (!st)
        return -1;
    BIND_TEXT(st, 1, d->alert_id);
    BIND_TEXT(st, 2, r->place.customer_id);
    sqlite3_bind_int64(st, 3, r->place.site_rid);
    BIND_TEXT(st, 4, d->router_name);
    sqlite3_bind_int64(st, 5, d->start_time);
    if (d->end_time)
        sqlite3_bind_int64(st, 6, d->end_time);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    if (sqlite3_changes(DB(s)->db) > 0)
        return 1;
    if (!d->end_time)
        return 0;
    if (!(st = db_stmt(s, close_sql)))
        return -1;
    BIND_TEXT(st, 1, d->alert_id);
    sqlite3_bind_int64(st, 2, d->end_time);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    return sqlite3_changes(DB(s)->db) > 0;
}

static int upsert_bandwidth(struct store *s, const struct tel_record *r)
{
    static const char sql[] =
        "INSERT INTO tel_bandwidth (site_rid, minute, node, raw_in, raw_out, clean_in, clean_out) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO UPDATE SET raw_in = excluded.raw_in, "
        "raw_out = excluded.raw_out, clean_in = excluded.clean_in, clean_out = excluded.clean_out "
        "WHERE raw_in <> excluded.raw_in OR raw_out <> excluded.raw_out OR clean_in <> excluded.clean_in "
        "OR clean_out <> excluded.clean_out";
    const struct tel_bandwidth *b = &r->u.bw;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, r->place.site_rid);
    sqlite3_bind_int64(st, 2, b->minute);
    BIND_TEXT(st, 3, b->node);
    sqlite3_bind_int64(st, 4, b->raw_in);
    sqlite3_bind_int64(st, 5, b->raw_out);
    sqlite3_bind_int64(st, 6, b->clean_in);
    sqlite3_bind_int64(st, 7, b->clean_out);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    return sqlite3_changes(DB(s)->db) > 0;
}


int sq_tel_ingest(struct store *s, const struct tel_record *recs, size_t n, struct tel_ingest_result *out)
{
    memset(out, 0, sizeof *out);
    struct tel_pending *p = pending(s);
    int rc = p ? STORE_OK : STORE_ERROR;
    for (size_t i = 0; i < n && rc == STORE_OK; i++) {
        const struct tel_record *r = &recs[i];
        int added = -1;
        switch (r->kind) {
        case TEL_FLOW:
            added = insert_flow(s, r);
            if (added == 1 && tel_flow_sums_add(&p->flows, r->place.site_rid, &r->u.flow) != 0)
                added = -1;
            break;
        case TEL_DDOS_EVENT: added = upsert_ddos(s, r); break;
        case TEL_FLOW_DOWN: added = upsert_flow_down(s, r); break;
        case TEL_BANDWIDTH: added = upsert_bandwidth(s, r); break;
        case TEL_WAF_LOG: added = sq_tel_waf_add(s, &p->waf, r); break;
        }
        out->records++;
        if (added < 0)
            rc = STORE_ERROR;
        else if (added)
            out->stored++;
        else
            out->duplicates++;
    }
    if (rc == STORE_OK && tel_flow_sums_keys(&p->flows) > PENDING_MAX)
        rc = flush_pending(s); /* bounded memory for a transaction of any size */
    return rc;
}
