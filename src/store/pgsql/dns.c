/* pgsql/dns.c — DNS Protection zones and their master servers, and the
 * deployer's view of them, in PostgreSQL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "store/pgsql/db.h"
#include "store/store_text.h"

#define ZONE_COLUMNS                                                                                         \
    "id, customer_id, name, origin_name, is_zone_transfer, enable_dnssec, enable_root_cname, "               \
    "multi_signer_enabled, multi_signer_ips, deploy_state, deploy_reason"

static int insert_masters(struct store *s, const struct dns_zone *z)
{
    static const char del[] = "DELETE FROM dns_master_servers WHERE zone_id = $1";
    static const char ins[] =
        "INSERT INTO dns_master_servers (zone_id, position, ip, key_name, secret, algorithm) "
        "VALUES ($1, $2, $3, $4, $5, $6)";
    struct pg_params a = {0};
    pp_int(&a, z->id);
    int rc = pg_exec(s, del, &a, NULL);
    for (int i = 0; i < z->n_masters && rc == STORE_OK; i++) {
        const struct dns_master *m = &z->masters[i];
        struct pg_params p = {0};
        pp_int(&p, z->id);
        pp_int(&p, i);
        pp_text(&p, m->ip);
        pp_text(&p, m->key_name);
        pp_text(&p, m->secret);
        pp_text(&p, m->algorithm);
        rc = pg_exec(s, ins, &p, NULL);
    }
    return rc;
}

int pg_dns_zone_create(struct store *s, struct dns_zone *z)
{
    static const char taken[] = "SELECT 1 FROM dns_zones WHERE name = $1";
    /* the name is free (checked under the write lock), so nothing inserted
     * means an id collision: draw again */
    static const char ins[] =
        "INSERT INTO dns_zones (id, customer_id, name, origin_name, is_zone_transfer, enable_dnssec, "
        "enable_root_cname, multi_signer_enabled, multi_signer_ips, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (id) DO NOTHING";
    struct pg_params a = {0};
    pp_text(&a, z->name);
    PGresult *r;
    int rc = pg_one(s, taken, &a, &r);
    PQclear(r);
    if (rc == STORE_OK)
        return STORE_CONFLICT;
    if (rc != STORE_NOT_FOUND)
        return rc;
    char *signers = dns_signers_text(z);
    long inserted = 0;
    rc = STORE_OK;
    for (int attempt = 0; attempt < 4 && rc == STORE_OK && inserted == 0; attempt++) {
        z->id = random_id53();
        struct pg_params p = {0};
        pp_int(&p, z->id);
        pp_text(&p, z->customer_id);
        pp_text(&p, z->name);
        pp_text(&p, z->origin_name);
        pp_int(&p, z->is_zone_transfer);
        pp_int(&p, z->enable_dnssec);
        pp_int(&p, z->enable_root_cname);
        pp_int(&p, z->multi_signer_enabled);
        pp_text(&p, signers);
        pp_int(&p, (int64_t)time(NULL));
        rc = pg_exec(s, ins, &p, &inserted);
    }
    free(signers);
    if (rc == STORE_OK && inserted == 0)
        rc = STORE_ERROR;
    if (rc == STORE_OK)
        rc = insert_masters(s, z);
    if (rc == STORE_OK)
        snprintf(z->deploy_state, sizeof z->deploy_state, "%s", DNS_STATE_PENDING);
    return rc == STORE_CONFLICT ? STORE_ERROR : rc;
}

static int load_masters(struct store *s, struct dns_zone *z)
{
    static const char sql[] = "SELECT ip, key_name, secret, algorithm FROM dns_master_servers "
                              "WHERE zone_id = $1 ORDER BY position";
    struct pg_params a = {0};
    pp_int(&a, z->id);
    int rc;
    PGresult *r = pg_query(s, sql, &a, &rc);
    if (!r)
        return rc;
    z->n_masters = 0;
    for (int i = 0; i < PQntuples(r) && z->n_masters < DNS_MAX_MASTERS; i++) {
        struct dns_master *m = &z->masters[z->n_masters++];
        pg_text(r, i, 0, m->ip, sizeof m->ip);
        pg_text(r, i, 1, m->key_name, sizeof m->key_name);
        pg_text(r, i, 2, m->secret, sizeof m->secret);
        pg_text(r, i, 3, m->algorithm, sizeof m->algorithm);
    }
    PQclear(r);
    return STORE_OK;
}

int pg_dns_zone_get(struct store *s, const char *customer_id, const char *name, struct dns_zone *out)
{
    static const char sql[] = "SELECT " ZONE_COLUMNS " FROM dns_zones WHERE customer_id = $1 AND name = $2";
    struct pg_params a = {0};
    pp_text(&a, customer_id);
    pp_text(&a, name);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc != STORE_OK)
        return rc;
    memset(out, 0, sizeof *out);
    out->id = pg_int(r, 0, 0);
    pg_text(r, 0, 1, out->customer_id, sizeof out->customer_id);
    pg_text(r, 0, 2, out->name, sizeof out->name);
    pg_text(r, 0, 3, out->origin_name, sizeof out->origin_name);
    out->is_zone_transfer = pg_int(r, 0, 4);
    out->enable_dnssec = pg_int(r, 0, 5);
    out->enable_root_cname = pg_int(r, 0, 6);
    out->multi_signer_enabled = pg_int(r, 0, 7);
    dns_signers_from_text(out, PQgetvalue(r, 0, 8));
    pg_text(r, 0, 9, out->deploy_state, sizeof out->deploy_state);
    pg_text(r, 0, 10, out->deploy_reason, sizeof out->deploy_reason);
    PQclear(r);
    return load_masters(s, out);
}

int pg_dns_zone_count(struct store *s, const char *customer_id, long *count)
{
    static const char sql[] = "SELECT count(*) FROM dns_zones WHERE customer_id = $1";
    struct pg_params a = {0};
    pp_text(&a, customer_id);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    *count = rc == STORE_OK ? (long)pg_int(r, 0, 0) : 0;
    PQclear(r);
    return rc == STORE_NOT_FOUND ? STORE_ERROR : rc;
}

int pg_dns_zone_list(struct store *s, const char *customer_id, const struct dns_zone_query *q, json_t **out,
                     long *total)
{
#define DNS_LIST_WHERE                                                                                       \
    "FROM dns_zones WHERE customer_id = $1 AND ($2::text IS NULL OR name LIKE $2 ESCAPE '\\' "               \
    "OR lower(origin_name) LIKE $2 ESCAPE '\\') "
#define DNS_LIST_SELECT                                                                                      \
    "SELECT id, name AS zone_name, is_zone_transfer, enable_dnssec, enable_root_cname " DNS_LIST_WHERE
    static const char count_sql[] = "SELECT count(*) " DNS_LIST_WHERE;
    static const char asc_sql[] = DNS_LIST_SELECT "ORDER BY name ASC LIMIT $3 OFFSET $4";
    static const char desc_sql[] = DNS_LIST_SELECT "ORDER BY name DESC LIMIT $3 OFFSET $4";
    char pattern[2 * DNS_ORIGIN_NAME_MAX + 3];
    if (q->search)
        dns_like_pattern(q->search, pattern, sizeof pattern);
    *out = NULL;
    struct pg_params a = {0};
    pp_text(&a, customer_id);
    pp_text(&a, q->search ? pattern : NULL);
    PGresult *r;
    int rc = pg_one(s, count_sql, &a, &r);
    *total = rc == STORE_OK ? (long)pg_int(r, 0, 0) : 0;
    PQclear(r);
    if (rc != STORE_OK)
        return STORE_ERROR;
    pp_int(&a, q->limit);
    pp_int(&a, q->offset);
    return pg_rows_json(s, q->descending ? desc_sql : asc_sql, &a, out);
}

int pg_dns_zone_save(struct store *s, const struct dns_zone *z)
{
    static const char sql[] =
        "UPDATE dns_zones SET enable_dnssec = $1, enable_root_cname = $2, multi_signer_enabled = $3, "
        "multi_signer_ips = $4, generation = generation + 1, deploy_state = 'pending', deploy_reason = '', "
        "updated_at = $5 WHERE id = $6";
    char *signers = dns_signers_text(z);
    struct pg_params a = {0};
    pp_int(&a, z->enable_dnssec);
    pp_int(&a, z->enable_root_cname);
    pp_int(&a, z->multi_signer_enabled);
    pp_text(&a, signers);
    pp_int(&a, (int64_t)time(NULL));
    pp_int(&a, z->id);
    long n;
    int rc = pg_exec(s, sql, &a, &n);
    free(signers);
    if (rc == STORE_OK && n == 0)
        return STORE_NOT_FOUND;
    return rc == STORE_OK ? insert_masters(s, z) : rc;
}

int pg_dns_zone_delete(struct store *s, int64_t id)
{
    static const char zone[] = "DELETE FROM dns_zones WHERE id = $1"; /* masters go with it (cascade) */
    struct pg_params a = {0};
    pp_int(&a, id);
    long n;
    int rc = pg_exec(s, zone, &a, &n);
    return rc == STORE_OK && n == 0 ? STORE_NOT_FOUND : rc;
}

int pg_dns_key_find(struct store *s, const char *key_name, int64_t except_zone, struct dns_master *out)
{
    static const char sql[] = "SELECT ip, key_name, secret, algorithm FROM dns_master_servers "
                              "WHERE key_name = $1 AND zone_id <> $2 LIMIT 1";
    struct pg_params a = {0};
    pp_text(&a, key_name);
    pp_int(&a, except_zone);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc == STORE_OK) {
        pg_text(r, 0, 0, out->ip, sizeof out->ip);
        pg_text(r, 0, 1, out->key_name, sizeof out->key_name);
        pg_text(r, 0, 2, out->secret, sizeof out->secret);
        pg_text(r, 0, 3, out->algorithm, sizeof out->algorithm);
        PQclear(r);
    }
    return rc;
}

/* ---- the deployer's view ---- */

static json_t *master_json(const PGresult *r, int i)
{
    json_t *m = json_pack("{s:s}", "ip", PQgetvalue(r, i, 1));
    const char *key = PQgetvalue(r, i, 2);
    if (*key)
        json_object_update_new(m, json_pack("{s:s,s:s,s:s}", "key_name", key, "secret", PQgetvalue(r, i, 3),
                                            "algorithm", PQgetvalue(r, i, 4)));
    return m;
}

int pg_dns_deploy_snapshot(struct store *s, json_t **out)
{
    static const char zones_sql[] =
        "SELECT id, generation, deploy_state, deployed_spec, name, is_zone_transfer, enable_dnssec, "
        "enable_root_cname, multi_signer_enabled, multi_signer_ips, customer_id, deploy_reason "
        "FROM dns_zones ORDER BY name";
    static const char masters_sql[] =
        "SELECT zone_id, ip, key_name, secret, algorithm FROM dns_master_servers ORDER BY zone_id, position";
    *out = NULL;
    int rc;
    PGresult *r = pg_query(s, zones_sql, NULL, &rc);
    if (!r)
        return rc;
    json_t *zones = json_array(), *by_id = json_object();
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *spec = json_pack("{s:s,s:b,s:b,s:b,s:{s:b,s:o},s:[]}", "name", PQgetvalue(r, i, 4),
                                 "zone_transfer", (int)pg_int(r, i, 5), "dnssec", (int)pg_int(r, i, 6),
                                 "root_cname", (int)pg_int(r, i, 7), "multi_signer", "enabled",
                                 (int)pg_int(r, i, 8), "ip", json_loads(PQgetvalue(r, i, 9), 0, NULL), "masters");
        json_t *zone = json_pack("{s:I,s:I,s:s,s:s,s:s,s:o,s:o}", "id", (json_int_t)pg_int(r, i, 0), "generation",
                                 (json_int_t)pg_int(r, i, 1), "state", PQgetvalue(r, i, 2), "reason",
                                 PQgetvalue(r, i, 11), "customer_id", PQgetvalue(r, i, 10), "spec", spec,
                                 "deployed",
                                 PQgetisnull(r, i, 3) ? json_null() : json_loads(PQgetvalue(r, i, 3), 0, NULL));
        json_object_set(by_id, PQgetvalue(r, i, 0), spec);
        json_array_append_new(zones, zone);
    }
    PQclear(r);
    if ((r = pg_query(s, masters_sql, NULL, &rc))) {
        for (int i = 0; i < PQntuples(r); i++)
            json_array_append_new(json_object_get(json_object_get(by_id, PQgetvalue(r, i, 0)), "masters"),
                                  master_json(r, i));
        PQclear(r);
    }
    json_decref(by_id);
    if (rc != STORE_OK) {
        json_decref(zones);
        return rc;
    }
    *out = zones;
    return STORE_OK;
}

int pg_dns_deploy_mark(struct store *s, int64_t id, int64_t generation, const char *state, const char *reason,
                       const char *deployed_spec)
{
    static const char sql[] = "UPDATE dns_zones SET deploy_state = $1, deploy_reason = $2, "
                              "deployed_spec = coalesce($3, deployed_spec) WHERE id = $4 AND generation = $5";
    struct pg_params a = {0};
    pp_text(&a, state);
    pp_text(&a, reason ? reason : "");
    pp_text(&a, deployed_spec);
    pp_int(&a, id);
    pp_int(&a, generation);
    return pg_exec(s, sql, &a, NULL);
}
