/* sqlite/tel_purge.c — telemetry retention on SQLite: rows older than the
 * cut-off and rows of sites that no longer exist go, a bounded number per
 * call so that the caller can commit between calls and never hold the
 * writer for long.
 *
 * Every table is walked site by site along an index that starts with the
 * site (a seek to the next site_rid, then one range per site): a sweep that
 * finds nothing to delete costs a few index seeks per site. A single
 * `WHERE ts < ?1 OR site_rid NOT IN (...)` scanned every table whole, in a
 * write transaction, every five minutes: with gigabytes of flows the writer
 * was held for more than 5 s and writes answered 503 (bench/soak). */
#include "store/sqlite/db.h"

/* One table: seek answers the next site_rid above ?1 (NULL: none);
 * old deletes at most ?3 rows of site ?1 from before ?2, orphan at most ?3
 * rows of site ?1 (a site that no longer exists; ?2 unused). */
struct purge_step {
    const char *seek, *old, *orphan;
};

#define SEEK(t) "SELECT min(site_rid) FROM " t " WHERE site_rid > ?1"
#define BY_KEY(t, keys, where)                                                                               \
    "DELETE FROM " t " WHERE (" keys ") IN (SELECT " keys " FROM " t " WHERE site_rid = ?1" where " LIMIT ?3)" \
    " AND ?2 IS NOT NULL"
#define STEP(t, keys, old) {SEEK(t), BY_KEY(t, keys, " AND " old), BY_KEY(t, keys, "")}
/* The hourly and daily roll-ups by dimension: every dimension listed, so
 * that the time is a range of the key (site_rid, dim, hour, key). */
#define DIMS_IN " AND dim IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)"
/* WAF entries and counts go by the events of the site (their indexes start
 * with weid); an event goes with its last entry. */
#define WAF_EVENTS(where) "SELECT weid FROM tel_waf_events WHERE site_rid = ?1" where

static const struct purge_step steps[] = {
    STEP("tel_flows", "site_rid, ts, fid", "ts < ?2"),
    STEP("tel_dst_minutes", "site_rid, minute", "minute < ?2"),
    STEP("tel_dst_hours", "site_rid, hour", "hour < ?2 - 3600"),
    STEP("tel_dst_days", "site_rid, day", "day < ?2 - 86400"),
    {SEEK("tel_flow_hours"), BY_KEY("tel_flow_hours", "site_rid, dim, hour, key", DIMS_IN " AND hour < ?2 - 3600"),
     BY_KEY("tel_flow_hours", "site_rid, dim, hour, key", "")},
    STEP("tel_site_hours", "site_rid, hour, action, policy", "hour < ?2 - 3600"),
    {SEEK("tel_flow_days"), BY_KEY("tel_flow_days", "site_rid, dim, day, key", DIMS_IN " AND day < ?2 - 86400"),
     BY_KEY("tel_flow_days", "site_rid, dim, day, key", "")},
    STEP("tel_ddos_events", "eid", "end_time IS NOT NULL AND end_time < ?2"), /* an ongoing event stays */
    STEP("tel_flow_downs", "alert_id", "end_time IS NOT NULL AND end_time < ?2"),
    {SEEK("tel_waf_events"),
     "DELETE FROM tel_waf_logs WHERE lid IN (SELECT lid FROM tel_waf_logs WHERE weid IN (" WAF_EVENTS("")
     ") AND ts < ?2 LIMIT ?3)",
     "DELETE FROM tel_waf_logs WHERE lid IN (SELECT lid FROM tel_waf_logs WHERE weid IN (" WAF_EVENTS("")
     ") LIMIT ?3) AND ?2 IS NOT NULL"},
    {SEEK("tel_waf_events"),
     "DELETE FROM tel_waf_event_counts WHERE weid IN (" WAF_EVENTS(" AND end_time < ?2") " LIMIT ?3)",
     "DELETE FROM tel_waf_event_counts WHERE weid IN (" WAF_EVENTS("") " LIMIT ?3) AND ?2 IS NOT NULL"},
    STEP("tel_waf_events", "weid", "end_time < ?2"),
    STEP("tel_bandwidth", "site_rid, minute, node", "minute < ?2"),
};

static int site_exists(struct store *s, int64_t rid, bool *exists)
{
    sqlite3_stmt *st = db_stmt(s, "SELECT 1 FROM resources WHERE rid = ?1");
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = sqlite3_step(st);
    *exists = rc == SQLITE_ROW;
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? STORE_OK : db_log_error(s, "tel_purge");
}

/* The next site of the step's table above *rid: 1 found, 0 none. */
static int next_site(struct store *s, const struct purge_step *p, int64_t *rid)
{
    sqlite3_stmt *st = db_stmt(s, p->seek);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, *rid);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
        *rid = sqlite3_column_int64(st, 0);
        found = 1;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        db_log_error(s, "tel_purge");
        return -1;
    }
    return found;
}

static int purge_step(struct store *s, const struct purge_step *p, int64_t before, long max_rows, long *removed)
{
    int64_t rid = INT64_MIN;
    int found;
    while (*removed < max_rows && (found = next_site(s, p, &rid)) != 0) {
        bool exists;
        if (found < 0 || site_exists(s, rid, &exists) != STORE_OK)
            return STORE_ERROR;
        sqlite3_stmt *st = db_stmt(s, exists ? p->old : p->orphan);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, rid);
        sqlite3_bind_int64(st, 2, before);
        sqlite3_bind_int64(st, 3, max_rows - *removed);
        if (db_exec_stmt(s, st) != STORE_OK)
            return STORE_ERROR;
        *removed += sqlite3_changes(DB(s)->db);
    }
    return STORE_OK;
}

int sq_tel_purge(struct store *s, int64_t before, long max_rows, long *removed)
{
    *removed = 0;
    for (size_t i = 0; i < sizeof steps / sizeof *steps && *removed < max_rows; i++)
        if (purge_step(s, &steps[i], before, max_rows, removed) != STORE_OK)
            return STORE_ERROR;
    return STORE_OK;
}
