/* pgsql/tokens.c — authorization codes, tokens and the ASN registry in
 * PostgreSQL. Only digests of codes and tokens are stored. */
#include <string.h>

#include "store/pgsql/db.h"

int pg_code_create(struct store *s, const struct auth_code *c)
{
    static const char sql[] =
        "INSERT INTO auth_codes (digest, app_id, customer_id, grant_id, scope, expires_at) "
        "VALUES ($1, $2, $3, $4, $5, $6)";
    struct pg_params a = {0};
    pp_text(&a, c->digest);
    pp_text(&a, c->app_id);
    pp_text(&a, c->customer_id);
    pp_text(&a, c->grant_id);
    pp_text(&a, c->scope);
    pp_int(&a, c->expires_at);
    return pg_exec(s, sql, &a, NULL);
}

int pg_code_consume(struct store *s, const char *digest, struct auth_code *out)
{
    /* FOR UPDATE: two nodes exchanging the same code meet here */
    static const char get_sql[] = "SELECT digest, app_id, customer_id, grant_id, scope, expires_at, used "
                                  "FROM auth_codes WHERE digest = $1 FOR UPDATE";
    static const char use_sql[] = "UPDATE auth_codes SET used = 1 WHERE digest = $1";
    struct pg_params a = {0};
    pp_text(&a, digest);
    PGresult *r;
    int rc = pg_one(s, get_sql, &a, &r);
    if (rc != STORE_OK)
        return rc;
    memset(out, 0, sizeof *out);
    pg_text(r, 0, 0, out->digest, sizeof out->digest);
    pg_text(r, 0, 1, out->app_id, sizeof out->app_id);
    pg_text(r, 0, 2, out->customer_id, sizeof out->customer_id);
    pg_text(r, 0, 3, out->grant_id, sizeof out->grant_id);
    pg_text(r, 0, 4, out->scope, sizeof out->scope);
    out->expires_at = pg_int(r, 0, 5);
    bool used = pg_int(r, 0, 6) != 0;
    PQclear(r);
    if (used)
        return STORE_CONFLICT;
    return pg_exec(s, use_sql, &a, NULL);
}

int pg_token_create(struct store *s, const struct token *t)
{
    static const char sql[] =
        "INSERT INTO tokens (digest, type, app_id, portal_id, customer_id, grant_id, scope, "
        "created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
    struct pg_params a = {0};
    pp_text(&a, t->digest);
    pp_int(&a, t->type);
    pp_text(&a, t->app_id);
    pp_text(&a, t->portal_id);
    pp_text(&a, t->customer_id);
    pp_text(&a, t->grant_id);
    pp_text(&a, t->scope);
    pp_int(&a, t->created_at);
    pp_int(&a, t->expires_at);
    /* with the COMMIT (or the next statement): a random digest's insert
     * can fail only with the whole transaction */
    return pg_exec_later(s, sql, &a);
}

int pg_token_get(struct store *s, const char *digest, struct token *out)
{
    static const char sql[] =
        "SELECT t.digest, t.type, t.app_id, t.portal_id, t.customer_id, t.grant_id, t.scope, "
        "t.created_at, t.expires_at, t.used, t.revoked, a.kind, a.revoked, "
        "EXISTS (SELECT 1 FROM app_allow WHERE app_id = a.id) "
        "FROM tokens t JOIN apps a ON a.id = t.app_id WHERE t.digest = $1";
    struct pg_params a = {0};
    pp_text(&a, digest);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc != STORE_OK)
        return rc;
    memset(out, 0, sizeof *out);
    pg_text(r, 0, 0, out->digest, sizeof out->digest);
    out->type = (enum token_type)pg_int(r, 0, 1);
    pg_text(r, 0, 2, out->app_id, sizeof out->app_id);
    pg_text(r, 0, 3, out->portal_id, sizeof out->portal_id);
    pg_text(r, 0, 4, out->customer_id, sizeof out->customer_id);
    pg_text(r, 0, 5, out->grant_id, sizeof out->grant_id);
    pg_text(r, 0, 6, out->scope, sizeof out->scope);
    out->created_at = pg_int(r, 0, 7);
    out->expires_at = pg_int(r, 0, 8);
    out->used = pg_int(r, 0, 9) != 0;
    out->revoked = pg_int(r, 0, 10) != 0;
    out->app_kind = (enum app_kind)pg_int(r, 0, 11);
    out->app_revoked = pg_int(r, 0, 12) != 0;
    out->app_has_allow_list = pg_int(r, 0, 13) != 0;
    PQclear(r);
    return STORE_OK;
}

/* Runs an UPDATE/DELETE with one text parameter; *count gets the rows changed. */
static int change_rows(struct store *s, const char *sql, const char *arg, long *count)
{
    struct pg_params a = {0};
    pp_text(&a, arg);
    long n;
    int rc = pg_exec(s, sql, &a, &n);
    if (count)
        *count = n;
    return rc;
}

int pg_token_mark_used(struct store *s, const char *digest)
{
    static const char sql[] = "UPDATE tokens SET used = 1 WHERE digest = $1 AND used = 0";
    long n;
    int rc = change_rows(s, sql, digest, &n);
    return rc == STORE_OK && n == 0 ? STORE_CONFLICT : rc;
}

int pg_token_revoke_grant(struct store *s, const char *grant_id)
{
    static const char sql[] = "UPDATE tokens SET revoked = 1 WHERE grant_id = $1 AND grant_id <> ''";
    return change_rows(s, sql, grant_id, NULL);
}

int pg_token_revoke_app(struct store *s, const char *app_id, long *count)
{
    static const char sql[] = "UPDATE tokens SET revoked = 1 WHERE app_id = $1 AND revoked = 0";
    return change_rows(s, sql, app_id, count);
}

int pg_token_revoke_digest(struct store *s, const char *digest)
{
    static const char sql[] = "UPDATE tokens SET revoked = 1 WHERE digest = $1";
    long n;
    int rc = change_rows(s, sql, digest, &n);
    return rc == STORE_OK && n == 0 ? STORE_NOT_FOUND : rc;
}

int pg_token_list(struct store *s, const char *app_id, int64_t now, json_t **out)
{
    /* live tokens only, identified by a digest prefix (the token itself is never stored) */
    static const char sql[] =
        "SELECT substr(digest, 1, 12) AS digest_prefix, "
        "CASE type WHEN 1 THEN 'access' ELSE 'refresh' END AS type, app_id, portal_id, "
        "customer_id, created_at, expires_at FROM tokens "
        "WHERE ($1::text IS NULL OR app_id = $1) AND revoked = 0 AND used = 0 AND expires_at > $2 "
        "ORDER BY created_at, seq";
    struct pg_params a = {0};
    pp_text(&a, app_id);
    pp_int(&a, now);
    return pg_rows_json(s, sql, &a, out);
}

int pg_token_purge_expired(struct store *s, int64_t now, long *count)
{
    static const char tokens_sql[] = "DELETE FROM tokens WHERE expires_at <= $1";
    static const char codes_sql[] = "DELETE FROM auth_codes WHERE expires_at <= $1";
    struct pg_params a = {0};
    pp_int(&a, now);
    long t = 0, c = 0;
    int rc = pg_exec(s, tokens_sql, &a, &t);
    if (rc == STORE_OK)
        rc = pg_exec(s, codes_sql, &a, &c);
    *count = t + c;
    return rc;
}

int pg_asn_prefix_add(struct store *s, long long asn, const char *prefix, int max_length, const char *source)
{
    static const char sql[] = "INSERT INTO asn_prefixes (asn, prefix, max_length, source) VALUES ($1, $2, $3, $4) "
                              "ON CONFLICT DO NOTHING";
    struct pg_params a = {0};
    pp_int(&a, asn);
    pp_text(&a, prefix);
    pp_int(&a, max_length);
    pp_text(&a, source);
    return pg_exec(s, sql, &a, NULL);
}

int pg_asn_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT asn, prefix, max_length, source FROM asn_prefixes ORDER BY asn, prefix";
    return pg_rows_json(s, sql, NULL, out);
}

int pg_asn_prefixes(struct store *s, long long asn, json_t **out)
{
    static const char sql[] = "SELECT prefix, max_length FROM asn_prefixes WHERE asn = $1 ORDER BY prefix";
    struct pg_params a = {0};
    pp_int(&a, asn);
    return pg_rows_json(s, sql, &a, out);
}
