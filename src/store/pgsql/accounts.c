/* pgsql/accounts.c — portals, apps and their allow lists, customers and
 * installations, in PostgreSQL. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/pgsql/db.h"

int pg_portal_create(struct store *s, const struct portal *p)
{
    static const char sql[] = "INSERT INTO portals (id, name, created_at) VALUES ($1, $2, $3)";
    struct pg_params a = {0};
    pp_text(&a, p->id);
    pp_text(&a, p->name);
    pp_int(&a, (int64_t)time(NULL));
    return pg_exec(s, sql, &a, NULL);
}

int pg_portal_get(struct store *s, const char *id, struct portal *out)
{
    static const char sql[] = "SELECT id, name FROM portals WHERE id = $1";
    struct pg_params a = {0};
    pp_text(&a, id);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc == STORE_OK) {
        pg_text(r, 0, 0, out->id, sizeof out->id);
        pg_text(r, 0, 1, out->name, sizeof out->name);
        PQclear(r);
    }
    return rc;
}

int pg_portal_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT p.id AS portal_id, p.name, "
                              "(SELECT count(*) FROM customers c WHERE c.portal_id = p.id) AS customers "
                              "FROM portals p ORDER BY p.created_at, p.seq";
    return pg_rows_json(s, sql, NULL, out);
}

int pg_app_create(struct store *s, const struct app *a)
{
    static const char sql[] =
        "INSERT INTO apps (id, kind, portal_id, name, host_url, secret_digest, created_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7)";
    struct pg_params p = {0};
    pp_text(&p, a->id);
    pp_int(&p, a->kind);
    pp_text(&p, a->kind == APP_PORTAL ? a->portal_id : NULL);
    pp_text(&p, a->name);
    pp_text(&p, a->host_url);
    pp_text(&p, a->secret_digest);
    pp_int(&p, (int64_t)time(NULL));
    return pg_exec(s, sql, &p, NULL);
}

int pg_app_get(struct store *s, const char *id, struct app *out)
{
    static const char sql[] =
        "SELECT id, kind, coalesce(portal_id, ''), name, host_url, secret_digest, revoked, "
        "EXISTS (SELECT 1 FROM app_allow WHERE app_id = apps.id) FROM apps WHERE id = $1";
    struct pg_params a = {0};
    pp_text(&a, id);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc != STORE_OK)
        return rc;
    memset(out, 0, sizeof *out);
    pg_text(r, 0, 0, out->id, sizeof out->id);
    out->kind = (enum app_kind)pg_int(r, 0, 1);
    pg_text(r, 0, 2, out->portal_id, sizeof out->portal_id);
    pg_text(r, 0, 3, out->name, sizeof out->name);
    pg_text(r, 0, 4, out->host_url, sizeof out->host_url);
    pg_text(r, 0, 5, out->secret_digest, sizeof out->secret_digest);
    out->revoked = pg_int(r, 0, 6) != 0;
    out->has_allow_list = pg_int(r, 0, 7) != 0;
    PQclear(r);
    return STORE_OK;
}

int pg_app_list(struct store *s, json_t **out)
{
    static const char sql[] =
        "SELECT id AS app_id, CASE kind WHEN 1 THEN 'portal' ELSE 'installed' END AS kind, "
        "coalesce(portal_id, '') AS portal_id, name, host_url, revoked, "
        "(SELECT string_agg(cidr, ' ' ORDER BY seq) FROM app_allow WHERE app_id = apps.id) AS allow_ip "
        "FROM apps ORDER BY created_at, seq";
    return pg_rows_json(s, sql, NULL, out);
}

/* Changes one row identified by id; STORE_NOT_FOUND when there is none. */
static int exec_one(struct store *s, const char *sql, const char *value, const char *id)
{
    struct pg_params a = {0};
    if (value)
        pp_text(&a, value);
    pp_text(&a, id);
    long n;
    int rc = pg_exec(s, sql, &a, &n);
    return rc == STORE_OK && n == 0 ? STORE_NOT_FOUND : rc;
}

int pg_app_revoke(struct store *s, const char *id)
{
    static const char sql[] = "UPDATE apps SET revoked = 1 WHERE id = $1";
    return exec_one(s, sql, NULL, id);
}

int pg_app_set_secret(struct store *s, const char *id, const char *digest)
{
    static const char sql[] = "UPDATE apps SET secret_digest = $1 WHERE id = $2";
    return exec_one(s, sql, digest, id);
}

int pg_app_allow_add(struct store *s, const char *app_id, const char *cidr)
{
    static const char sql[] = "INSERT INTO app_allow (app_id, cidr) VALUES ($1, $2) ON CONFLICT DO NOTHING";
    struct pg_params a = {0};
    pp_text(&a, app_id);
    pp_text(&a, cidr);
    return pg_exec(s, sql, &a, NULL);
}

int pg_app_allow_list(struct store *s, const char *app_id, json_t **out)
{
    static const char sql[] = "SELECT cidr FROM app_allow WHERE app_id = $1 ORDER BY seq";
    struct pg_params a = {0};
    pp_text(&a, app_id);
    int rc;
    PGresult *r = pg_query(s, sql, &a, &rc);
    if (!r)
        return rc;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(list, json_string(PQgetvalue(r, i, 0)));
    PQclear(r);
    *out = list;
    return STORE_OK;
}

int pg_customer_create(struct store *s, const struct customer *c)
{
    static const char sql[] =
        "INSERT INTO customers (id, portal_id, name, email, company, phone, address, website, "
        "svc_ap, svc_op, svc_dns, svc_cdn, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)";
    struct pg_params a = {0};
    const char *texts[] = {c->id, c->portal_id, c->name, c->email, c->company, c->phone, c->address, c->website};
    for (int i = 0; i < 8; i++)
        pp_text(&a, texts[i]);
    pp_int(&a, c->svc_ap);
    pp_int(&a, c->svc_op);
    pp_int(&a, c->svc_dns);
    pp_int(&a, c->svc_cdn);
    pp_int(&a, (int64_t)time(NULL));
    return pg_exec(s, sql, &a, NULL);
}

int pg_customer_get(struct store *s, const char *id, struct customer *out)
{
    static const char sql[] = "SELECT id, portal_id, name, email, company, phone, address, website, "
                              "svc_ap, svc_op, svc_dns, svc_cdn FROM customers WHERE id = $1";
    struct pg_params a = {0};
    pp_text(&a, id);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc != STORE_OK)
        return rc;
    pg_text(r, 0, 0, out->id, sizeof out->id);
    pg_text(r, 0, 1, out->portal_id, sizeof out->portal_id);
    pg_text(r, 0, 2, out->name, sizeof out->name);
    pg_text(r, 0, 3, out->email, sizeof out->email);
    pg_text(r, 0, 4, out->company, sizeof out->company);
    pg_text(r, 0, 5, out->phone, sizeof out->phone);
    pg_text(r, 0, 6, out->address, sizeof out->address);
    pg_text(r, 0, 7, out->website, sizeof out->website);
    out->svc_ap = pg_int(r, 0, 8);
    out->svc_op = pg_int(r, 0, 9);
    out->svc_dns = pg_int(r, 0, 10);
    out->svc_cdn = pg_int(r, 0, 11);
    PQclear(r);
    return STORE_OK;
}

int pg_customer_list(struct store *s, const char *portal_id, long offset, long limit, json_t **out,
                     long *total)
{
    static const char count_sql[] = "SELECT count(*) FROM customers WHERE $1::text IS NULL OR portal_id = $1";
    static const char sql[] =
        "SELECT id, portal_id, name, email, company, phone, address, website, "
        "json_build_object('ap', svc_ap, 'op', svc_op, 'dns', svc_dns, 'cdn', svc_cdn)::text AS services "
        "FROM customers WHERE $1::text IS NULL OR portal_id = $1 "
        "ORDER BY created_at, seq LIMIT $2 OFFSET $3";
    struct pg_params a = {0};
    pp_text(&a, portal_id);
    PGresult *r;
    int rc = pg_one(s, count_sql, &a, &r);
    if (rc != STORE_OK)
        return rc == STORE_NOT_FOUND ? STORE_ERROR : rc;
    *total = (long)pg_int(r, 0, 0);
    PQclear(r);
    pp_int(&a, limit);
    pp_int(&a, offset);
    if ((rc = pg_rows_json(s, sql, &a, out)) != STORE_OK)
        return rc;
    /* the services column arrives as JSON text */
    size_t i;
    json_t *row;
    json_array_foreach (*out, i, row) {
        json_t *svc = json_loads(json_string_value(json_object_get(row, "services")), 0, NULL);
        json_object_set_new(row, "services", svc ? svc : json_object());
    }
    return STORE_OK;
}

int pg_install_create(struct store *s, const struct installation *in)
{
    static const char sql[] = "INSERT INTO installations (id, app_id, customer_id, xspe_digest, created_at) "
                              "VALUES ($1, $2, $3, $4, $5)";
    struct pg_params a = {0};
    pp_text(&a, in->id);
    pp_text(&a, in->app_id);
    pp_text(&a, in->customer_id);
    pp_text(&a, in->xspe_digest);
    pp_int(&a, (int64_t)time(NULL));
    return pg_exec(s, sql, &a, NULL);
}

int pg_install_find(struct store *s, const char *app_id, const char *customer_id, struct installation *out)
{
    static const char sql[] = "SELECT id, app_id, customer_id, xspe_digest FROM installations "
                              "WHERE app_id = $1 AND customer_id = $2";
    struct pg_params a = {0};
    pp_text(&a, app_id);
    pp_text(&a, customer_id);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc != STORE_OK)
        return rc;
    pg_text(r, 0, 0, out->id, sizeof out->id);
    pg_text(r, 0, 1, out->app_id, sizeof out->app_id);
    pg_text(r, 0, 2, out->customer_id, sizeof out->customer_id);
    pg_text(r, 0, 3, out->xspe_digest, sizeof out->xspe_digest);
    PQclear(r);
    return STORE_OK;
}

int pg_install_list(struct store *s, json_t **out)
{
    static const char sql[] =
        "SELECT id AS installation_id, app_id, customer_id FROM installations ORDER BY created_at, seq";
    return pg_rows_json(s, sql, NULL, out);
}
