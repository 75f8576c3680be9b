/* sqlite/dns.c — DNS Protection zones and their master servers, and the
 * deployer's view of them, in SQLite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "store/sqlite/db.h"
#include "store/store_text.h"

static const char zone_columns[] =
    "id, customer_id, name, origin_name, is_zone_transfer, enable_dnssec, enable_root_cname, "
    "multi_signer_enabled, multi_signer_ips, deploy_state, deploy_reason";

static int insert_masters(struct store *s, const struct dns_zone *z)
{
    static const char del[] = "DELETE FROM dns_master_servers WHERE zone_id = ?";
    static const char ins[] =
        "INSERT INTO dns_master_servers (zone_id, position, ip, key_name, secret, algorithm) "
        "VALUES (?, ?, ?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, del);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, z->id);
    int rc = db_exec_stmt(s, st);
    for (int i = 0; i < z->n_masters && rc == STORE_OK; i++) {
        const struct dns_master *m = &z->masters[i];
        if (!(st = db_stmt(s, ins)))
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, z->id);
        sqlite3_bind_int(st, 2, i);
        BIND_TEXT(st, 3, m->ip);
        BIND_TEXT(st, 4, m->key_name);
        BIND_TEXT(st, 5, m->secret);
        BIND_TEXT(st, 6, m->algorithm);
        rc = db_exec_stmt(s, st);
    }
    return rc;
}

int sq_dns_zone_create(struct store *s, struct dns_zone *z)
{
    static const char taken[] = "SELECT 1 FROM dns_zones WHERE name = ?";
    static const char ins[] =
        "INSERT INTO dns_zones (id, customer_id, name, origin_name, is_zone_transfer, enable_dnssec, "
        "enable_root_cname, multi_signer_enabled, multi_signer_ips, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, taken);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, z->name);
    int step = sqlite3_step(st);
    sqlite3_reset(st);
    if (step == SQLITE_ROW)
        return STORE_CONFLICT;
    if (step != SQLITE_DONE)
        return db_log_error(s, "dns_zone_create");
    char *signers = dns_signers_text(z);
    int rc = STORE_CONFLICT;
    /* The name is free, so a conflict here is an id collision: draw again. */
    for (int attempt = 0; attempt < 4 && rc == STORE_CONFLICT; attempt++) {
        if (!(st = db_stmt(s, ins))) {
            rc = STORE_ERROR;
            break;
        }
        z->id = random_id53();
        int64_t now = (int64_t)time(NULL);
        sqlite3_bind_int64(st, 1, z->id);
        BIND_TEXT(st, 2, z->customer_id);
        BIND_TEXT(st, 3, z->name);
        BIND_TEXT(st, 4, z->origin_name);
        sqlite3_bind_int(st, 5, z->is_zone_transfer);
        sqlite3_bind_int(st, 6, z->enable_dnssec);
        sqlite3_bind_int(st, 7, z->enable_root_cname);
        sqlite3_bind_int(st, 8, z->multi_signer_enabled);
        BIND_TEXT(st, 9, signers);
        sqlite3_bind_int64(st, 10, now);
        sqlite3_bind_int64(st, 11, now);
        rc = db_exec_stmt(s, st);
    }
    free(signers);
    if (rc == STORE_OK)
        rc = insert_masters(s, z);
    if (rc == STORE_OK)
        snprintf(z->deploy_state, sizeof z->deploy_state, "%s", DNS_STATE_PENDING);
    return rc == STORE_CONFLICT ? STORE_ERROR : rc;
}

static int load_masters(struct store *s, struct dns_zone *z)
{
    static const char sql[] = "SELECT ip, key_name, secret, algorithm FROM dns_master_servers "
                              "WHERE zone_id = ? ORDER BY position";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, z->id);
    int rc;
    z->n_masters = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && z->n_masters < DNS_MAX_MASTERS) {
        struct dns_master *m = &z->masters[z->n_masters++];
        db_col_text(st, 0, m->ip, sizeof m->ip);
        db_col_text(st, 1, m->key_name, sizeof m->key_name);
        db_col_text(st, 2, m->secret, sizeof m->secret);
        db_col_text(st, 3, m->algorithm, sizeof m->algorithm);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? STORE_OK : db_log_error(s, "dns masters");
}

int sq_dns_zone_get(struct store *s, const char *customer_id, const char *name, struct dns_zone *out)
{
    static char sql[256];
    if (!sql[0]) /* built once; the statement cache keys on this address */
        snprintf(sql, sizeof sql, "SELECT %s FROM dns_zones WHERE customer_id = ? AND name = ?",
                 zone_columns);
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, customer_id);
    BIND_TEXT(st, 2, name);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        out->id = sqlite3_column_int64(st, 0);
        db_col_text(st, 1, out->customer_id, sizeof out->customer_id);
        db_col_text(st, 2, out->name, sizeof out->name);
        db_col_text(st, 3, out->origin_name, sizeof out->origin_name);
        out->is_zone_transfer = sqlite3_column_int(st, 4);
        out->enable_dnssec = sqlite3_column_int(st, 5);
        out->enable_root_cname = sqlite3_column_int(st, 6);
        out->multi_signer_enabled = sqlite3_column_int(st, 7);
        dns_signers_from_text(out, (const char *)sqlite3_column_text(st, 8));
        db_col_text(st, 9, out->deploy_state, sizeof out->deploy_state);
        db_col_text(st, 10, out->deploy_reason, sizeof out->deploy_reason);
    }
    sqlite3_reset(st);
    rc = db_row_result(s, rc, "dns_zone_get");
    return rc == STORE_OK ? load_masters(s, out) : rc;
}

int sq_dns_zone_count(struct store *s, const char *customer_id, long *count)
{
    static const char sql[] = "SELECT count(*) FROM dns_zones WHERE customer_id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, customer_id);
    int rc = sqlite3_step(st);
    *count = rc == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    return rc == SQLITE_ROW ? STORE_OK : db_log_error(s, "dns_zone_count");
}

int sq_dns_zone_list(struct store *s, const char *customer_id, const struct dns_zone_query *q, json_t **out,
                     long *total)
{
#define DNS_LIST_WHERE                                                                                       \
    "FROM dns_zones WHERE customer_id = ?1 AND (?2 IS NULL OR name LIKE ?2 ESCAPE '\\' "                     \
    "OR lower(origin_name) LIKE ?2 ESCAPE '\\') "
#define DNS_LIST_SELECT                                                                                      \
    "SELECT id, name AS zone_name, is_zone_transfer, enable_dnssec, enable_root_cname " DNS_LIST_WHERE
    static const char count_sql[] = "SELECT count(*) " DNS_LIST_WHERE;
    static const char asc_sql[] = DNS_LIST_SELECT "ORDER BY name ASC LIMIT ?3 OFFSET ?4";
    static const char desc_sql[] = DNS_LIST_SELECT "ORDER BY name DESC LIMIT ?3 OFFSET ?4";
    char pattern[2 * DNS_ORIGIN_NAME_MAX + 3];
    if (q->search)
        dns_like_pattern(q->search, pattern, sizeof pattern);
    *out = NULL;
    sqlite3_stmt *st = db_stmt(s, count_sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, customer_id);
    if (q->search)
        BIND_TEXT(st, 2, pattern);
    int rc = sqlite3_step(st);
    *total = rc == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return db_log_error(s, "dns_zone_list");
    if (!(st = db_stmt(s, q->descending ? desc_sql : asc_sql)))
        return STORE_ERROR;
    BIND_TEXT(st, 1, customer_id);
    if (q->search)
        BIND_TEXT(st, 2, pattern);
    sqlite3_bind_int64(st, 3, q->limit);
    sqlite3_bind_int64(st, 4, q->offset);
    return db_rows_json(s, st, out);
}

int sq_dns_zone_save(struct store *s, const struct dns_zone *z)
{
    static const char sql[] =
        "UPDATE dns_zones SET enable_dnssec = ?, enable_root_cname = ?, multi_signer_enabled = ?, "
        "multi_signer_ips = ?, generation = generation + 1, deploy_state = 'pending', deploy_reason = '', "
        "updated_at = ? WHERE id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    char *signers = dns_signers_text(z);
    sqlite3_bind_int(st, 1, z->enable_dnssec);
    sqlite3_bind_int(st, 2, z->enable_root_cname);
    sqlite3_bind_int(st, 3, z->multi_signer_enabled);
    BIND_TEXT(st, 4, signers);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)time(NULL));
    sqlite3_bind_int64(st, 6, z->id);
    int rc = db_exec_stmt(s, st);
    free(signers);
    if (rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0)
        return STORE_NOT_FOUND;
    return rc == STORE_OK ? insert_masters(s, z) : rc;
}

int sq_dns_zone_delete(struct store *s, int64_t id)
{
    static const char masters[] = "DELETE FROM dns_master_servers WHERE zone_id = ?";
    static const char zone[] = "DELETE FROM dns_zones WHERE id = ?";
    sqlite3_stmt *st = db_stmt(s, masters);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, id);
    int rc = db_exec_stmt(s, st);
    if (rc != STORE_OK || !(st = db_stmt(s, zone)))
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, id);
    rc = db_exec_stmt(s, st);
    if (rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0)
        return STORE_NOT_FOUND;
    return rc;
}

int sq_dns_key_find(struct store *s, const char *key_name, int64_t except_zone, struct dns_master *out)
{
    static const char sql[] = "SELECT ip, key_name, secret, algorithm FROM dns_master_servers "
                              "WHERE key_name = ? AND zone_id <> ? LIMIT 1";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, key_name);
    sqlite3_bind_int64(st, 2, except_zone);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        db_col_text(st, 0, out->ip, sizeof out->ip);
        db_col_text(st, 1, out->key_name, sizeof out->key_name);
        db_col_text(st, 2, out->secret, sizeof out->secret);
        db_col_text(st, 3, out->algorithm, sizeof out->algorithm);
    }
    sqlite3_reset(st);
    return db_row_result(s, rc, "dns_key_find");
}

/* ---- the deployer's view ---- */

static json_t *master_json(sqlite3_stmt *st)
{
    json_t *m = json_pack("{s:s}", "ip", (const char *)sqlite3_column_text(st, 1));
    const char *key = (const char *)sqlite3_column_text(st, 2);
    if (key && *key)
        json_object_update_new(m, json_pack("{s:s,s:s,s:s}", "key_name", key, "secret",
                                            (const char *)sqlite3_column_text(st, 3), "algorithm",
                                            (const char *)sqlite3_column_text(st, 4)));
    return m;
}

int sq_dns_deploy_snapshot(struct store *s, json_t **out)
{
    static const char zones_sql[] =
        "SELECT id, generation, deploy_state, deployed_spec, name, is_zone_transfer, enable_dnssec, "
        "enable_root_cname, multi_signer_enabled, multi_signer_ips, customer_id, deploy_reason "
        "FROM dns_zones ORDER BY name";
    static const char masters_sql[] =
        "SELECT zone_id, ip, key_name, secret, algorithm FROM dns_master_servers "
        "ORDER BY zone_id, position";
    *out = NULL;
    sqlite3_stmt *st = db_stmt(s, zones_sql);
    if (!st)
        return STORE_ERROR;
    json_t *zones = json_array(), *by_id = json_object();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *deployed = (const char *)sqlite3_column_text(st, 3);
        json_t *spec = json_pack(
            "{s:s,s:b,s:b,s:b,s:{s:b,s:o},s:[]}", "name", (const char *)sqlite3_column_text(st, 4),
            "zone_transfer", sqlite3_column_int(st, 5), "dnssec", sqlite3_column_int(st, 6), "root_cname",
            sqlite3_column_int(st, 7), "multi_signer", "enabled", sqlite3_column_int(st, 8), "ip",
            json_loads((const char *)sqlite3_column_text(st, 9), 0, NULL), "masters");
        json_t *zone = json_pack(
            "{s:I,s:I,s:s,s:s,s:s,s:o,s:o}", "id", (json_int_t)sqlite3_column_int64(st, 0), "generation",
            (json_int_t)sqlite3_column_int64(st, 1), "state", (const char *)sqlite3_column_text(st, 2),
            "reason", (const char *)sqlite3_column_text(st, 11), "customer_id",
            (const char *)sqlite3_column_text(st, 10), "spec", spec, "deployed",
            deployed ? json_loads(deployed, 0, NULL) : json_null());
        char key[24];
        snprintf(key, sizeof key, "%lld", (long long)sqlite3_column_int64(st, 0));
        json_object_set(by_id, key, spec);
        json_array_append_new(zones, zone);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_DONE && (st = db_stmt(s, masters_sql))) {
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            char key[24];
            snprintf(key, sizeof key, "%lld", (long long)sqlite3_column_int64(st, 0));
            json_array_append_new(json_object_get(json_object_get(by_id, key), "masters"), master_json(st));
        }
        sqlite3_reset(st);
    }
    json_decref(by_id);
    if (rc != SQLITE_DONE) {
        json_decref(zones);
        return db_log_error(s, "dns_deploy_snapshot");
    }
    *out = zones;
    return STORE_OK;
}

int sq_dns_deploy_mark(struct store *s, int64_t id, int64_t generation, const char *state, const char *reason,
                       const char *deployed_spec)
{
    static const char sql[] = "UPDATE dns_zones SET deploy_state = ?, deploy_reason = ?, "
                              "deployed_spec = coalesce(?, deployed_spec) WHERE id = ? AND generation = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, state);
    BIND_TEXT(st, 2, reason ? reason : "");
    if (deployed_spec)
        BIND_TEXT(st, 3, deployed_spec);
    sqlite3_bind_int64(st, 4, id);
    sqlite3_bind_int64(st, 5, generation);
    return db_exec_stmt(s, st);
}
