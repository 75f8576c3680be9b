/* sqlite/tel_op.c — the reads of the Origin Protection and CleanPipe
 * dashboards on SQLite: DDoS event lists, flow-down events, a site's traffic
 * volume from the per-minute roll-up. */
#include <stdio.h>
#include <string.h>

#include "store/sqlite/db.h"
#include "store/tel_cells.h"
#include "store/tel_patterns.h"
#include "store/tel_top.h"
#include "store/tel_sums.h"
#include "store/tel_vector.h"

/* The events of a query: ?1 customer, ?2 family, ?3 JSON array of site rids
 * or NULL, ?4 from, ?5 to, ?6 status, ?7 alert_id, ?8 site_ip, ?11 attack_type. */
#define EVENTS_WHERE                                                                                         \
    " FROM tel_ddos_events e WHERE customer_id = ?1 AND family = ?2 "                                          \
    "AND (?3 IS NULL OR site_rid IN (SELECT value FROM json_each(?3))) "                                     \
    "AND start_time <= ?5 AND (end_time IS NULL OR end_time >= ?4) "                                         \
    "AND (?6 = 2 OR (?6 = 1) = (end_time IS NULL)) AND (?7 IS NULL OR alert_id = ?7) "                       \
    "AND (?8 IS NULL OR site_ip = ?8) AND (?11 IS NULL OR attack_type = ?11)"

/* An event's answered peak: the recorded one, or the highest one-minute
 * rate of the flows toward its range during the event (its start's minute
 * to its end's, or now's), whichever is larger; so the detail's traffic
 * series and the lists agree (docs/decisions.md, "Dashboards"). */
#define EV_PEAK(col, what, times)                                                                            \
    "max(e." col ", coalesce((SELECT max(tel_cells_sum(m.cells, e.ip_lo, e.ip_hi, " what ")) FROM "          \
    "tel_dst_minutes m WHERE m.site_rid = e.site_rid AND m.minute >= e.start_time - e.start_time % 60 AND "   \
    "m.minute <= coalesce(e.end_time, CAST(strftime('%s', 'now') AS INTEGER))), 0) " times " / 60)"

static void bind_events(sqlite3_stmt *st, const struct tel_event_query *q, char *sites)
{
    BIND_TEXT(st, 1, q->customer_id);
    BIND_TEXT(st, 2, q->family);
    if (sites)
        BIND_TEXT(st, 3, sites);
    else
        sqlite3_bind_null(st, 3);
    sqlite3_bind_int64(st, 4, q->from);
    sqlite3_bind_int64(st, 5, q->to);
    sqlite3_bind_int(st, 6, (int)q->status);
    if (q->alert_id)
        BIND_TEXT(st, 7, q->alert_id);
    else
        sqlite3_bind_null(st, 7);
    if (q->site_ip)
        BIND_TEXT(st, 8, q->site_ip);
    else
        sqlite3_bind_null(st, 8);
    if (q->attack_type)
        BIND_TEXT(st, 11, q->attack_type);
    else
        sqlite3_bind_null(st, 11);
}

int sq_tel_events_list(struct store *s, const struct tel_event_query *q, json_t **rows, long *total)
{
    static const char count_sql[] = "SELECT count(*)" EVENTS_WHERE;
    static const char list_sql[] =
        "SELECT alert_id, attack_type, start_time, end_time, " EV_PEAK("max_bps", "0", "* 8") " AS max_bps, "
        EV_PEAK("max_pps", "1", "") " AS max_pps, severity, site_ip, profile_name, profile_desc, p_type, site_rid, "
        "holder_rid" EVENTS_WHERE " ORDER BY start_time DESC, alert_id LIMIT ?9 OFFSET ?10";
    *rows = NULL;
    char *sites = NULL;
    if (q->site_rids) {
        json_t *a = json_array();
        for (size_t i = 0; i < q->n_sites; i++)
            json_array_append_new(a, json_integer(q->site_rids[i]));
        sites = json_dumps(a, JSON_COMPACT);
        json_decref(a);
        if (!sites)
            return STORE_ERROR;
    }
    sqlite3_stmt *st = db_stmt(s, count_sql);
    int rc = STORE_ERROR;
    if (st) {
        bind_events(st, q, sites);
        if (sqlite3_step(st) == SQLITE_ROW) {
            *total = sqlite3_column_int64(st, 0);
            rc = STORE_OK;
        } else {
            rc = db_log_error(s, "ddos event count");
        }
        sqlite3_reset(st);
    }
    if (rc == STORE_OK && (st = db_stmt(s, list_sql))) {
        bind_events(st, q, sites);
        sqlite3_bind_int64(st, 9, q->limit);
        sqlite3_bind_int64(st, 10, q->offset);
        rc = db_rows_json(s, st, rows);
    } else if (rc == STORE_OK) {
        rc = STORE_ERROR;
    }
    free(sites);
    return rc;
}

int sq_tel_flow_downs_list(struct store *s, int64_t site_rid, int64_t from, int64_t to, enum tel_status status,
                           json_t **rows)
{
    static const char sql[] =
        "SELECT alert_id, router_name, start_time, end_time FROM tel_flow_downs WHERE site_rid = ?1 "
        "AND start_time <= ?3 AND (end_time IS NULL OR end_time >= ?2) "
        "AND (?4 = 2 OR (?4 = 1) = (end_time IS NULL)) ORDER BY start_time DESC, alert_id";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, site_rid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    sqlite3_bind_int(st, 4, (int)status);
    return db_rows_json(s, st, rows);
}

/* Host events first, while the network event still says which they are. */
int sq_tel_event_stop(struct store *s, const char *alert_id, bool hosts_too, int64_t now, long *stopped)
{
    static const char hosts_sql[] =
        "UPDATE tel_ddos_events SET end_time = ?2, stopped_by = 'api' WHERE end_time IS NULL "
        "AND holder_kind = 'cp.host' AND EXISTS (SELECT 1 FROM tel_ddos_events n WHERE n.alert_id = ?1 "
        "AND n.end_time IS NULL AND n.site_rid = tel_ddos_events.site_rid AND n.ip_lo <= tel_ddos_events.ip_lo "
        "AND tel_ddos_events.ip_hi <= n.ip_hi AND n.alert_id <> tel_ddos_events.alert_id)";
    static const char event_sql[] =
        "UPDATE tel_ddos_events SET end_time = ?2, stopped_by = 'api' WHERE end_time IS NULL AND alert_id = ?1";
    *stopped = 0;
    for (int pass = hosts_too ? 0 : 1; pass < 2; pass++) {
        sqlite3_stmt *st = db_stmt(s, pass == 0 ? hosts_sql : event_sql);
        if (!st)
            return STORE_ERROR;
        BIND_TEXT(st, 1, alert_id);
        sqlite3_bind_int64(st, 2, now);
        if (db_exec_stmt(s, st) != STORE_OK)
            return STORE_ERROR;
        *stopped += sqlite3_changes(DB(s)->db);
    }
    return STORE_OK;
}

int sq_tel_site_volume(struct store *s, int64_t site_rid, int64_t from, int64_t to, int64_t *bytes,
                       int64_t *packets)
{
    static const char sql[] = "SELECT hour, mins FROM tel_site_hours WHERE site_rid = ?1 AND hour > ?2 - 3600 "
                              "AND hour < ?3";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, site_rid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    *bytes = *packets = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const uint8_t *mins = sqlite3_column_blob(st, 1);
        if (!tel_vec_valid((size_t)sqlite3_column_bytes(st, 1)))
            break;
        tel_vec_sum(mins, sqlite3_column_int64(st, 0), from, to, bytes, packets);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? STORE_OK : db_log_error(s, "site volume");
}

/* ---- one event, and the flows toward an event or a site (store/telemetry_op.h) ---- */

int sq_tel_op_event_get(struct store *s, const char *family, const char *alert_id, struct tel_event_ref *out)
{
    static const char sql[] =
        "SELECT e.eid, e.site_rid, e.alert_id, e.customer_id, s.kind, e.holder_kind, e.start_time, "
        "coalesce(e.end_time, 0), e.ip_lo, e.ip_hi FROM tel_ddos_events e JOIN resources s ON s.rid = "
        "e.site_rid WHERE e.alert_id = ?1 AND e.family = ?2";
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, alert_id);
    BIND_TEXT(st, 2, family);
    int rc = db_row_result(s, sqlite3_step(st), "tel_op_event_get");
    if (rc == STORE_OK) {
        out->eid = sqlite3_column_int64(st, 0);
        out->site_rid = sqlite3_column_int64(st, 1);
        db_col_text(st, 2, out->alert_id, sizeof out->alert_id);
        db_col_text(st, 3, out->customer_id, sizeof out->customer_id);
        db_col_text(st, 4, out->site_kind, sizeof out->site_kind);
        db_col_text(st, 5, out->holder_kind, sizeof out->holder_kind);
        out->start_time = sqlite3_column_int64(st, 6);
        out->end_time = sqlite3_column_int64(st, 7);
        if (sqlite3_column_bytes(st, 8) == TEL_ADDR_KEY && sqlite3_column_bytes(st, 9) == TEL_ADDR_KEY) {
            memcpy(out->range.lo, sqlite3_column_blob(st, 8), TEL_ADDR_KEY);
            memcpy(out->range.hi, sqlite3_column_blob(st, 9), TEL_ADDR_KEY);
        } else {
            rc = STORE_ERROR;
        }
    }
    sqlite3_reset(st);
    return rc;
}

/* ---- flows: per-minute sums ---- */

/* The rows are summed here rather than by GROUP BY: they come in key order
 * (site, minute, ...), and SQLite would sort them all into a temporary
 * B-tree first (a month of six sites: 180 ms of the 200). Without a
 * destination range the site-level roll-up answers (no row per address). */
#define MINUTES_SQL(sites)                                                                                   \
    "SELECT m.minute, m.cells FROM tel_dst_minutes m WHERE " sites " AND m.minute >= ?2 AND m.minute < ?3 "  \
    "AND ?4 IS NOT NULL AND ?5 IS NOT NULL"
#define SITE_HOURS_SQL(sites)                                                                                \
    "SELECT m.hour, m.action, m.mins, m.policy = '" TEL_POLICY_OBSERVED "' FROM tel_site_hours m WHERE " sites \
    " AND m.hour > ?2 - 3600 AND m.hour < ?3 AND (?6 IS NULL OR m.policy = ?6) AND ?4 IS NULL"
#define ONE_SITE      "m.site_rid = ?1"
#define CUSTOMER_SITES "m.site_rid IN (SELECT rid FROM resources WHERE customer_id = ?7 AND kind = ?8)"

/* Longer windows are cut (the sums are dense, a slot a minute: 5.8 MB at
 * most); retention keeps 35 days by default. */
enum { MINUTES_MAX_SPAN = 100 * 86400 };

/* Adds the row of st (MINUTES_SQL or SITE_HOURS_SQL) to the slots, and to
 * obs (when not NULL) what it holds of the observations. */
static int add_minutes_row(sqlite3_stmt *st, const struct tel_minutes_query *q, struct tel_minute *slots,
                           struct tel_minute *obs, int64_t first, int64_t to)
{
    int col = q->range ? 1 : 2;
    struct tel_minutes_row row = {sqlite3_column_int64(st, 0), sqlite3_column_blob(st, col),
                                  (size_t)sqlite3_column_bytes(st, col), 0, false};
    if (!q->range) {
        row.action = sqlite3_column_int(st, 1);
        row.observed = sqlite3_column_int(st, 3) != 0;
    }
    return tel_minutes_add_row(q, &row, slots, obs, first, to);
}

int sq_tel_op_minutes(struct store *s, const struct tel_minutes_query *q, struct tel_minute **out, size_t *n,
                      struct tel_minute **observed, size_t *n_observed)
{
    static const char *const sql[2][2] = {{SITE_HOURS_SQL(ONE_SITE), SITE_HOURS_SQL(CUSTOMER_SITES)},
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
    size_t nslots = (size_t)((to - first + 59) / 60);
    struct tel_minute *slots = calloc(nslots, sizeof *slots);
    struct tel_minute *obs = obs_too ? calloc(nslots, sizeof *obs) : NULL;
    sqlite3_stmt *st = slots && (obs || !obs_too) ? db_stmt(s, sql[q->range != NULL][q->site_rid == 0]) : NULL;
    if (!st) {
        free(slots);
        free(obs);
        return STORE_ERROR;
    }
    sqlite3_bind_int64(st, 1, q->site_rid);
    sqlite3_bind_int64(st, 2, q->from);
    sqlite3_bind_int64(st, 3, to);
    if (q->range) {
        sqlite3_bind_blob(st, 4, q->range->lo, TEL_ADDR_KEY, SQLITE_STATIC);
        sqlite3_bind_blob(st, 5, q->range->hi, TEL_ADDR_KEY, SQLITE_STATIC);
    }
    if (q->policy)
        BIND_TEXT(st, 6, q->policy);
    if (!q->site_rid) {
        BIND_TEXT(st, 7, q->customer_id ? q->customer_id : "");
        BIND_TEXT(st, 8, q->site_kind ? q->site_kind : "");
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (add_minutes_row(st, q, slots, obs, first, to) != 0) {
            rc = SQLITE_CORRUPT;
            break;
        }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        free(slots);
        free(obs);
        return db_log_error(s, "tel_op_minutes");
    }
    tel_minutes_compact(slots, nslots, out, n);
    if (obs_too)
        tel_minutes_compact(obs, nslots, observed, n_observed);
    return STORE_OK;
}

/* ---- flows: top keys ---- */

/* Not a counter (tel_flow_is_counter): an observation, or a source named. */
#define NOT_COUNTER                                                                                          \
    " AND (f.policy = '" TEL_POLICY_OBSERVED "' OR f.src NOT IN (x'0400000000000000000000000000000000', "     \
    "x'0600000000000000000000000000000000'))"
/* The flows of raw top lists: every key column (dimension d at column
 * d - 1), the source country again, the counts (summed in C:
 * store/tel_top.h). */
#define TOPS_FLOWS_SQL                                                                                       \
    "SELECT f.app, f.src_as, f.country, f.dst, f.protocol, f.src, f.src_port, f.dst_port, f.country, "         \
    "f.bytes, f.packets FROM tel_flows f WHERE f.site_rid = ?1 AND f.ts >= ?2 AND f.ts < ?3 AND (?4 IS NULL "  \
    "OR f.dst BETWEEN ?4 AND ?5)" NOT_COUNTER
enum { TOPS_COUNTRY = 8, TOPS_BYTES = 9, TOPS_PACKETS = 10 };
/* The roll-up rows of [?2, ?3): whole days [?9, ?10) from tel_flow_days,
 * the hours before and after them from tel_flow_hours (a month: about 30
 * rows a key instead of 720). */
#define HOURLY_ROWS                                                                                          \
    "(SELECT key, bytes, packets, flows FROM tel_flow_hours WHERE site_rid = ?1 AND dim = ?8 AND hour >= ?2 "  \
    "AND hour < ?9 UNION ALL SELECT key, bytes, packets, flows FROM tel_flow_days WHERE site_rid = ?1 AND "     \
    "dim = ?8 AND day >= ?9 AND day < ?10 UNION ALL SELECT key, bytes, packets, flows FROM tel_flow_hours "    \
    "WHERE site_rid = ?1 AND dim = ?8 AND hour >= ?10 AND hour < ?3) h"
/* The roll-up rows are summed per key in C (top_hours): SQLite would sort
 * them all into a temporary B-tree, twice (a month of a site's
 * destinations: 50,000 rows, 56 ms). */
#define HOURS_ROWS_SQL "SELECT h.key, h.bytes, h.packets, h.flows FROM " HOURLY_ROWS
/* The same window by destination: the cells of tel_dst_days and
 * tel_dst_hours (?4 to ?8 unused). */
#define DST_ROWS_SQL                                                                                         \
    "SELECT cells FROM tel_dst_hours WHERE site_rid = ?1 AND hour >= ?2 AND hour < ?9 UNION ALL SELECT cells " \
    "FROM tel_dst_days WHERE site_rid = ?1 AND day >= ?9 AND day < ?10 UNION ALL SELECT cells FROM "          \
    "tel_dst_hours WHERE site_rid = ?1 AND hour >= ?10 AND hour < ?3"

static const char hours_rows_sql[] = HOURS_ROWS_SQL;
static const char dst_rows_sql[] = DST_ROWS_SQL;

static void bind_top(sqlite3_stmt *st, const struct tel_top_query *q)
{
    sqlite3_bind_int64(st, 1, q->site_rid);
    sqlite3_bind_int64(st, 2, q->from);
    sqlite3_bind_int64(st, 3, q->to);
    if (q->range && !q->hourly) {
        sqlite3_bind_blob(st, 4, q->range->lo, TEL_ADDR_KEY, SQLITE_STATIC);
        sqlite3_bind_blob(st, 5, q->range->hi, TEL_ADDR_KEY, SQLITE_STATIC);
    }
    sqlite3_bind_int(st, 6, q->by_packets);
    sqlite3_bind_int64(st, 7, q->limit);
    if (q->hourly) {
        int64_t day_from = q->from + (86400 - q->from % 86400) % 86400, day_to = q->to - q->to % 86400;
        if (day_from >= day_to)
            day_from = day_to = q->to; /* no whole day: hours only */
        sqlite3_bind_int(st, 8, q->dim);
        sqlite3_bind_int64(st, 9, day_from);
        sqlite3_bind_int64(st, 10, day_to);
    }
}

struct key_item {
    char key[sizeof ((struct tel_top_row *)0)->key];
    struct tel_counts c;
};

static int by_size_then_key(const void *pa, const void *pb, void *by_packets)
{
    const struct key_item *a = pa, *b = pb;
    bool packets = *(const bool *)by_packets;
    int64_t x = packets ? a->c.packets : a->c.bytes, y = packets ? b->c.packets : b->c.bytes;
    if (x != y)
        return x > y ? -1 : 1;
    return strcmp(a->key, b->key);
}

/* The hourly path of sq_tel_op_top by destination: the cells of the
 * window's rows summed per destination, then ranked. */
static int top_dst_hours(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                         struct tel_top_row *all)
{
    sqlite3_stmt *st = db_stmt(s, dst_rows_sql);
    if (!st)
        return STORE_ERROR;
    bind_top(st, q);
    struct tel_sums m;
    tel_cells_by_dst_init(&m);
    int rc, failed = 0;
    while (!failed && (rc = sqlite3_step(st)) == SQLITE_ROW)
        failed = tel_cells_by_dst(&m, sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0));
    sqlite3_reset(st);
    if (!failed && rc != SQLITE_DONE) {
        tel_sums_free(&m);
        return db_log_error(s, "tel_op_top");
    }
    failed = failed || tel_cells_top(&m, q->by_packets, q->limit, out, n, all) != 0;
    tel_sums_free(&m);
    return failed ? STORE_ERROR : STORE_OK;
}

/* The hourly path of sq_tel_op_top: every roll-up row of the window summed
 * per key here, then the largest `limit` (ties by key, as ORDER BY ... 1). */
static int top_hours(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                     struct tel_top_row *all)
{
    sqlite3_stmt *st = db_stmt(s, hours_rows_sql);
    if (!st)
        return STORE_ERROR;
    bind_top(st, q);
    struct tel_sums m;
    tel_sums_init(&m, sizeof(struct key_item), sizeof ((struct key_item *)0)->key);
    struct tel_counts total = {0};
    int rc, failed = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && !failed) {
        struct key_item it;
        memset(&it, 0, sizeof it);
        db_col_text(st, 0, it.key, sizeof it.key);
        it.c = (struct tel_counts){sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                                   sqlite3_column_int64(st, 3)};
        total.bytes += it.c.bytes;
        total.packets += it.c.packets;
        total.flows += it.c.flows;
        failed = tel_sums_add(&m, &it);
    }
    sqlite3_reset(st);
    if (failed || (rc != SQLITE_DONE && rc != SQLITE_ROW) || !(*out = calloc((size_t)q->limit, sizeof **out))) {
        tel_sums_free(&m);
        return failed ? STORE_ERROR : db_log_error(s, "tel_op_top");
    }
    bool by_packets = q->by_packets;
    qsort_r(m.items, m.n, m.item_size, by_size_then_key, &by_packets);
    for (size_t i = 0; i < m.n && *n < (size_t)q->limit; i++) {
        const struct key_item *it = tel_sums_item(&m, i);
        struct tel_top_row *row = &(*out)[(*n)++];
        snprintf(row->key, sizeof row->key, "%s", it->key);
        row->bytes = it->c.bytes;
        row->packets = it->c.packets;
        row->flows = it->c.flows;
    }
    if (all)
        *all = (struct tel_top_row){.bytes = total.bytes, .packets = total.packets, .flows = total.flows};
    tel_sums_free(&m);
    return STORE_OK;
}

/* One flow of TOPS_FLOWS_SQL into the sums of dimension dim. */
static int add_to_top(sqlite3_stmt *st, int dim, struct tel_top_sums *t)
{
    int col = dim - 1;
    enum tel_key_type type = tel_dim_key_type(dim);
    if (type == TEL_KEY_ADDR && sqlite3_column_bytes(st, col) != TEL_ADDR_KEY)
        return 0; /* not an address key (the ingest stores none) */
    /* only the accessor of the key's type: another one would convert the value */
    return tel_top_sums_add(t, type == TEL_KEY_INT ? sqlite3_column_int64(st, col) : 0,
                            type == TEL_KEY_ADDR ? sqlite3_column_blob(st, col) : NULL,
                            type == TEL_KEY_TEXT ? (const char *)sqlite3_column_text(st, col) : NULL,
                            (const char *)sqlite3_column_text(st, TOPS_COUNTRY), sqlite3_column_int64(st, TOPS_BYTES),
                            sqlite3_column_int64(st, TOPS_PACKETS));
}

/* The raw path of tel_op_tops: the window's flows read once, summed per key
 * of every dimension asked in C. */
static int tops_raw(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                    struct tel_top_row *all)
{
    struct tel_top_sums sums[TEL_DIM_DST_PORT + 1];
    bool used[TEL_DIM_DST_PORT + 1] = {false};
    for (size_t i = 0; i < n_lists; i++) {
        if (lists[i].dim < TEL_DIM_APP || lists[i].dim > TEL_DIM_DST_PORT || lists[i].limit <= 0)
            return STORE_ERROR;
        used[lists[i].dim] = true;
    }
    sqlite3_stmt *st = db_stmt(s, TOPS_FLOWS_SQL);
    if (!st)
        return STORE_ERROR;
    bind_top(st, q);
    for (int d = TEL_DIM_APP; d <= TEL_DIM_DST_PORT; d++)
        tel_top_sums_init(&sums[d], tel_dim_key_type(d));
    struct tel_counts total = {0};
    int rc = SQLITE_DONE, failed = 0;
    while (!failed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        total.bytes += sqlite3_column_int64(st, TOPS_BYTES);
        total.packets += sqlite3_column_int64(st, TOPS_PACKETS);
        total.flows++;
        for (int d = TEL_DIM_APP; d <= TEL_DIM_DST_PORT && !failed; d++)
            failed = used[d] && add_to_top(st, d, &sums[d]) != 0;
    }
    sqlite3_reset(st);
    if (!failed && rc != SQLITE_DONE)
        failed = db_log_error(s, "tel_op_tops") != STORE_OK;
    for (size_t i = 0; i < n_lists && !failed; i++)
        failed = tel_top_sums_result(&sums[lists[i].dim], lists[i].by_packets, lists[i].limit, &lists[i].rows,
                                     &lists[i].n, NULL) != 0;
    for (int d = TEL_DIM_APP; d <= TEL_DIM_DST_PORT; d++)
        tel_top_sums_free(&sums[d]);
    if (failed) {
        tel_tops_clear(lists, n_lists);
        return STORE_ERROR;
    }
    if (all)
        *all = (struct tel_top_row){.bytes = total.bytes, .packets = total.packets, .flows = total.flows};
    return STORE_OK;
}

int sq_tel_op_tops(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                   struct tel_top_row *all)
{
    return q->hourly ? tel_tops_each(s, q, lists, n_lists, all) : tops_raw(s, q, lists, n_lists, all);
}

int sq_tel_op_top(struct store *s, const struct tel_top_query *q, struct tel_top_row **out, size_t *n,
                  struct tel_top_row *all)
{
    *out = NULL;
    *n = 0;
    bool raw_dim = q->dim >= TEL_DIM_APP && q->dim <= TEL_DIM_DST_PORT;
    if (!raw_dim || (q->hourly && q->dim > TEL_DIM_PROTOCOL) || q->limit <= 0)
        return STORE_ERROR;
    if (q->hourly)
        return q->dim == TEL_DIM_DST ? top_dst_hours(s, q, out, n, all) : top_hours(s, q, out, n, all);
    struct tel_top_list one = {.dim = q->dim, .by_packets = q->by_packets, .limit = q->limit};
    int rc = tops_raw(s, q, &one, 1, all);
    *out = one.rows;
    *n = one.n;
    return rc;
}

/* ---- flows: traffic patterns ---- */

/* The flows of the window, summed into patterns in C (store/tel_patterns.h). */
#define PATTERN_FLOWS_SQL                                                                                    \
    "SELECT f.src, f.router, f.protocol, f.src_port, f.dst_port, f.src_as, f.ts, f.bytes, f.packets FROM "   \
    "tel_flows f WHERE f.site_rid = ?1 AND f.ts >= ?2 AND f.ts < ?3 AND (?4 IS NULL OR f.dst BETWEEN ?4 AND " \
    "?5)" NOT_COUNTER

int sq_tel_op_patterns(struct store *s, int64_t site_rid, const struct tel_range *range, int64_t from, int64_t to,
                       enum tel_pattern_order order, long limit, struct tel_pattern **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (limit <= 0)
        return STORE_OK;
    if ((unsigned)order > TEL_BY_PEAK_PACKETS)
        return STORE_ERROR;
    sqlite3_stmt *st = db_stmt(s, PATTERN_FLOWS_SQL);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, site_rid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    if (range) {
        sqlite3_bind_blob(st, 4, range->lo, TEL_ADDR_KEY, SQLITE_STATIC);
        sqlite3_bind_blob(st, 5, range->hi, TEL_ADDR_KEY, SQLITE_STATIC);
    }
    struct tel_pattern_sums sums;
    tel_pattern_sums_init(&sums);
    int rc = SQLITE_DONE, failed = 0;
    while (!failed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_bytes(st, 0) != TEL_ADDR_KEY)
            continue; /* not an address key: no pattern (the ingest stores none) */
        failed = tel_pattern_sums_add(&sums, sqlite3_column_blob(st, 0), (const char *)sqlite3_column_text(st, 1),
                                      sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
                                      sqlite3_column_int(st, 4), sqlite3_column_int64(st, 5),
                                      sqlite3_column_int64(st, 6), sqlite3_column_int64(st, 7),
                                      sqlite3_column_int64(st, 8));
    }
    sqlite3_reset(st);
    if (!failed && rc != SQLITE_DONE) {
        tel_pattern_sums_free(&sums);
        return db_log_error(s, "tel_op_patterns");
    }
    if (!failed)
        failed = tel_pattern_sums_result(&sums, order, limit, out, n);
    tel_pattern_sums_free(&sums);
    return failed ? STORE_ERROR : STORE_OK;
}
