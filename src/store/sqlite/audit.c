/* sqlite/audit.c — the audit log in SQLite (008_audit.sql). */
#include <stdio.h>

#include "store/sqlite/db.h"

int sq_audit_append(struct store *s, const struct audit_entry *e)
{
    static const char sql[] =
        "INSERT INTO audit_log (ts, request_id, route, method, path, status, app_id, portal_id, customer_id, "
        "client, target, changes, diff) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)e->ts);
    BIND_TEXT(st, 2, e->request_id);
    BIND_TEXT(st, 3, e->route);
    BIND_TEXT(st, 4, e->method);
    BIND_TEXT(st, 5, e->path);
    sqlite3_bind_int(st, 6, e->status);
    BIND_TEXT(st, 7, e->app_id);
    BIND_TEXT(st, 8, e->portal_id);
    BIND_TEXT(st, 9, e->customer_id);
    BIND_TEXT(st, 10, e->client);
    BIND_TEXT(st, 11, e->target);
    BIND_TEXT(st, 12, e->changes);
    BIND_TEXT(st, 13, e->diff ? e->diff : "{}");
    return db_exec_stmt(s, st);
}

int sq_audit_list(struct store *s, const struct audit_query *q, json_t **out)
{
    static const char sql[] =
        "SELECT seq, ts, request_id, route, method, path, status, app_id, portal_id, customer_id, client, "
        "target, changes, diff FROM audit_log "
        "WHERE (?1 IS NULL OR customer_id = ?1) AND (?2 IS NULL OR app_id = ?2) AND (?3 IS NULL OR route = ?3) "
        "AND ts >= ?4 AND ts < ?5 ORDER BY seq LIMIT ?6";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    if (q->customer_id)
        BIND_TEXT(st, 1, q->customer_id);
    if (q->app_id)
        BIND_TEXT(st, 2, q->app_id);
    if (q->route)
        BIND_TEXT(st, 3, q->route);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)q->since);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)q->until);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)q->limit);
    return db_rows_json(s, st, out);
}

int sq_audit_purge(struct store *s, int64_t before, long limit, long *removed)
{
    static const char sql[] =
        "DELETE FROM audit_log WHERE seq IN (SELECT seq FROM audit_log WHERE ts < ?1 ORDER BY ts LIMIT ?2)";
    sqlite3_stmt *st = db_stmt(s, sql);
    *removed = 0;
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)before);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)limit);
    int rc = db_exec_stmt(s, st);
    if (rc == STORE_OK)
        *removed = (long)sqlite3_changes(DB(s)->db);
    return rc;
}
