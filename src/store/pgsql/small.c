/* pgsql/small.c — the small tables in PostgreSQL: the operator's catalogue,
 * ingest credentials, the data planes' deploy states and the audit log. */
#include <stdlib.h>
#include <time.h>

#include "store/pgsql/db.h"

/* ---- catalogue: one JSON value per key ---- */

int pg_catalogue_get(struct store *s, const char *key, json_t **out)
{
    static const char sql[] = "SELECT value FROM catalogue WHERE key = $1";
    *out = NULL;
    struct pg_params a = {0};
    pp_text(&a, key);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc == STORE_OK) {
        *out = json_loadb(PQgetvalue(r, 0, 0), (size_t)PQgetlength(r, 0, 0), JSON_DECODE_ANY, NULL);
        PQclear(r);
        if (!*out)
            rc = STORE_ERROR;
    }
    return rc;
}

int pg_catalogue_set(struct store *s, const char *key, const json_t *value, const char *source)
{
    static const char sql[] = "INSERT INTO catalogue (key, value, source, updated_at) VALUES ($1, $2, $3, $4) "
                              "ON CONFLICT (key) DO UPDATE SET value = $2, source = $3, updated_at = $4";
    char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!text)
        return STORE_ERROR;
    struct pg_params a = {0};
    pp_text(&a, key);
    pp_text(&a, text);
    pp_text(&a, source);
    pp_int(&a, (int64_t)time(NULL));
    int rc = pg_exec(s, sql, &a, NULL);
    free(text);
    return rc;
}

int pg_catalogue_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT key, source, updated_at FROM catalogue ORDER BY key";
    return pg_rows_json(s, sql, NULL, out);
}

/* ---- ingest credentials: digests only, revoked rather than deleted ---- */

int pg_ingest_token_create(struct store *s, const char *id, const char *name, const char *digest)
{
    static const char sql[] = "INSERT INTO ingest_tokens (id, name, digest, created_at) VALUES ($1, $2, $3, $4)";
    struct pg_params a = {0};
    pp_text(&a, id);
    pp_text(&a, name);
    pp_text(&a, digest);
    pp_int(&a, (int64_t)time(NULL));
    return pg_exec(s, sql, &a, NULL);
}

int pg_ingest_token_check(struct store *s, const char *digest)
{
    static const char sql[] = "SELECT 1 FROM ingest_tokens WHERE digest = $1 AND revoked = 0";
    struct pg_params a = {0};
    pp_text(&a, digest);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    PQclear(r);
    return rc;
}

int pg_ingest_token_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT id, name, created_at, revoked FROM ingest_tokens ORDER BY created_at, id";
    return pg_rows_json(s, sql, NULL, out);
}

int pg_ingest_token_revoke(struct store *s, const char *id)
{
    static const char sql[] = "UPDATE ingest_tokens SET revoked = 1 WHERE id = $1";
    struct pg_params a = {0};
    pp_text(&a, id);
    long n;
    int rc = pg_exec(s, sql, &a, &n);
    return rc == STORE_OK && n == 0 ? STORE_NOT_FOUND : rc;
}

/* ---- data planes: each site's deploy state ---- */

/* Only while the site exists (sqlite/dataplane.c says why); the key share
 * lock keeps a concurrent delete from slipping between the check and the
 * insert. */
int pg_dataplane_state_set(struct store *s, const char *plane, int64_t site_rid, const char *state,
                           const char *reason, const char *digest, const char *deployed)
{
    static const char sql[] =
        "INSERT INTO dataplane_state (plane, site_rid, state, reason, digest, deployed, updated_at) "
        "SELECT $1::text, $2::bigint, $3::text, $4::text, $5::text, $6::text, $7::bigint "
        "WHERE EXISTS (SELECT 1 FROM resources WHERE rid = $2 FOR KEY SHARE) "
        "ON CONFLICT (plane, site_rid) DO UPDATE SET "
        "state = excluded.state, reason = excluded.reason, digest = excluded.digest, "
        "deployed = coalesce(excluded.deployed, dataplane_state.deployed), updated_at = excluded.updated_at";
    struct pg_params a = {0};
    pp_text(&a, plane);
    pp_int(&a, site_rid);
    pp_text(&a, state);
    pp_text(&a, reason ? reason : "");
    pp_text(&a, digest ? digest : "");
    pp_text(&a, deployed);
    pp_int(&a, (int64_t)time(NULL));
    return pg_exec(s, sql, &a, NULL);
}

int pg_dataplane_states(struct store *s, const char *plane, int64_t site_rid, json_t **out)
{
    static const char sql[] =
        "SELECT d.plane, d.site_rid, r.kind AS site_kind, r.id AS site_id, r.customer_id, d.state, d.reason, "
        "d.digest, d.deployed, d.updated_at FROM dataplane_state d JOIN resources r ON r.rid = d.site_rid "
        "WHERE ($1::text IS NULL OR d.plane = $1) AND ($2::bigint = 0 OR d.site_rid = $2) "
        "ORDER BY d.plane, d.site_rid";
    struct pg_params a = {0};
    pp_text(&a, plane);
    pp_int(&a, site_rid);
    return pg_rows_json(s, sql, &a, out);
}

/* ---- the audit log ---- */

int pg_audit_append(struct store *s, const struct audit_entry *e)
{
    static const char sql[] =
        "INSERT INTO audit_log (ts, request_id, route, method, path, status, app_id, portal_id, customer_id, "
        "client, target, changes, diff) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";
    struct pg_params a = {0};
    pp_int(&a, e->ts);
    pp_text(&a, e->request_id);
    pp_text(&a, e->route);
    pp_text(&a, e->method);
    pp_text(&a, e->path);
    pp_int(&a, e->status);
    pp_text(&a, e->app_id);
    pp_text(&a, e->portal_id);
    pp_text(&a, e->customer_id);
    pp_text(&a, e->client);
    pp_text(&a, e->target);
    pp_text(&a, e->changes);
    pp_text(&a, e->diff ? e->diff : "{}");
    return pg_exec(s, sql, &a, NULL);
}

int pg_audit_list(struct store *s, const struct audit_query *q, json_t **out)
{
    static const char sql[] =
        "SELECT seq, ts, request_id, route, method, path, status, app_id, portal_id, customer_id, client, "
        "target, changes, diff FROM audit_log WHERE ($1::text IS NULL OR customer_id = $1) "
        "AND ($2::text IS NULL OR app_id = $2) AND ($3::text IS NULL OR route = $3) "
        "AND ts >= $4 AND ts < $5 ORDER BY seq LIMIT $6";
    struct pg_params a = {0};
    pp_text(&a, q->customer_id);
    pp_text(&a, q->app_id);
    pp_text(&a, q->route);
    pp_int(&a, q->since);
    pp_int(&a, q->until);
    pp_int(&a, q->limit);
    return pg_rows_json(s, sql, &a, out);
}

int pg_audit_purge(struct store *s, int64_t before, long limit, long *removed)
{
    static const char sql[] =
        "DELETE FROM audit_log WHERE seq IN (SELECT seq FROM audit_log WHERE ts < $1 ORDER BY ts LIMIT $2)";
    struct pg_params a = {0};
    pp_int(&a, before);
    pp_int(&a, limit);
    return pg_exec(s, sql, &a, removed);
}
