/* sqlite/accounts.c — portals, apps and their allow lists, customers and
 * installations, in SQLite. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/sqlite/db.h"

int sq_portal_create(struct store *s, const struct portal *p)
{
    static const char sql[] = "INSERT INTO portals (id, name, created_at) VALUES (?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, p->id);
    BIND_TEXT(st, 2, p->name);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
    return db_exec_stmt(s, st);
}

int sq_portal_get(struct store *s, const char *id, struct portal *out)
{
    static const char sql[] = "SELECT id, name FROM portals WHERE id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        db_col_text(st, 0, out->id, sizeof out->id);
        db_col_text(st, 1, out->name, sizeof out->name);
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW ? STORE_OK : rc == SQLITE_DONE ? STORE_NOT_FOUND : db_log_error(s, "portal_get");
}

int sq_portal_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT p.id AS portal_id, p.name, "
                              "(SELECT count(*) FROM customers c WHERE c.portal_id = p.id) AS customers "
                              "FROM portals p ORDER BY p.created_at, p.rowid";
    return db_rows_json(s, db_stmt(s, sql), out);
}

int sq_app_create(struct store *s, const struct app *a)
{
    static const char sql[] =
        "INSERT INTO apps (id, kind, portal_id, name, host_url, secret_digest, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, a->id);
    sqlite3_bind_int(st, 2, a->kind);
    if (a->kind == APP_PORTAL)
        BIND_TEXT(st, 3, a->portal_id);
    else
        sqlite3_bind_null(st, 3);
    BIND_TEXT(st, 4, a->name);
    BIND_TEXT(st, 5, a->host_url);
    BIND_TEXT(st, 6, a->secret_digest);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)time(NULL));
    return db_exec_stmt(s, st);
}

int sq_app_get(struct store *s, const char *id, struct app *out)
{
    static const char sql[] =
        "SELECT id, kind, coalesce(portal_id, ''), name, host_url, secret_digest, revoked, "
        "EXISTS (SELECT 1 FROM app_allow WHERE app_id = apps.id) FROM apps WHERE id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        db_col_text(st, 0, out->id, sizeof out->id);
        out->kind = (enum app_kind)sqlite3_column_int(st, 1);
        db_col_text(st, 2, out->portal_id, sizeof out->portal_id);
        db_col_text(st, 3, out->name, sizeof out->name);
        db_col_text(st, 4, out->host_url, sizeof out->host_url);
        db_col_text(st, 5, out->secret_digest, sizeof out->secret_digest);
        out->revoked = sqlite3_column_int(st, 6) != 0;
        out->has_allow_list = sqlite3_column_int(st, 7) != 0;
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW ? STORE_OK : rc == SQLITE_DONE ? STORE_NOT_FOUND : db_log_error(s, "app_get");
}

int sq_app_list(struct store *s, json_t **out)
{
    static const char sql[] =
        "SELECT id AS app_id, CASE kind WHEN 1 THEN 'portal' ELSE 'installed' END AS kind, "
        "coalesce(portal_id, '') AS portal_id, name, host_url, revoked, "
        "(SELECT group_concat(cidr, ' ') FROM app_allow WHERE app_id = apps.id) AS allow_ip "
        "FROM apps ORDER BY created_at, rowid";
    return db_rows_json(s, db_stmt(s, sql), out);
}

/* Changes one row identified by id; STORE_NOT_FOUND when there is none. */
static int exec_one(struct store *s, const char *sql, const char *a, const char *id)
{
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    int i = 1;
    if (a)
        BIND_TEXT(st, i++, a);
    BIND_TEXT(st, i, id);
    int rc = db_exec_stmt(s, st);
    if (rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0)
        return STORE_NOT_FOUND;
    return rc;
}

int sq_app_revoke(struct store *s, const char *id)
{
    static const char sql[] = "UPDATE apps SET revoked = 1 WHERE id = ?";
    return exec_one(s, sql, NULL, id);
}

int sq_app_set_secret(struct store *s, const char *id, const char *digest)
{
    static const char sql[] = "UPDATE apps SET secret_digest = ? WHERE id = ?";
    return exec_one(s, sql, digest, id);
}

int sq_app_allow_add(struct store *s, const char *app_id, const char *cidr)
{
    static const char sql[] = "INSERT OR IGNORE INTO app_allow (app_id, cidr) VALUES (?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, app_id);
    BIND_TEXT(st, 2, cidr);
    return db_exec_stmt(s, st);
}

int sq_app_allow_list(struct store *s, const char *app_id, json_t **out)
{
    static const char sql[] = "SELECT cidr FROM app_allow WHERE app_id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, app_id);
    json_t *list = json_array();
    while (sqlite3_step(st) == SQLITE_ROW)
        json_array_append_new(list, json_string((const char *)sqlite3_column_text(st, 0)));
    sqlite3_reset(st);
    *out = list;
    return STORE_OK;
}

int sq_customer_create(struct store *s, const struct customer *c)
{
    static const char sql[] =
        "INSERT INTO customers (id, portal_id, name, email, company, phone, address, website, "
        "svc_ap, svc_op, svc_dns, svc_cdn, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    const char *texts[] = {c->id,      c->portal_id, c->name,    c->email,
                           c->company, c->phone,     c->address, c->website};
    for (int i = 0; i < 8; i++)
        BIND_TEXT(st, i + 1, texts[i]);
    sqlite3_bind_int(st, 9, c->svc_ap);
    sqlite3_bind_int(st, 10, c->svc_op);
    sqlite3_bind_int(st, 11, c->svc_dns);
    sqlite3_bind_int(st, 12, c->svc_cdn);
    sqlite3_bind_int64(st, 13, (sqlite3_int64)time(NULL));
    return db_exec_stmt(s, st);
}

int sq_customer_get(struct store *s, const char *id, struct customer *out)
{
    static const char sql[] = "SELECT id, portal_id, name, email, company, phone, address, website, "
                              "svc_ap, svc_op, svc_dns, svc_cdn FROM customers WHERE id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        db_col_text(st, 0, out->id, sizeof out->id);
        db_col_text(st, 1, out->portal_id, sizeof out->portal_id);
        db_col_text(st, 2, out->name, sizeof out->name);
        db_col_text(st, 3, out->email, sizeof out->email);
        db_col_text(st, 4, out->company, sizeof out->company);
        db_col_text(st, 5, out->phone, sizeof out->phone);
        db_col_text(st, 6, out->address, sizeof out->address);
        db_col_text(st, 7, out->website, sizeof out->website);
        out->svc_ap = sqlite3_column_int(st, 8);
        out->svc_op = sqlite3_column_int(st, 9);
        out->svc_dns = sqlite3_column_int(st, 10);
        out->svc_cdn = sqlite3_column_int(st, 11);
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW    ? STORE_OK
           : rc == SQLITE_DONE ? STORE_NOT_FOUND
                               : db_log_error(s, "customer_get");
}

int sq_customer_list(struct store *s, const char *portal_id, long offset, long limit, json_t **out,
                     long *total)
{
    static const char count_sql[] = "SELECT count(*) FROM customers WHERE ?1 IS NULL OR portal_id = ?1";
    static const char sql[] =
        "SELECT id, portal_id, name, email, company, phone, address, website, "
        "json_object('ap', svc_ap, 'op', svc_op, 'dns', svc_dns, 'cdn', svc_cdn) AS services "
        "FROM customers WHERE ?1 IS NULL OR portal_id = ?1 "
        "ORDER BY created_at, rowid LIMIT ?2 OFFSET ?3";
    sqlite3_stmt *st = db_stmt(s, count_sql);
    if (!st)
        return STORE_ERROR;
    if (portal_id)
        BIND_TEXT(st, 1, portal_id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        return db_log_error(s, "customer count");
    }
    *total = (long)sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (!(st = db_stmt(s, sql)))
        return STORE_ERROR;
    if (portal_id)
        BIND_TEXT(st, 1, portal_id);
    sqlite3_bind_int64(st, 2, limit);
    sqlite3_bind_int64(st, 3, offset);
    int rc = db_rows_json(s, st, out);
    if (rc != STORE_OK)
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

int sq_install_create(struct store *s, const struct installation *in)
{
    static const char sql[] = "INSERT INTO installations (id, app_id, customer_id, xspe_digest, created_at) "
                              "VALUES (?, ?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, in->id);
    BIND_TEXT(st, 2, in->app_id);
    BIND_TEXT(st, 3, in->customer_id);
    BIND_TEXT(st, 4, in->xspe_digest);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)time(NULL));
    return db_exec_stmt(s, st);
}

int sq_install_find(struct store *s, const char *app_id, const char *customer_id, struct installation *out)
{
    static const char sql[] = "SELECT id, app_id, customer_id, xspe_digest FROM installations "
                              "WHERE app_id = ? AND customer_id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, app_id);
    BIND_TEXT(st, 2, customer_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        db_col_text(st, 0, out->id, sizeof out->id);
        db_col_text(st, 1, out->app_id, sizeof out->app_id);
        db_col_text(st, 2, out->customer_id, sizeof out->customer_id);
        db_col_text(st, 3, out->xspe_digest, sizeof out->xspe_digest);
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW    ? STORE_OK
           : rc == SQLITE_DONE ? STORE_NOT_FOUND
                               : db_log_error(s, "install_find");
}

int sq_install_list(struct store *s, json_t **out)
{
    static const char sql[] =
        "SELECT id AS installation_id, app_id, customer_id FROM installations ORDER BY created_at, rowid";
    return db_rows_json(s, db_stmt(s, sql), out);
}
