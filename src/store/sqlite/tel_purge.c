/* sqlite/tel_purge.c — telemetry retention on SQLite: rows older than the
 * cut-off and rows of sites that no longer exist go, a bounded number per
 * call so that the caller can commit between calls and never hold the
 * writer for long. */
#include "store/sqlite/db.h"

/* Each statement deletes at most ?3 rows older than ?1 (or of a deleted
 * site; ?2 is unused but keeps the bindings alike). WAF events go with
 * their last entry. */
static const char *const purge_sql[] = {
    "DELETE FROM tel_flows WHERE (site_rid, ts, fid) IN (SELECT site_rid, ts, fid FROM tel_flows "
    "WHERE ts < ?1 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
    "DELETE FROM tel_dst_minutes WHERE (site_rid, minute) IN (SELECT site_rid, minute FROM tel_dst_minutes "
    "WHERE minute < ?1 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
    "DELETE FROM tel_dst_hours WHERE (site_rid, hour) IN (SELECT site_rid, hour FROM tel_dst_hours "
    "WHERE hour < ?1 - 3600 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
    "DELETE FROM tel_dst_days WHERE (site_rid, day) IN (SELECT site_rid, day FROM tel_dst_days "
    "WHERE day < ?1 - 86400 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
    "DELETE FROM tel_flow_hours WHERE (site_rid, dim, hour, key) IN (SELECT site_rid, dim, hour, key "
    "FROM tel_flow_hours WHERE hour < ?1 - 3600 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) "
    "AND ?2 IS NOT NULL",
    "DELETE FROM tel_site_hours WHERE (site_rid, hour, action, policy) IN (SELECT site_rid, hour, action, "
    "policy FROM tel_site_hours WHERE hour < ?1 - 3600 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) "
    "AND ?2 IS NOT NULL",
    "DELETE FROM tel_flow_days WHERE (site_rid, dim, day, key) IN (SELECT site_rid, dim, day, key "
    "FROM tel_flow_days WHERE day < ?1 - 86400 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) "
    "AND ?2 IS NOT NULL",
    "DELETE FROM tel_ddos_events WHERE eid IN (SELECT eid FROM tel_ddos_events WHERE coalesce(end_time, ?2) < ?1 "
    "OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3)",
    "DELETE FROM tel_flow_downs WHERE alert_id IN (SELECT alert_id FROM tel_flow_downs "
    "WHERE coalesce(end_time, ?2) < ?1 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3)",
    "DELETE FROM tel_waf_logs WHERE lid IN (SELECT lid FROM tel_waf_logs WHERE ts < ?1 "
    "OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
    "DELETE FROM tel_waf_event_counts WHERE weid IN (SELECT weid FROM tel_waf_events WHERE end_time < ?1 "
    "OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
    "DELETE FROM tel_waf_events WHERE weid IN (SELECT weid FROM tel_waf_events WHERE end_time < ?1 "
    "OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
    "DELETE FROM tel_bandwidth WHERE (site_rid, minute, node) IN (SELECT site_rid, minute, node FROM tel_bandwidth "
    "WHERE minute < ?1 OR site_rid NOT IN (SELECT rid FROM resources) LIMIT ?3) AND ?2 IS NOT NULL",
};

int sq_tel_purge(struct store *s, int64_t before, long max_rows, long *removed)
{
    *removed = 0;
    for (size_t i = 0; i < sizeof purge_sql / sizeof *purge_sql && *removed < max_rows; i++) {
        sqlite3_stmt *st = db_stmt(s, purge_sql[i]);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, before);
        sqlite3_bind_int64(st, 2, INT64_MAX); /* an ongoing event never ends before the cut-off */
        sqlite3_bind_int64(st, 3, max_rows - *removed);
        if (db_exec_stmt(s, st) != STORE_OK)
            return STORE_ERROR;
        *removed += sqlite3_changes(DB(s)->db);
    }
    return STORE_OK;
}
