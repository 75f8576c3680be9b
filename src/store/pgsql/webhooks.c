/* pgsql/webhooks.c — webhook endpoints, deliveries and attempts in
 * PostgreSQL (pg/009_webhooks.sql; the outbox rows come from its triggers).
 * The same statements as sqlite/webhooks.c. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/pgsql/db.h"
#include "store/webhooks_backends.h"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- endpoints ---- */

/* $1..$8 of the create and the update: the endpoint's members, `at` its time. */
static void endpoint_params(struct pg_params *p, const struct webhook *w, int64_t at)
{
    pp_text(p, w->id);
    pp_text(p, w->customer_id);
    pp_text(p, w->url);
    pp_text(p, w->secret);
    pp_int(p, w->events);
    pp_text(p, w->description);
    pp_int(p, w->enabled);
    pp_int(p, at);
}

int pg_webhook_create(struct store *s, const struct webhook *w)
{
    static const char sql[] =
        "INSERT INTO webhook_endpoints (id, customer_id, url, secret, events, description, "
        "enabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)";
    struct pg_params p = {0};
    endpoint_params(&p, w, w->created_at);
    return pg_exec(s, sql, &p, NULL);
}

int pg_webhook_get(struct store *s, const char *customer_id, const char *id, struct webhook *out)
{
    static const char sql[] =
        "SELECT id, customer_id, url, secret, events, description, enabled, created_at, "
        "updated_at FROM webhook_endpoints WHERE id = $1 AND customer_id = $2";
    struct pg_params p = {0};
    pp_text(&p, id);
    pp_text(&p, customer_id);
    PGresult *r;
    int rc = pg_one(s, sql, &p, &r);
    if (rc != STORE_OK)
        return rc;
    memset(out, 0, sizeof *out);
    pg_text(r, 0, 0, out->id, sizeof out->id);
    pg_text(r, 0, 1, out->customer_id, sizeof out->customer_id);
    pg_text(r, 0, 2, out->url, sizeof out->url);
    pg_text(r, 0, 3, out->secret, sizeof out->secret);
    out->events = (unsigned)pg_int(r, 0, 4);
    pg_text(r, 0, 5, out->description, sizeof out->description);
    out->enabled = pg_int(r, 0, 6) != 0;
    out->created_at = pg_int(r, 0, 7);
    out->updated_at = pg_int(r, 0, 8);
    PQclear(r);
    return STORE_OK;
}

int pg_webhook_list(struct store *s, const char *customer_id, json_t **out)
{
    static const char sql[] = "SELECT id, url, events, description, enabled, created_at, updated_at "
                              "FROM webhook_endpoints WHERE customer_id = $1 ORDER BY created_at, id";
    struct pg_params p = {0};
    pp_text(&p, customer_id);
    return pg_rows_json(s, sql, &p, out);
}

int pg_webhook_update(struct store *s, const struct webhook *w)
{
    static const char sql[] =
        "UPDATE webhook_endpoints SET url = $3, secret = $4, events = $5, description = $6, "
        "enabled = $7, updated_at = $8 WHERE id = $1 AND customer_id = $2";
    struct pg_params p = {0};
    endpoint_params(&p, w, w->updated_at);
    long changed = 0;
    int rc = pg_exec(s, sql, &p, &changed);
    return rc == STORE_OK && changed == 0 ? STORE_NOT_FOUND : rc;
}

int pg_webhook_delete(struct store *s, const char *customer_id, const char *id)
{
    static const char endpoint_sql[] = "DELETE FROM webhook_endpoints WHERE id = $1 AND customer_id = $2";
    static const char attempts_sql[] = "DELETE FROM webhook_attempts WHERE delivery_seq IN (SELECT seq FROM "
                                       "webhook_deliveries WHERE endpoint_id = $1)";
    static const char deliveries_sql[] = "DELETE FROM webhook_deliveries WHERE endpoint_id = $1";
    struct pg_params p = {0};
    pp_text(&p, id);
    pp_text(&p, customer_id);
    long changed = 0;
    int rc = pg_exec(s, endpoint_sql, &p, &changed);
    if (rc != STORE_OK)
        return rc;
    if (changed == 0)
        return STORE_NOT_FOUND;
    struct pg_params one = {0};
    pp_text(&one, id);
    rc = pg_exec(s, attempts_sql, &one, NULL);
    return rc == STORE_OK ? pg_exec(s, deliveries_sql, &one, NULL) : rc;
}

/* ---- the delivery log ---- */

int pg_webhook_deliveries(struct store *s, const char *endpoint_id, const struct webhook_delivery_query *q,
                          json_t **out, long *total)
{
    static const char count_sql[] =
        "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND ($2::text IS NULL OR state = $2)";
    static const char sql[] =
        "SELECT d.id, e.id AS event_id, e.type, d.state, d.attempts, d.last_status, d.last_error, d.next_at, "
        "d.created_at, d.done_at, d.replay_of FROM webhook_deliveries d JOIN webhook_events e ON e.seq = "
        "d.event_seq WHERE d.endpoint_id = $1 AND ($2::text IS NULL OR d.state = $2) ORDER BY d.seq DESC "
        "LIMIT $3 OFFSET $4";
    *out = NULL;
    struct pg_params p = {0};
    pp_text(&p, endpoint_id);
    pp_text(&p, q->state);
    PGresult *r;
    int rc = pg_one(s, count_sql, &p, &r);
    if (rc != STORE_OK)
        return rc;
    *total = (long)pg_int(r, 0, 0);
    PQclear(r);
    pp_int(&p, q->limit);
    pp_int(&p, q->offset);
    return pg_rows_json(s, sql, &p, out);
}

int pg_webhook_delivery_get(struct store *s, const char *endpoint_id, const char *delivery_id, json_t **out)
{
    static const char sql[] =
        "SELECT d.seq, d.id, e.id AS event_id, e.type, d.state, d.attempts, d.last_status, d.last_error, "
        "d.next_at, d.created_at, d.done_at, d.replay_of, d.resource, e.payload, e.created_at AS "
        "event_created_at "
        "FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq "
        "WHERE d.endpoint_id = $1 AND d.id = $2";
    static const char attempts_sql[] =
        "SELECT n, at, duration_ms, status, error, response FROM webhook_attempts "
        "WHERE delivery_seq = $1 ORDER BY n";
    *out = NULL;
    struct pg_params p = {0};
    pp_text(&p, endpoint_id);
    pp_text(&p, delivery_id);
    json_t *rows;
    int rc = pg_rows_json(s, sql, &p, &rows);
    if (rc != STORE_OK)
        return rc;
    json_t *row = json_array_get(rows, 0);
    if (!row) {
        json_decref(rows);
        return STORE_NOT_FOUND;
    }
    struct pg_params a = {0};
    pp_int(&a, json_integer_value(json_object_get(row, "seq")));
    json_t *log;
    rc = pg_rows_json(s, attempts_sql, &a, &log);
    if (rc == STORE_OK) {
        json_object_del(row, "seq");
        json_object_set_new(row, "attempts_log", log);
        *out = json_incref(row);
    }
    json_decref(rows);
    return rc;
}

int pg_webhook_replay(struct store *s, const char *endpoint_id, const char *delivery_id, const char *new_id)
{
    static const char sql[] =
        "INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, resource, state, next_at, created_at, "
        "replay_of) SELECT $3::text, endpoint_id, event_seq, resource, 'pending', $4::bigint, $5::bigint, id "
        "FROM webhook_deliveries "
        "WHERE endpoint_id = $1 AND id = $2";
    int64_t now = now_ms();
    struct pg_params p = {0};
    pp_text(&p, endpoint_id);
    pp_text(&p, delivery_id);
    pp_text(&p, new_id);
    pp_int(&p, now);
    pp_int(&p, now / 1000);
    long changed = 0;
    int rc = pg_exec(s, sql, &p, &changed);
    return rc == STORE_OK && changed == 0 ? STORE_NOT_FOUND : rc;
}

int pg_webhook_enqueue_one(struct store *s, const char *endpoint_id, const char *event_id, const char *type,
                           const char *payload, const char *new_id)
{
    static const char event_sql[] =
        "INSERT INTO webhook_events (id, type, type_bit, customer_id, resource, payload, created_at) "
        "SELECT $2::text, $3::text, 0, customer_id, 'endpoint:' || id, $4::text, $5::bigint FROM "
        "webhook_endpoints WHERE id = $1";
    static const char delivery_sql[] =
        "INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, resource, state, next_at, created_at) "
        "SELECT $3::text, $1::text, seq, resource, 'pending', $4::bigint, $5::bigint FROM webhook_events "
        "WHERE id = $2";
    int64_t now = now_ms();
    struct pg_params p = {0};
    pp_text(&p, endpoint_id);
    pp_text(&p, event_id);
    pp_text(&p, type);
    pp_text(&p, payload);
    pp_int(&p, now / 1000);
    long changed = 0;
    int rc = pg_exec(s, event_sql, &p, &changed);
    if (rc != STORE_OK)
        return rc;
    if (changed == 0)
        return STORE_NOT_FOUND;
    struct pg_params d = {0};
    pp_text(&d, endpoint_id);
    pp_text(&d, event_id);
    pp_text(&d, new_id);
    pp_int(&d, now);
    pp_int(&d, now / 1000);
    return pg_exec(s, delivery_sql, &d, NULL);
}

/* ---- the delivery worker ---- */

#define SENDABLE                                                                                             \
    "d.state = 'pending' AND w.enabled = 1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p "              \
    "WHERE p.endpoint_id = d.endpoint_id AND p.resource = d.resource AND p.state = 'pending' AND p.seq < "   \
    "d.seq)"

int pg_webhook_next_due(struct store *s, int64_t *next_ms)
{
    static const char sql[] = "SELECT min(next_at) FROM webhook_deliveries WHERE state = 'pending'";
    PGresult *r;
    int rc = pg_one(s, sql, NULL, &r);
    if (rc != STORE_OK)
        return rc;
    if (PQgetisnull(r, 0, 0))
        rc = STORE_NOT_FOUND;
    else
        *next_ms = pg_int(r, 0, 0);
    PQclear(r);
    return rc;
}

int pg_webhook_claim(struct store *s, int64_t now, int64_t lease_ms, long limit, json_t **out)
{
    static const char sql[] =
        "WITH due AS (SELECT d.seq FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = "
        "d.endpoint_id "
        "WHERE d.next_at <= $1 AND d.lease_until <= $1 AND " SENDABLE " ORDER BY d.next_at LIMIT $2), "
        "leased AS (UPDATE webhook_deliveries d SET lease_until = $3 FROM due WHERE d.seq = due.seq "
        "RETURNING d.seq, d.id, d.attempts, d.created_at, d.endpoint_id, d.event_seq) "
        "SELECT l.seq, l.id, l.attempts, l.created_at, l.endpoint_id, w.url, w.secret, e.id AS event_id, "
        "e.type, e.payload, "
        "e.created_at AS event_created_at, e.customer_id FROM leased l "
        "JOIN webhook_endpoints w ON w.id = l.endpoint_id JOIN webhook_events e ON e.seq = l.event_seq "
        "ORDER BY l.seq";
    struct pg_params p = {0};
    pp_int(&p, now);
    pp_int(&p, limit);
    pp_int(&p, now + lease_ms);
    return pg_rows_json(s, sql, &p, out);
}

int pg_webhook_attempt_record(struct store *s, const struct webhook_attempt *a)
{
    static const char attempt_sql[] =
        "INSERT INTO webhook_attempts (delivery_seq, n, at, duration_ms, status, error, response) "
        "SELECT seq, attempts + 1, $2::bigint, $3::bigint, $4::bigint, $5::text, $6::text FROM "
        "webhook_deliveries WHERE seq = $1";
    static const char delivery_sql[] =
        "UPDATE webhook_deliveries SET attempts = attempts + 1, state = $2, next_at = $3, lease_until = 0, "
        "last_status = $4, last_error = $5, done_at = CASE WHEN $2::text = 'pending' THEN NULL ELSE "
        "$6::bigint END "
        "WHERE seq = $1";
    struct pg_params p = {0};
    pp_int(&p, a->delivery_seq);
    pp_int(&p, a->at_ms);
    pp_int(&p, a->duration_ms);
    pp_int(&p, a->status);
    pp_text(&p, a->error);
    pp_text(&p, a->response);
    long changed = 0;
    int rc = pg_exec(s, attempt_sql, &p, &changed);
    if (rc != STORE_OK)
        return rc;
    if (changed == 0)
        return STORE_NOT_FOUND;
    struct pg_params d = {0};
    pp_int(&d, a->delivery_seq);
    pp_text(&d, a->state);
    pp_int(&d, a->next_at_ms);
    pp_int(&d, a->status);
    pp_text(&d, a->error);
    pp_int(&d, (a->at_ms + a->duration_ms) / 1000);
    return pg_exec(s, delivery_sql, &d, NULL);
}

int pg_webhook_purge(struct store *s, int64_t before, long limit, long *removed)
{
    static const char attempts_sql[] =
        "DELETE FROM webhook_attempts WHERE delivery_seq IN (SELECT seq FROM webhook_deliveries "
        "WHERE state <> 'pending' AND done_at < $1 ORDER BY seq LIMIT $2)";
    static const char deliveries_sql[] =
        "DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM webhook_deliveries "
        "WHERE state <> 'pending' AND done_at < $1 ORDER BY seq LIMIT $2)";
    static const char events_sql[] =
        "DELETE FROM webhook_events WHERE seq IN (SELECT seq FROM webhook_events e WHERE e.created_at < $1 "
        "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = e.seq) ORDER BY seq LIMIT "
        "$2)";
    const char *const sqls[] = {attempts_sql, deliveries_sql, events_sql};
    struct pg_params p = {0};
    pp_int(&p, before);
    pp_int(&p, limit);
    *removed = 0;
    for (int i = 0; i < 3; i++) {
        long changed = 0;
        int rc = pg_exec(s, sqls[i], &p, &changed);
        if (rc != STORE_OK)
            return rc;
        if (i > 0)
            *removed += changed;
    }
    return STORE_OK;
}
