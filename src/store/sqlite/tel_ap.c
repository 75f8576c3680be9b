/* sqlite/tel_ap.c — the reads of the Application Protection dashboards on
 * SQLite: WAF events of a site, one event's counts and log entries, and a
 * site's bandwidth per minute. Rows of deleted sites are never reached: an
 * event is found only with its site (resources). */
#include <stdlib.h>
#include <string.h>

#include "store/sqlite/db.h"

/* ?1 customer, ?2 site rid, ?3 from, ?4 to: the events overlapping [from, to]. */
#define WAF_EVENTS_WHERE                                                                                     \
    " FROM tel_waf_events WHERE site_rid = ?2 AND customer_id = ?1 AND start_time <= ?4 AND end_time >= ?3"

static void bind_waf_events(sqlite3_stmt *st, const struct tel_waf_event_query *q)
{
    BIND_TEXT(st, 1, q->customer_id);
    sqlite3_bind_int64(st, 2, q->site_rid);
    sqlite3_bind_int64(st, 3, q->from);
    sqlite3_bind_int64(st, 4, q->to);
}

int sq_tel_waf_events_list(struct store *s, const struct tel_waf_event_query *q, json_t **rows, long *total)
{
    static const char count_sql[] = "SELECT count(*)" WAF_EVENTS_WHERE;
    static const char list_sql[] =
        "SELECT weid, event_id, site_rid, domain_name, domain_port_id, start_time, end_time, attack_count, "
        "severity" WAF_EVENTS_WHERE " ORDER BY start_time DESC, event_id LIMIT ?5 OFFSET ?6";
    *rows = NULL;
    sqlite3_stmt *st = db_stmt(s, count_sql);
    if (!st)
        return STORE_ERROR;
    bind_waf_events(st, q);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        return db_log_error(s, "waf event count");
    }
    *total = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (!(st = db_stmt(s, list_sql)))
        return STORE_ERROR;
    bind_waf_events(st, q);
    sqlite3_bind_int64(st, 5, q->limit);
    sqlite3_bind_int64(st, 6, q->offset);
    return db_rows_json(s, st, rows);
}

int sq_tel_waf_event_get(struct store *s, const char *event_id, struct tel_waf_event_ref *out)
{
    static const char sql[] =
        "SELECT e.weid, e.site_rid, e.event_id, e.customer_id, e.start_time, e.end_time FROM tel_waf_events e "
        "JOIN resources r ON r.rid = e.site_rid WHERE e.event_id = ?1";
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, event_id);
    int rc = db_row_result(s, sqlite3_step(st), "tel_waf_event_get");
    if (rc == STORE_OK) {
        out->weid = sqlite3_column_int64(st, 0);
        out->site_rid = sqlite3_column_int64(st, 1);
        db_col_text(st, 2, out->event_id, sizeof out->event_id);
        db_col_text(st, 3, out->customer_id, sizeof out->customer_id);
        out->start_time = sqlite3_column_int64(st, 4);
        out->end_time = sqlite3_column_int64(st, 5);
    }
    sqlite3_reset(st);
    return rc;
}

int sq_tel_waf_event_counts(struct store *s, int64_t weid, int dim, long limit, json_t **rows, int64_t *all)
{
    static const char sum_sql[] = "SELECT coalesce(sum(count), 0) FROM tel_waf_event_counts WHERE weid = ?1 AND dim = ?2";
    static const char top_sql[] = "SELECT key, count FROM tel_waf_event_counts WHERE weid = ?1 AND dim = ?2 "
                                  "ORDER BY count DESC, key LIMIT ?3";
    *rows = NULL;
    sqlite3_stmt *st = db_stmt(s, sum_sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int(st, 2, dim);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        return db_log_error(s, "waf event counts");
    }
    *all = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (!(st = db_stmt(s, top_sql)))
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int(st, 2, dim);
    sqlite3_bind_int64(st, 3, limit);
    return db_rows_json(s, st, rows);
}

int sq_tel_waf_top_source(struct store *s, int64_t weid, const char *country, char ip[64])
{
    static const char sql[] = "SELECT substr(key, 3) FROM tel_waf_event_counts WHERE weid = ?1 AND dim = ?3 "
                              "AND substr(key, 1, 2) = ?2 ORDER BY count DESC, key LIMIT 1";
    ip[0] = '\0';
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    BIND_TEXT(st, 2, country);
    sqlite3_bind_int(st, 3, TEL_WAF_COUNTRY_SOURCE);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        db_col_text(st, 0, ip, 64);
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? STORE_OK : db_log_error(s, "waf top source");
}

/* Appends the entry texts of a statement's first column to an array. */
static int entries_json(struct store *s, sqlite3_stmt *st, json_t **out)
{
    *out = json_array();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *entry = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
        if (entry)
            json_array_append_new(*out, entry);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        json_decref(*out);
        *out = NULL;
        return db_log_error(s, "waf logs");
    }
    return STORE_OK;
}

int sq_tel_waf_logs_list(struct store *s, int64_t weid, int64_t from, int64_t to, long offset, long limit,
                         json_t **entries, long *total)
{
    static const char count_sql[] = "SELECT count(*) FROM tel_waf_logs WHERE weid = ?1 AND ts BETWEEN ?2 AND ?3";
    static const char list_sql[] = "SELECT entry FROM tel_waf_logs WHERE weid = ?1 AND ts BETWEEN ?2 AND ?3 "
                                   "ORDER BY ts, lid LIMIT ?4 OFFSET ?5";
    *entries = NULL;
    sqlite3_stmt *st = db_stmt(s, count_sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        return db_log_error(s, "waf log count");
    }
    *total = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (!(st = db_stmt(s, list_sql)))
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    sqlite3_bind_int64(st, 4, limit);
    sqlite3_bind_int64(st, 5, offset);
    return entries_json(s, st, entries);
}

int sq_tel_waf_logs_each(struct store *s, int64_t weid, long limit, tel_waf_entry_fn fn, void *arg)
{
    static const char sql[] = "SELECT entry FROM tel_waf_logs WHERE weid = ?1 ORDER BY ts, lid LIMIT ?2";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int64(st, 2, limit);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (fn(arg, (const char *)sqlite3_column_text(st, 0)) != 0)
            break;
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? STORE_OK : db_log_error(s, "waf logs");
}

int sq_tel_bandwidth_minutes(struct store *s, int64_t site_rid, int64_t from, int64_t to, struct tel_bw_minute **out,
                             size_t *n)
{
    /* The nodes of a minute are summed here: the rows come in key order
     * (site, minute, node), and SQLite's aggregates cost more than the read
     * (a month: 43,000 rows). */
    static const char sql[] = "SELECT minute, raw_in, raw_out, clean_in, clean_out FROM tel_bandwidth "
                              "WHERE site_rid = ?1 AND minute >= ?2 AND minute < ?3 ORDER BY minute";
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, site_rid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t minute = sqlite3_column_int64(st, 0);
        if (*n && (*out)[*n - 1].minute == minute) {
            struct tel_bw_minute *m = &(*out)[*n - 1];
            m->raw_in += sqlite3_column_int64(st, 1);
            m->raw_out += sqlite3_column_int64(st, 2);
            m->clean_in += sqlite3_column_int64(st, 3);
            m->clean_out += sqlite3_column_int64(st, 4);
            continue;
        }
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            struct tel_bw_minute *grown = realloc(*out, cap * sizeof *grown);
            if (!grown) {
                rc = SQLITE_NOMEM;
                break;
            }
            *out = grown;
        }
        struct tel_bw_minute *m = &(*out)[(*n)++];
        m->minute = minute;
        m->raw_in = sqlite3_column_int64(st, 1);
        m->raw_out = sqlite3_column_int64(st, 2);
        m->clean_in = sqlite3_column_int64(st, 3);
        m->clean_out = sqlite3_column_int64(st, 4);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return db_log_error(s, "bandwidth minutes");
    }
    return STORE_OK;
}
