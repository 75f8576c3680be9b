/* sqlite_tel_op.c — the reads of the Origin Protection and CleanPipe
 * dashboards on SQLite: DDoS event lists, flow-down events, a site's traffic
 * volume from the per-minute roll-up. */
#include <stdio.h>
#include <string.h>

#include "store/sqlite_db.h"

/* The events of a query: ?1 customer, ?2 family, ?3 JSON array of site rids
 * or NULL, ?4 from, ?5 to, ?6 status, ?7 alert_id, ?8 site_ip. */
#define EVENTS_WHERE                                                                                         \
    " FROM tel_ddos_events WHERE customer_id = ?1 AND family = ?2 "                                          \
    "AND (?3 IS NULL OR site_rid IN (SELECT value FROM json_each(?3))) "                                     \
    "AND start_time <= ?5 AND (end_time IS NULL OR end_time >= ?4) "                                         \
    "AND (?6 = 2 OR (?6 = 1) = (end_time IS NULL)) AND (?7 IS NULL OR alert_id = ?7) "                       \
    "AND (?8 IS NULL OR site_ip = ?8)"

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
}

int sq_tel_events_list(struct store *s, const struct tel_event_query *q, json_t **rows, long *total)
{
    static const char count_sql[] = "SELECT count(*)" EVENTS_WHERE;
    static const char list_sql[] =
        "SELECT alert_id, attack_type, start_time, end_time, max_bps, max_pps, severity, site_ip, profile_name, "
        "profile_desc, p_type, site_rid" EVENTS_WHERE " ORDER BY start_time DESC, alert_id LIMIT ?9 OFFSET ?10";
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
    static const char sql[] = "SELECT coalesce(sum(bytes), 0), coalesce(sum(packets), 0) FROM tel_flow_minutes "
                              "WHERE site_rid = ?1 AND minute >= ?2 AND minute < ?3";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, site_rid);
    sqlite3_bind_int64(st, 2, from);
    sqlite3_bind_int64(st, 3, to);
    int rc = sqlite3_step(st) == SQLITE_ROW ? STORE_OK : db_log_error(s, "site volume");
    if (rc == STORE_OK) {
        *bytes = sqlite3_column_int64(st, 0);
        *packets = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    return rc;
}
