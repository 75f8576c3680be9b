/* sqlite_tel_ingest.c — telemetry writes on SQLite (store_ops.tel_ingest,
 * tel_purge). Flows new to the store are summed into the roll-ups in
 * memory, one upsert per key per call; WAF entries are grouped into events
 * by the quiet-gap rule (docs/telemetry.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "store/sqlite_db.h"

/* ---- flow roll-ups ---- */

struct minute_sum {
    int64_t site_rid, minute;
    uint8_t dst[TEL_ADDR_KEY];
    int action;
    char policy[33];
    int64_t bytes, packets, flows;
};

enum { DIM_APP = 1, DIM_AS = 2, DIM_COUNTRY = 3, DIM_DST = 4, DIM_PROTOCOL = 5, DIMS = 5 };

struct hour_sum {
    int64_t site_rid;
    int dim;
    int64_t hour;
    char key[NET_TEXT_MAX];
    int64_t bytes, packets, flows;
};

static int cmp_minute(const void *pa, const void *pb)
{
    const struct minute_sum *a = pa, *b = pb;
    if (a->site_rid != b->site_rid)
        return a->site_rid < b->site_rid ? -1 : 1;
    if (a->minute != b->minute)
        return a->minute < b->minute ? -1 : 1;
    int c = memcmp(a->dst, b->dst, TEL_ADDR_KEY);
    if (c)
        return c;
    if (a->action != b->action)
        return a->action - b->action;
    return strcmp(a->policy, b->policy);
}

static int cmp_hour(const void *pa, const void *pb)
{
    const struct hour_sum *a = pa, *b = pb;
    if (a->site_rid != b->site_rid)
        return a->site_rid < b->site_rid ? -1 : 1;
    if (a->dim != b->dim)
        return a->dim - b->dim;
    if (a->hour != b->hour)
        return a->hour < b->hour ? -1 : 1;
    return strcmp(a->key, b->key);
}

static void key_text(const uint8_t key[TEL_ADDR_KEY], char out[NET_TEXT_MAX])
{
    struct ip_addr a = {.family = key[0]};
    memcpy(a.b, key + 1, 16);
    ip_format(&a, out);
}

/* The roll-up rows one new flow adds to. */
static void add_sums(const struct tel_record *r, struct minute_sum *m, struct hour_sum *h)
{
    const struct tel_flow *f = &r->u.flow;
    *m = (struct minute_sum){.site_rid = r->place.site_rid, .minute = f->time - f->time % 60,
                             .action = f->action, .bytes = f->bytes, .packets = f->packets, .flows = 1};
    memcpy(m->dst, f->dst, TEL_ADDR_KEY);
    snprintf(m->policy, sizeof m->policy, "%s", f->policy);
    int64_t hour = f->time - f->time % 3600;
    for (int d = 0; d < DIMS; d++)
        h[d] = (struct hour_sum){.site_rid = r->place.site_rid, .dim = d + 1, .hour = hour, .bytes = f->bytes,
                                 .packets = f->packets, .flows = 1};
    snprintf(h[0].key, sizeof h[0].key, "%s", f->app);
    snprintf(h[1].key, sizeof h[1].key, "%lld", (long long)f->src_as);
    snprintf(h[2].key, sizeof h[2].key, "%s", f->country);
    char dst[NET_TEXT_MAX];
    key_text(f->dst, dst);
    snprintf(h[3].key, sizeof h[3].key, "%s", dst);
    snprintf(h[4].key, sizeof h[4].key, "%d", f->protocol);
}

/* Sums runs of equal keys of a sorted array in place; returns how many
 * distinct keys there are. */
#define SUM_RUNS(type, a, n, cmp)                                                                            \
    do {                                                                                                     \
        size_t out_ = 0;                                                                                     \
        for (size_t i_ = 0; i_ < (n);) {                                                                     \
            type sum_ = (a)[i_];                                                                             \
            size_t j_ = i_ + 1;                                                                              \
            for (; j_ < (n) && cmp(&(a)[j_], &sum_) == 0; j_++) {                                            \
                sum_.bytes += (a)[j_].bytes;                                                                 \
                sum_.packets += (a)[j_].packets;                                                             \
                sum_.flows += (a)[j_].flows;                                                                 \
            }                                                                                                \
            (a)[out_++] = sum_;                                                                              \
            i_ = j_;                                                                                         \
        }                                                                                                    \
        (n) = out_;                                                                                          \
    } while (0)

static void bind_sums(sqlite3_stmt *st, int first, int64_t bytes, int64_t packets, int64_t flows)
{
    sqlite3_bind_int64(st, first, bytes);
    sqlite3_bind_int64(st, first + 1, packets);
    sqlite3_bind_int64(st, first + 2, flows);
}

#define ADD_SUMS " ON CONFLICT DO UPDATE SET bytes = bytes + excluded.bytes, packets = packets + excluded.packets, " \
                 "flows = flows + excluded.flows"

/* Per minute and destination (tel_flow_minutes), then per minute without
 * it (tel_site_minutes: the sums of a whole site). m is reordered. */
static int upsert_minutes(struct store *s, struct minute_sum *m, size_t n)
{
    static const char sql[] = "INSERT INTO tel_flow_minutes (site_rid, minute, dst, action, policy, bytes, packets, "
                              "flows) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)" ADD_SUMS;
    static const char site_sql[] = "INSERT INTO tel_site_minutes (site_rid, minute, action, policy, bytes, packets, "
                                   "flows) VALUES (?1, ?2, ?4, ?5, ?6, ?7, ?8)" ADD_SUMS;
    for (int level = 0; level < 2; level++) {
        if (level == 1)
            for (size_t i = 0; i < n; i++)
                memset(m[i].dst, 0, TEL_ADDR_KEY); /* the site level: every destination alike */
        qsort(m, n, sizeof *m, cmp_minute);
        SUM_RUNS(struct minute_sum, m, n, cmp_minute);
        for (size_t i = 0; i < n; i++) {
            sqlite3_stmt *st = db_stmt(s, level ? site_sql : sql);
            if (!st)
                return STORE_ERROR;
            sqlite3_bind_int64(st, 1, m[i].site_rid);
            sqlite3_bind_int64(st, 2, m[i].minute);
            if (!level)
                sqlite3_bind_blob(st, 3, m[i].dst, TEL_ADDR_KEY, SQLITE_STATIC);
            sqlite3_bind_int(st, 4, m[i].action);
            BIND_TEXT(st, 5, m[i].policy);
            bind_sums(st, 6, m[i].bytes, m[i].packets, m[i].flows);
            if (db_exec_stmt(s, st) != STORE_OK)
                return STORE_ERROR;
        }
    }
    return STORE_OK;
}

/* Per hour (tel_flow_hours), then per day (tel_flow_days). h is reordered. */
static int upsert_hours(struct store *s, struct hour_sum *h, size_t n)
{
    static const char sql[] = "INSERT INTO tel_flow_hours (site_rid, dim, hour, key, bytes, packets, flows) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)" ADD_SUMS;
    static const char day_sql[] = "INSERT INTO tel_flow_days (site_rid, dim, day, key, bytes, packets, flows) "
                                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)" ADD_SUMS;
    for (int level = 0; level < 2; level++) {
        if (level == 1)
            for (size_t i = 0; i < n; i++)
                h[i].hour -= h[i].hour % 86400; /* the day's start */
        qsort(h, n, sizeof *h, cmp_hour);
        SUM_RUNS(struct hour_sum, h, n, cmp_hour);
        for (size_t i = 0; i < n; i++) {
            sqlite3_stmt *st = db_stmt(s, level ? day_sql : sql);
            if (!st)
                return STORE_ERROR;
            sqlite3_bind_int64(st, 1, h[i].site_rid);
            sqlite3_bind_int(st, 2, h[i].dim);
            sqlite3_bind_int64(st, 3, h[i].hour);
            BIND_TEXT(st, 4, h[i].key);
            bind_sums(st, 5, h[i].bytes, h[i].packets, h[i].flows);
            if (db_exec_stmt(s, st) != STORE_OK)
                return STORE_ERROR;
        }
    }
    return STORE_OK;
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

int sq_tel_waf_add(struct store *s, const struct tel_record *r); /* sqlite_tel_waf.c */

int sq_tel_ingest(struct store *s, const struct tel_record *recs, size_t n, struct tel_ingest_result *out)
{
    memset(out, 0, sizeof *out);
    struct minute_sum *minutes = malloc((n ? n : 1) * sizeof *minutes);
    struct hour_sum *hours = malloc((n ? n : 1) * DIMS * sizeof *hours);
    size_t nm = 0;
    int rc = minutes && hours ? STORE_OK : STORE_ERROR;
    for (size_t i = 0; i < n && rc == STORE_OK; i++) {
        const struct tel_record *r = &recs[i];
        int added = -1;
        switch (r->kind) {
        case TEL_FLOW:
            added = insert_flow(s, r);
            if (added == 1) {
                add_sums(r, &minutes[nm], &hours[nm * DIMS]);
                nm++;
            }
            break;
        case TEL_DDOS_EVENT: added = upsert_ddos(s, r); break;
        case TEL_FLOW_DOWN: added = upsert_flow_down(s, r); break;
        case TEL_BANDWIDTH: added = upsert_bandwidth(s, r); break;
        case TEL_WAF_LOG: added = sq_tel_waf_add(s, r); break;
        }
        out->records++;
        if (added < 0)
            rc = STORE_ERROR;
        else if (added)
            out->stored++;
        else
            out->duplicates++;
    }
    if (rc == STORE_OK && nm)
        rc = upsert_minutes(s, minutes, nm) == STORE_OK && upsert_hours(s, hours, nm * DIMS) == STORE_OK
                 ? STORE_OK
                 : STORE_ERROR;
    free(minutes);
    free(hours);
    return rc;
}
