/* sqlite/webhooks.c — webhook endpoints, deliveries and attempts in SQLite
 * (009_webhooks.sql; the outbox rows come from its triggers). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/sqlite/db.h"
#include "store/webhooks_backends.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- endpoints ---- */

/* ?1..?8 of the create and the update: the endpoint's members, `at` its time. */
static void bind_endpoint(sqlite3_stmt *st, const struct webhook *w, int64_t at)
{
    BIND_TEXT(st, 1, w->id);
    BIND_TEXT(st, 2, w->customer_id);
    BIND_TEXT(st, 3, w->url);
    BIND_TEXT(st, 4, w->secret);
    sqlite3_bind_int64(st, 5, w->events);
    BIND_TEXT(st, 6, w->description);
    sqlite3_bind_int(st, 7, w->enabled);
    sqlite3_bind_int64(st, 8, at);
}

int sq_webhook_create(struct store *s, const struct webhook *w)
{
    static const char sql[] =
        "INSERT INTO webhook_endpoints (id, customer_id, url, secret, events, description, "
        "enabled, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    bind_endpoint(st, w, w->created_at);
    return db_exec_stmt(s, st);
}

int sq_webhook_get(struct store *s, const char *customer_id, const char *id, struct webhook *out)
{
    static const char sql[] =
        "SELECT id, customer_id, url, secret, events, description, enabled, created_at, "
        "updated_at FROM webhook_endpoints WHERE id = ?1 AND customer_id = ?2";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, id);
    BIND_TEXT(st, 2, customer_id);
    int rc = db_row_result(s, sqlite3_step(st), "webhook_get");
    if (rc == STORE_OK) {
        memset(out, 0, sizeof *out);
        db_col_text(st, 0, out->id, sizeof out->id);
        db_col_text(st, 1, out->customer_id, sizeof out->customer_id);
        db_col_text(st, 2, out->url, sizeof out->url);
        db_col_text(st, 3, out->secret, sizeof out->secret);
        out->events = (unsigned)sqlite3_column_int64(st, 4);
        db_col_text(st, 5, out->description, sizeof out->description);
        out->enabled = sqlite3_column_int(st, 6) != 0;
        out->created_at = sqlite3_column_int64(st, 7);
        out->updated_at = sqlite3_column_int64(st, 8);
    }
    sqlite3_reset(st);
    return rc;
}

int sq_webhook_list(struct store *s, const char *customer_id, json_t **out)
{
    static const char sql[] = "SELECT id, url, events, description, enabled, created_at, updated_at "
                              "FROM webhook_endpoints WHERE customer_id = ?1 ORDER BY created_at, id";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (st)
        BIND_TEXT(st, 1, customer_id);
    return db_rows_json(s, st, out);
}

int sq_webhook_update(struct store *s, const struct webhook *w)
{
    static const char sql[] =
        "UPDATE webhook_endpoints SET url = ?3, secret = ?4, events = ?5, description = ?6, "
        "enabled = ?7, updated_at = ?8 WHERE id = ?1 AND customer_id = ?2";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    bind_endpoint(st, w, w->updated_at);
    int rc = db_exec_stmt(s, st);
    return rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}

int sq_webhook_delete(struct store *s, const char *customer_id, const char *id)
{
    static const char endpoint_sql[] = "DELETE FROM webhook_endpoints WHERE id = ?1 AND customer_id = ?2";
    static const char attempts_sql[] = "DELETE FROM webhook_attempts WHERE delivery_seq IN (SELECT seq FROM "
                                       "webhook_deliveries WHERE endpoint_id = ?1)";
    static const char deliveries_sql[] = "DELETE FROM webhook_deliveries WHERE endpoint_id = ?1";
    sqlite3_stmt *st = db_stmt(s, endpoint_sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, id);
    BIND_TEXT(st, 2, customer_id);
    int rc = db_exec_stmt(s, st);
    if (rc != STORE_OK)
        return rc;
    if (sqlite3_changes(DB(s)->db) == 0)
        return STORE_NOT_FOUND;
    const char *const follow[] = {attempts_sql, deliveries_sql};
    for (int i = 0; i < 2 && rc == STORE_OK; i++) {
        st = db_stmt(s, follow[i]);
        if (!st)
            return STORE_ERROR;
        BIND_TEXT(st, 1, id);
        rc = db_exec_stmt(s, st);
    }
    return rc;
}

/* ---- the delivery log ---- */

int sq_webhook_deliveries(struct store *s, const char *endpoint_id, const struct webhook_delivery_query *q,
                          json_t **out, long *total)
{
    static const char count_sql[] =
        "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = ?1 AND (?2 IS NULL OR state = ?2)";
    static const char sql[] =
        "SELECT d.id, e.id AS event_id, e.type, d.state, d.attempts, d.last_status, d.last_error, d.next_at, "
        "d.created_at, d.done_at, d.replay_of FROM webhook_deliveries d JOIN webhook_events e ON e.seq = "
        "d.event_seq WHERE d.endpoint_id = ?1 AND (?2 IS NULL OR d.state = ?2) ORDER BY d.seq DESC "
        "LIMIT ?3 OFFSET ?4";
    *out = NULL;
    sqlite3_stmt *st = db_stmt(s, count_sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, endpoint_id);
    if (q->state)
        BIND_TEXT(st, 2, q->state);
    int rc = db_row_result(s, sqlite3_step(st), "webhook_deliveries");
    *total = rc == STORE_OK ? (long)sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    if (rc != STORE_OK)
        return rc;
    st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, endpoint_id);
    if (q->state)
        BIND_TEXT(st, 2, q->state);
    sqlite3_bind_int64(st, 3, q->limit);
    sqlite3_bind_int64(st, 4, q->offset);
    return db_rows_json(s, st, out);
}

int sq_webhook_delivery_get(struct store *s, const char *endpoint_id, const char *delivery_id, json_t **out)
{
    static const char sql[] =
        "SELECT d.seq, d.id, e.id AS event_id, e.type, d.state, d.attempts, d.last_status, d.last_error, "
        "d.next_at, d.created_at, d.done_at, d.replay_of, d.resource, e.payload, e.created_at AS "
        "event_created_at "
        "FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq "
        "WHERE d.endpoint_id = ?1 AND d.id = ?2";
    static const char attempts_sql[] =
        "SELECT n, at, duration_ms, status, error, response FROM webhook_attempts "
        "WHERE delivery_seq = ?1 ORDER BY n";
    *out = NULL;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, endpoint_id);
    BIND_TEXT(st, 2, delivery_id);
    json_t *rows;
    int rc = db_rows_json(s, st, &rows);
    if (rc != STORE_OK)
        return rc;
    json_t *row = json_array_get(rows, 0);
    if (!row) {
        json_decref(rows);
        return STORE_NOT_FOUND;
    }
    json_t *log;
    st = db_stmt(s, attempts_sql);
    if (st)
        sqlite3_bind_int64(st, 1, json_integer_value(json_object_get(row, "seq")));
    rc = db_rows_json(s, st, &log);
    if (rc == STORE_OK) {
        json_object_del(row, "seq");
        json_object_set_new(row, "attempts_log", log);
        *out = json_incref(row);
    }
    json_decref(rows);
    return rc;
}

int sq_webhook_replay(struct store *s, const char *endpoint_id, const char *delivery_id, const char *new_id)
{
    static const char sql[] =
        "INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, resource, state, next_at, created_at, "
        "replay_of) SELECT ?3, endpoint_id, event_seq, resource, 'pending', ?4, ?5, id FROM "
        "webhook_deliveries "
        "WHERE endpoint_id = ?1 AND id = ?2";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    int64_t now = now_ms();
    BIND_TEXT(st, 1, endpoint_id);
    BIND_TEXT(st, 2, delivery_id);
    BIND_TEXT(st, 3, new_id);
    sqlite3_bind_int64(st, 4, now);
    sqlite3_bind_int64(st, 5, now / 1000);
    int rc = db_exec_stmt(s, st);
    return rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}

int sq_webhook_enqueue_one(struct store *s, const char *endpoint_id, const char *event_id, const char *type,
                           const char *payload, const char *new_id)
{
    static const char event_sql[] =
        "INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at) "
        "SELECT ?2, ?3, 0, customer_id, 'endpoint:' || id, ?4, ?5 FROM webhook_endpoints WHERE id = ?1";
    static const char delivery_sql[] =
        "INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, resource, state, next_at, created_at) "
        "SELECT ?3, ?1, seq, resource, 'pending', ?4, ?5 FROM webhook_events WHERE id = ?2";
    int64_t now = now_ms();
    sqlite3_stmt *st = db_stmt(s, event_sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, endpoint_id);
    BIND_TEXT(st, 2, event_id);
    BIND_TEXT(st, 3, type);
    BIND_TEXT(st, 4, payload);
    sqlite3_bind_int64(st, 5, now / 1000);
    int rc = db_exec_stmt(s, st);
    if (rc != STORE_OK)
        return rc;
    if (sqlite3_changes(DB(s)->db) == 0)
        return STORE_NOT_FOUND;
    st = db_stmt(s, delivery_sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, endpoint_id);
    BIND_TEXT(st, 2, event_id);
    BIND_TEXT(st, 3, new_id);
    sqlite3_bind_int64(st, 4, now);
    sqlite3_bind_int64(st, 5, now / 1000);
    return db_exec_stmt(s, st);
}

/* ---- the delivery worker ---- */

/* Pending deliveries of enabled endpoints that no earlier pending delivery
 * of the same resource to the same endpoint holds back. */
#define SENDABLE                                                                                             \
    "d.state = 'pending' AND w.enabled = 1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p "              \
    "WHERE p.endpoint_id = d.endpoint_id AND p.resource = d.resource AND p.state = 'pending' AND p.seq < "   \
    "d.seq)"

int sq_webhook_next_due(struct store *s, int64_t *next_ms)
{
    static const char sql[] = "SELECT min(next_at) FROM webhook_deliveries WHERE state = 'pending'";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    int rc = db_row_result(s, sqlite3_step(st), "webhook_next_due");
    if (rc == STORE_OK && sqlite3_column_type(st, 0) == SQLITE_NULL)
        rc = STORE_NOT_FOUND;
    else if (rc == STORE_OK)
        *next_ms = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return rc;
}

int sq_webhook_claim(struct store *s, int64_t now, int64_t lease_ms, long limit, json_t **out)
{
    static const char sql[] =
        "SELECT d.seq, d.id, d.attempts, d.created_at, d.endpoint_id, w.url, w.secret, e.id AS event_id, "
        "e.type, e.payload, "
        "e.created_at AS event_created_at, e.customer_id FROM webhook_deliveries d "
        "JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN webhook_events e ON e.seq = d.event_seq "
        "WHERE d.next_at <= ?1 AND d.lease_until <= ?1 AND " SENDABLE " ORDER BY d.next_at LIMIT ?2";
    static const char lease_sql[] = "UPDATE webhook_deliveries SET lease_until = ?2 WHERE seq = ?1";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, now);
    sqlite3_bind_int64(st, 2, limit);
    int rc = db_rows_json(s, st, out);
    size_t i;
    json_t *row;
    json_array_foreach (rc == STORE_OK ? *out : NULL, i, row) {
        st = db_stmt(s, lease_sql);
        if (!st) {
            rc = STORE_ERROR;
            break;
        }
        sqlite3_bind_int64(st, 1, json_integer_value(json_object_get(row, "seq")));
        sqlite3_bind_int64(st, 2, now + lease_ms);
        if ((rc = db_exec_stmt(s, st)) != STORE_OK)
            break;
    }
    if (rc != STORE_OK) {
        json_decref(*out);
        *out = NULL;
    }
    return rc;
}

int sq_webhook_attempt_record(struct store *s, const struct webhook_attempt *a)
{
    static const char attempt_sql[] =
        "INSERT INTO webhook_attempts (delivery_seq, n, at, duration_ms, status, error, response) "
        "SELECT seq, attempts + 1, ?2, ?3, ?4, ?5, ?6 FROM webhook_deliveries WHERE seq = ?1";
    static const char delivery_sql[] =
        "UPDATE webhook_deliveries SET attempts = attempts + 1, state = ?2, next_at = ?3, lease_until = 0, "
        "last_status = ?4, last_error = ?5, done_at = CASE WHEN ?2 = 'pending' THEN NULL ELSE ?6 END "
        "WHERE seq = ?1";
    sqlite3_stmt *st = db_stmt(s, attempt_sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, a->delivery_seq);
    sqlite3_bind_int64(st, 2, a->at_ms);
    sqlite3_bind_int64(st, 3, a->duration_ms);
    sqlite3_bind_int(st, 4, a->status);
    BIND_TEXT(st, 5, a->error);
    BIND_TEXT(st, 6, a->response);
    int rc = db_exec_stmt(s, st);
    if (rc != STORE_OK)
        return rc;
    if (sqlite3_changes(DB(s)->db) == 0)
        return STORE_NOT_FOUND; /* deleted with its endpoint meanwhile */
    st = db_stmt(s, delivery_sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, a->delivery_seq);
    BIND_TEXT(st, 2, a->state);
    sqlite3_bind_int64(st, 3, a->next_at_ms);
    sqlite3_bind_int(st, 4, a->status);
    BIND_TEXT(st, 5, a->error);
    sqlite3_bind_int64(st, 6, (a->at_ms + a->duration_ms) / 1000);
    return db_exec_stmt(s, st);
}

int sq_webhook_purge(struct store *s, int64_t before, long limit, long *removed)
{
    static const char attempts_sql[] =
        "DELETE FROM webhook_attempts WHERE delivery_seq IN (SELECT seq FROM webhook_deliveries "
        "WHERE state <> 'pending' AND done_at < ?1 ORDER BY seq LIMIT ?2)";
    static const char deliveries_sql[] =
        "DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM webhook_deliveries "
        "WHERE state <> 'pending' AND done_at < ?1 ORDER BY seq LIMIT ?2)";
    static const char events_sql[] =
        "DELETE FROM webhook_events WHERE seq IN (SELECT seq FROM webhook_events e WHERE e.created_at < ?1 "
        "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = e.seq) ORDER BY seq LIMIT "
        "?2)";
    const char *const sqls[] = {attempts_sql, deliveries_sql, events_sql};
    *removed = 0;
    for (int i = 0; i < 3; i++) {
        sqlite3_stmt *st = db_stmt(s, sqls[i]);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, before);
        sqlite3_bind_int64(st, 2, limit);
        int rc = db_exec_stmt(s, st);
        if (rc != STORE_OK)
            return rc;
        if (i > 0)
            *removed += (long)sqlite3_changes(DB(s)->db);
    }
    return STORE_OK;
}
