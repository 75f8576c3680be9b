/* sqlite/tokens.c — authorization codes, tokens and the ASN registry in
 * SQLite. Only digests of codes and tokens are stored. */
#include <stdio.h>
#include <string.h>

#include "store/sqlite/db.h"

int sq_code_create(struct store *s, const struct auth_code *c)
{
    static const char sql[] =
        "INSERT INTO auth_codes (digest, app_id, customer_id, grant_id, scope, expires_at) "
        "VALUES (?, ?, ?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, c->digest);
    BIND_TEXT(st, 2, c->app_id);
    BIND_TEXT(st, 3, c->customer_id);
    BIND_TEXT(st, 4, c->grant_id);
    BIND_TEXT(st, 5, c->scope);
    sqlite3_bind_int64(st, 6, c->expires_at);
    return db_exec_stmt(s, st);
}

int sq_code_consume(struct store *s, const char *digest, struct auth_code *out)
{
    static const char get_sql[] = "SELECT digest, app_id, customer_id, grant_id, scope, expires_at, used "
                                  "FROM auth_codes WHERE digest = ?";
    static const char use_sql[] = "UPDATE auth_codes SET used = 1 WHERE digest = ?";
    sqlite3_stmt *st = db_stmt(s, get_sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, digest);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(st);
        return rc == SQLITE_DONE ? STORE_NOT_FOUND : db_log_error(s, "code_consume");
    }
    memset(out, 0, sizeof *out);
    db_col_text(st, 0, out->digest, sizeof out->digest);
    db_col_text(st, 1, out->app_id, sizeof out->app_id);
    db_col_text(st, 2, out->customer_id, sizeof out->customer_id);
    db_col_text(st, 3, out->grant_id, sizeof out->grant_id);
    db_col_text(st, 4, out->scope, sizeof out->scope);
    out->expires_at = sqlite3_column_int64(st, 5);
    bool used = sqlite3_column_int(st, 6) != 0;
    sqlite3_reset(st);
    if (used)
        return STORE_CONFLICT;
    if (!(st = db_stmt(s, use_sql)))
        return STORE_ERROR;
    BIND_TEXT(st, 1, digest);
    return db_exec_stmt(s, st);
}

int sq_token_create(struct store *s, const struct token *t)
{
    static const char sql[] =
        "INSERT INTO tokens (digest, type, app_id, portal_id, customer_id, grant_id, scope, "
        "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, t->digest);
    sqlite3_bind_int(st, 2, t->type);
    BIND_TEXT(st, 3, t->app_id);
    BIND_TEXT(st, 4, t->portal_id);
    BIND_TEXT(st, 5, t->customer_id);
    BIND_TEXT(st, 6, t->grant_id);
    BIND_TEXT(st, 7, t->scope);
    sqlite3_bind_int64(st, 8, t->created_at);
    sqlite3_bind_int64(st, 9, t->expires_at);
    return db_exec_stmt(s, st);
}

int sq_token_get(struct store *s, const char *digest, struct token *out)
{
    static const char sql[] =
        "SELECT t.digest, t.type, t.app_id, t.portal_id, t.customer_id, t.grant_id, t.scope, "
        "t.created_at, t.expires_at, t.used, t.revoked, a.kind, a.revoked, "
        "EXISTS (SELECT 1 FROM app_allow WHERE app_id = a.id) "
        "FROM tokens t JOIN apps a ON a.id = t.app_id WHERE t.digest = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, digest);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        db_col_text(st, 0, out->digest, sizeof out->digest);
        out->type = (enum token_type)sqlite3_column_int(st, 1);
        db_col_text(st, 2, out->app_id, sizeof out->app_id);
        db_col_text(st, 3, out->portal_id, sizeof out->portal_id);
        db_col_text(st, 4, out->customer_id, sizeof out->customer_id);
        db_col_text(st, 5, out->grant_id, sizeof out->grant_id);
        db_col_text(st, 6, out->scope, sizeof out->scope);
        out->created_at = sqlite3_column_int64(st, 7);
        out->expires_at = sqlite3_column_int64(st, 8);
        out->used = sqlite3_column_int(st, 9) != 0;
        out->revoked = sqlite3_column_int(st, 10) != 0;
        out->app_kind = (enum app_kind)sqlite3_column_int(st, 11);
        out->app_revoked = sqlite3_column_int(st, 12) != 0;
        out->app_has_allow_list = sqlite3_column_int(st, 13) != 0;
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW ? STORE_OK : rc == SQLITE_DONE ? STORE_NOT_FOUND : db_log_error(s, "token_get");
}

int sq_token_mark_used(struct store *s, const char *digest)
{
    static const char sql[] = "UPDATE tokens SET used = 1 WHERE digest = ? AND used = 0";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, digest);
    int rc = db_exec_stmt(s, st);
    return rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0 ? STORE_CONFLICT : rc;
}

/* Runs an UPDATE/DELETE with one text parameter; *count gets the rows changed. */
static int change_rows(struct store *s, const char *sql, const char *arg, long *count)
{
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, arg);
    int rc = db_exec_stmt(s, st);
    if (count)
        *count = rc == STORE_OK ? sqlite3_changes(DB(s)->db) : 0;
    return rc;
}

int sq_token_revoke_grant(struct store *s, const char *grant_id)
{
    static const char sql[] = "UPDATE tokens SET revoked = 1 WHERE grant_id = ? AND grant_id <> ''";
    return change_rows(s, sql, grant_id, NULL);
}

int sq_token_revoke_app(struct store *s, const char *app_id, long *count)
{
    static const char sql[] = "UPDATE tokens SET revoked = 1 WHERE app_id = ? AND revoked = 0";
    return change_rows(s, sql, app_id, count);
}

int sq_token_revoke_digest(struct store *s, const char *digest)
{
    static const char sql[] = "UPDATE tokens SET revoked = 1 WHERE digest = ?";
    long n;
    int rc = change_rows(s, sql, digest, &n);
    return rc == STORE_OK && n == 0 ? STORE_NOT_FOUND : rc;
}

int sq_token_list(struct store *s, const char *app_id, int64_t now, json_t **out)
{
    /* live tokens only, identified by a digest prefix (the token itself is never stored) */
    static const char sql[] =
        "SELECT substr(digest, 1, 12) AS digest_prefix, "
        "CASE type WHEN 1 THEN 'access' ELSE 'refresh' END AS type, app_id, portal_id, "
        "customer_id, created_at, expires_at FROM tokens "
        "WHERE (?1 IS NULL OR app_id = ?1) AND revoked = 0 AND used = 0 AND expires_at > ?2 "
        "ORDER BY created_at, rowid";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    if (app_id)
        BIND_TEXT(st, 1, app_id);
    sqlite3_bind_int64(st, 2, now);
    return db_rows_json(s, st, out);
}

int sq_token_purge_expired(struct store *s, int64_t now, long *count)
{
    static const char tokens_sql[] = "DELETE FROM tokens WHERE expires_at <= ?";
    static const char codes_sql[] = "DELETE FROM auth_codes WHERE expires_at <= ?";
    long n = 0;
    const char *sqls[] = {tokens_sql, codes_sql};
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st = db_stmt(s, sqls[i]);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, now);
        if (db_exec_stmt(s, st) != STORE_OK)
            return STORE_ERROR;
        n += sqlite3_changes(DB(s)->db);
    }
    *count = n;
    return STORE_OK;
}

int sq_asn_prefix_add(struct store *s, long long asn, const char *prefix, int max_length, const char *source)
{
    static const char sql[] =
        "INSERT OR IGNORE INTO asn_prefixes (asn, prefix, max_length, source) VALUES (?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, asn);
    BIND_TEXT(st, 2, prefix);
    sqlite3_bind_int(st, 3, max_length);
    BIND_TEXT(st, 4, source);
    return db_exec_stmt(s, st);
}

int sq_asn_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT asn, prefix, max_length, source FROM asn_prefixes ORDER BY asn, prefix";
    return db_rows_json(s, db_stmt(s, sql), out);
}

int sq_asn_prefixes(struct store *s, long long asn, json_t **out)
{
    static const char sql[] = "SELECT prefix, max_length FROM asn_prefixes WHERE asn = ? ORDER BY prefix";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, asn);
    return db_rows_json(s, st, out);
}
