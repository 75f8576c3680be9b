/* sqlite/tel_waf.c — WAF log entries and their grouping into WAF events on
 * SQLite. The entries of one domain port belong to one event while they
 * come less than TEL_WAF_GAP_S apart: a new entry joins the event it is
 * that close to, starts one when there is none, and merges the events it
 * bridges (entries may arrive out of order). */
#include <stdio.h>
#include <string.h>

#include "base/crypto.h"
#include "store/sqlite/db.h"

enum { COUNT_TYPE = 1, COUNT_COUNTRY = 2, COUNT_URL = 3, MAX_MERGE = 64 };

static int exec_bind2(struct store *s, const char *sql, int64_t a, int64_t b)
{
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, a);
    sqlite3_bind_int64(st, 2, b);
    return db_exec_stmt(s, st);
}

/* Moves event `from` into `into`: its entries and counts, its span. */
static int merge_event(struct store *s, int64_t into, int64_t from)
{
    static const char logs[] = "UPDATE tel_waf_logs SET weid = ?1 WHERE weid = ?2";
    static const char counts[] =
        "INSERT INTO tel_waf_event_counts (weid, dim, key, count) SELECT ?1, dim, key, count "
        "FROM tel_waf_event_counts WHERE weid = ?2 AND true ON CONFLICT DO UPDATE SET count = count + excluded.count";
    static const char span[] =
        "UPDATE tel_waf_events SET start_time = min(start_time, (SELECT start_time FROM tel_waf_events WHERE weid = ?2)), "
        "end_time = max(end_time, (SELECT end_time FROM tel_waf_events WHERE weid = ?2)), "
        "attack_count = attack_count + (SELECT attack_count FROM tel_waf_events WHERE weid = ?2), "
        "severity = max(severity, (SELECT severity FROM tel_waf_events WHERE weid = ?2)) WHERE weid = ?1";
    static const char drop_counts[] = "DELETE FROM tel_waf_event_counts WHERE weid = ?2 AND ?1 IS NOT NULL";
    static const char drop_event[] = "DELETE FROM tel_waf_events WHERE weid = ?2 AND ?1 IS NOT NULL";
    const char *steps[] = {logs, counts, span, drop_counts, drop_event};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (exec_bind2(s, steps[i], into, from) != STORE_OK)
            return STORE_ERROR;
    return STORE_OK;
}

/* The event an entry at t of this port belongs to (merging the ones it
 * bridges), or a new one; its weid in *weid. */
static int event_for(struct store *s, const struct tel_record *r, int64_t *weid)
{
    static const char near_sql[] =
        "SELECT weid FROM tel_waf_events WHERE port_rid = ?1 AND end_time > ?2 - ?3 AND start_time < ?2 + ?3 "
        "ORDER BY end_time, weid";
    static const char new_sql[] =
        "INSERT INTO tel_waf_events (event_id, customer_id, site_rid, domain_rid, port_rid, domain_port_id, "
        "domain_name, start_time, end_time, attack_count, severity) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 0, 0)";
    const struct tel_waf_log *w = &r->u.waf;
    sqlite3_stmt *st = db_stmt(s, near_sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, w->port_rid);
    sqlite3_bind_int64(st, 2, w->timestamp);
    sqlite3_bind_int64(st, 3, TEL_WAF_GAP_S);
    int64_t found[MAX_MERGE];
    size_t n = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW && n < MAX_MERGE)
        found[n++] = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return db_log_error(s, "waf event lookup");
    if (n > 0) {
        *weid = found[0];
        for (size_t i = 1; i < n; i++)
            if (merge_event(s, found[0], found[i]) != STORE_OK)
                return STORE_ERROR;
        return STORE_OK;
    }
    char event_id[ID_LEN + 1];
    random_hex(event_id, ID_LEN / 2);
    if (!(st = db_stmt(s, new_sql)))
        return STORE_ERROR;
    BIND_TEXT(st, 1, event_id);
    BIND_TEXT(st, 2, r->place.customer_id);
    sqlite3_bind_int64(st, 3, r->place.site_rid);
    sqlite3_bind_int64(st, 4, w->domain_rid);
    sqlite3_bind_int64(st, 5, w->port_rid);
    BIND_TEXT(st, 6, w->domain_port_id);
    BIND_TEXT(st, 7, w->domain_name);
    sqlite3_bind_int64(st, 8, w->timestamp);
    if (db_exec_stmt(s, st) != STORE_OK)
        return STORE_ERROR;
    *weid = sqlite3_last_insert_rowid(DB(s)->db);
    return STORE_OK;
}

static int count_up(struct store *s, int64_t weid, int dim, const char *key)
{
    static const char sql[] = "INSERT INTO tel_waf_event_counts (weid, dim, key, count) VALUES (?1, ?2, ?3, 1) "
                              "ON CONFLICT DO UPDATE SET count = count + 1";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int(st, 2, dim);
    BIND_TEXT(st, 3, key);
    return db_exec_stmt(s, st);
}

/* 1 stored, 0 a duplicate (by _id), -1 failure. */
int sq_tel_waf_add(struct store *s, const struct tel_record *r)
{
    static const char known_sql[] = "SELECT 1 FROM tel_waf_logs WHERE log_id = ?1";
    static const char insert_sql[] =
        "INSERT INTO tel_waf_logs (log_id, weid, site_rid, ts, severity, attack_type, country, path, entry) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
    static const char event_sql[] =
        "UPDATE tel_waf_events SET start_time = min(start_time, ?2), end_time = max(end_time, ?2), "
        "attack_count = attack_count + 1, severity = max(severity, ?3) WHERE weid = ?1";
    const struct tel_waf_log *w = &r->u.waf;
    sqlite3_stmt *st = db_stmt(s, known_sql);
    if (!st)
        return -1;
    BIND_TEXT(st, 1, w->log_id);
    int known = db_row_result(s, sqlite3_step(st), "waf log lookup");
    sqlite3_reset(st);
    if (known == STORE_OK)
        return 0;
    int64_t weid;
    if (known != STORE_NOT_FOUND || event_for(s, r, &weid) != STORE_OK)
        return -1;
    if (!(st = db_stmt(s, insert_sql)))
        return -1;
    BIND_TEXT(st, 1, w->log_id);
    sqlite3_bind_int64(st, 2, weid);
    sqlite3_bind_int64(st, 3, r->place.site_rid);
    sqlite3_bind_int64(st, 4, w->timestamp);
    sqlite3_bind_int(st, 5, w->severity);
    BIND_TEXT(st, 6, w->attack_type);
    BIND_TEXT(st, 7, w->country);
    BIND_TEXT(st, 8, w->path ? w->path : "");
    BIND_TEXT(st, 9, w->entry);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    if (!(st = db_stmt(s, event_sql)))
        return -1;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int64(st, 2, w->timestamp);
    sqlite3_bind_int(st, 3, w->severity);
    if (db_exec_stmt(s, st) != STORE_OK || count_up(s, weid, COUNT_TYPE, w->attack_type) != STORE_OK ||
        count_up(s, weid, COUNT_COUNTRY, w->country) != STORE_OK ||
        count_up(s, weid, COUNT_URL, w->path ? w->path : "") != STORE_OK)
        return -1;
    return 1;
}
