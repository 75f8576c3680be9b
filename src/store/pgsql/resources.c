/* pgsql/resources.c — the generic resource layer on PostgreSQL
 * (store/resource.h): one table for every kind, the document as json
 * (migration 003 says why not jsonb). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "store/pgsql/db.h"
#include "store/store_text.h"

#define RES_COLS                                                                                             \
    "r.rid, r.kind, r.id, r.customer_id, coalesce(r.parent_rid, 0), coalesce(r.name, ''), r.doc::text, "    \
    "r.created_at, r.updated_at, r.version"

/* Fills *out from row i of RES_COLS but its document (left NULL). */
static void row_head(const PGresult *res, int i, struct resource *out)
{
    memset(out, 0, sizeof *out);
    out->rid = pg_int(res, i, 0);
    pg_text(res, i, 1, out->kind, sizeof out->kind);
    pg_text(res, i, 2, out->id, sizeof out->id);
    pg_text(res, i, 3, out->customer_id, sizeof out->customer_id);
    out->parent_rid = pg_int(res, i, 4);
    pg_text(res, i, 5, out->name, sizeof out->name);
    out->created_at = pg_int(res, i, 7);
    out->updated_at = pg_int(res, i, 8);
    out->version = pg_int(res, i, 9);
}

/* Fills *out from row i of RES_COLS (a stored document that does not parse
 * is a store error, never silently empty). */
static int row_resource(const PGresult *res, int i, struct resource *out)
{
    row_head(res, i, out);
    out->doc = json_loadb(PQgetvalue(res, i, 6), (size_t)PQgetlength(res, i, 6), 0, NULL);
    if (!json_is_object(out->doc)) {
        resource_clear(out);
        fprintf(stderr, "parapet: postgresql: resource %s %s: stored document is not a JSON object\n", out->kind,
                out->id);
        return STORE_ERROR;
    }
    return STORE_OK;
}

/* The next serial id of a kind: counters only grow, so an id is never reused. */
static int next_serial(struct store *s, const char *kind, char *out, size_t size)
{
    static const char sql[] = "INSERT INTO resource_serials (kind, last) VALUES ($1, 1) ON CONFLICT (kind) "
                              "DO UPDATE SET last = resource_serials.last + 1 RETURNING last";
    struct pg_params a = {0};
    pp_text(&a, kind);
    PGresult *r;
    int rc = pg_one(s, sql, &a, &r);
    if (rc == STORE_OK) {
        snprintf(out, size, "%lld", (long long)pg_int(r, 0, 0));
        PQclear(r);
    }
    return rc == STORE_NOT_FOUND ? STORE_ERROR : rc;
}

/* The parent must be the same customer's, and of the kind's parent kind. */
static int check_parent(struct store *s, const struct res_kind *k, const struct resource *r)
{
    static const char sql[] = "SELECT customer_id, kind FROM resources WHERE rid = $1";
    struct pg_params a = {0};
    pp_int(&a, r->parent_rid);
    PGresult *res;
    int rc = pg_one(s, sql, &a, &res);
    if (rc != STORE_OK)
        return rc;
    if (strcmp(PQgetvalue(res, 0, 0), r->customer_id) != 0 || (k->parent && strcmp(PQgetvalue(res, 0, 1), k->parent) != 0))
        rc = STORE_NOT_FOUND;
    PQclear(res);
    return rc;
}

int pg_res_create(struct store *s, const struct res_kind *k, struct resource *r)
{
    if (!k || strlen(k->name) > RES_KIND_MAX)
        return STORE_ERROR;
    snprintf(r->kind, sizeof r->kind, "%s", k->name);
    int rc;
    if (r->parent_rid && (rc = check_parent(s, k, r)) != STORE_OK)
        return rc;
    if (!r->id[0]) {
        if (k->serial_id) {
            if ((rc = next_serial(s, k->name, r->id, sizeof r->id)) != STORE_OK)
                return rc;
        } else {
            random_hex(r->id, ID_BYTES);
        }
    }
    char scope[40] = "";
    if (k->name_scope == RES_NAME_GLOBAL)
        snprintf(scope, sizeof scope, "g");
    else if (k->name_scope == RES_NAME_IN_PARENT && r->parent_rid)
        snprintf(scope, sizeof scope, "r:%lld", (long long)r->parent_rid);
    else if (k->name_scope == RES_NAME_IN_PARENT)
        snprintf(scope, sizeof scope, "c:%s", r->customer_id);
    static const char sql[] = "INSERT INTO resources (kind, id, customer_id, parent_rid, name, name_scope, "
                              "restricts, doc, created_at, updated_at, version) "
                              "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 1) RETURNING rid";
    char *doc = resource_doc_text(r->doc);
    if (!doc)
        return STORE_ERROR;
    int64_t now = (int64_t)time(NULL);
    struct pg_params a = {0};
    pp_text(&a, r->kind);
    pp_text(&a, r->id);
    pp_text(&a, r->customer_id);
    if (r->parent_rid)
        pp_int(&a, r->parent_rid);
    else
        pp_text(&a, NULL);
    pp_text(&a, r->name[0] ? r->name : NULL);
    pp_text(&a, scope[0] ? scope : NULL);
    pp_int(&a, k->restricts_parent);
    pp_text(&a, doc);
    pp_int(&a, now);
    PGresult *res;
    rc = pg_one(s, sql, &a, &res);
    free(doc);
    if (rc == STORE_OK) {
        r->rid = pg_int(res, 0, 0);
        r->created_at = r->updated_at = now;
        r->version = 1;
        PQclear(res);
    }
    return rc;
}

/* Whether row i passes q's filters (portal: column 10). */
static bool row_matches(const PGresult *res, int i, const struct res_query *q)
{
    if (q->customer_id && strcmp(PQgetvalue(res, i, 3), q->customer_id) != 0)
        return false;
    if (q->portal_id && (PQgetisnull(res, i, 10) || strcmp(PQgetvalue(res, i, 10), q->portal_id) != 0))
        return false;
    int64_t parent = pg_int(res, i, 4);
    if (q->parent_rid == RES_TOP_LEVEL)
        return parent == 0;
    return q->parent_rid == 0 || parent == q->parent_rid;
}

int pg_res_get(struct store *s, const struct res_query *q, const char *id, const char *name, struct resource *out)
{
    static const char by_id[] = "SELECT " RES_COLS ", c.portal_id FROM resources r "
                                "LEFT JOIN customers c ON c.id = r.customer_id WHERE r.kind = $1 AND r.id = $2";
    static const char by_name[] = "SELECT " RES_COLS ", c.portal_id FROM resources r "
                                  "LEFT JOIN customers c ON c.id = r.customer_id "
                                  "WHERE r.kind = $1 AND lower(r.name) = lower($2) ORDER BY r.rid";
    memset(out, 0, sizeof *out);
    if (!q->kind || (!id && !name))
        return STORE_NOT_FOUND;
    struct pg_params a = {0};
    pp_text(&a, q->kind);
    pp_text(&a, id ? id : name);
    int rc;
    PGresult *res = pg_query(s, id ? by_id : by_name, &a, &rc);
    if (!res)
        return rc;
    rc = STORE_NOT_FOUND;
    for (int i = 0; i < PQntuples(res); i++)
        if (row_matches(res, i, q)) {
            rc = STORE_OK;
            if (q->without_doc)
                row_head(res, i, out);
            else
                rc = row_resource(res, i, out);
            break;
        }
    PQclear(res);
    return rc;
}

int pg_res_get_rid(struct store *s, int64_t rid, struct resource *out)
{
    static const char sql[] = "SELECT " RES_COLS " FROM resources r WHERE r.rid = $1";
    memset(out, 0, sizeof *out);
    struct pg_params a = {0};
    pp_int(&a, rid);
    PGresult *res;
    int rc = pg_one(s, sql, &a, &res);
    if (rc == STORE_OK) {
        rc = row_resource(res, 0, out);
        PQclear(res);
    }
    return rc;
}

/* One integer column of the resource with this key (sql: its $1). */
static int column_by_rid(struct store *s, const char *sql, int64_t rid, int64_t *out)
{
    struct pg_params a = {0};
    pp_int(&a, rid);
    PGresult *res;
    int rc = pg_one(s, sql, &a, &res);
    if (rc == STORE_OK) {
        *out = pg_int(res, 0, 0);
        PQclear(res);
    }
    return rc;
}

int pg_res_version(struct store *s, int64_t rid, int64_t *version)
{
    return column_by_rid(s, "SELECT version FROM resources WHERE rid = $1", rid, version);
}

int pg_res_parent(struct store *s, int64_t rid, int64_t *parent_rid)
{
    return column_by_rid(s, "SELECT coalesce(parent_rid, 0) FROM resources WHERE rid = $1", rid, parent_rid);
}

int pg_res_update(struct store *s, struct resource *r)
{
    if (!r->doc) /* loaded without its document (res_query.without_doc): nothing to write back */
        return STORE_ERROR;
    static const char sql[] = "UPDATE resources SET name = $1, doc = $2, updated_at = $3, version = version + 1 "
                              "WHERE rid = $4 AND version = $5";
    char *doc = resource_doc_text(r->doc);
    if (!doc)
        return STORE_ERROR;
    int64_t now = (int64_t)time(NULL);
    struct pg_params a = {0};
    pp_text(&a, r->name[0] ? r->name : NULL);
    pp_text(&a, doc);
    pp_int(&a, now);
    pp_int(&a, r->rid);
    pp_int(&a, r->version);
    long n;
    int rc = pg_exec(s, sql, &a, &n);
    free(doc);
    if (rc == STORE_OK && n == 0)
        rc = STORE_CONFLICT; /* changed by someone else since it was read, or gone */
    if (rc == STORE_OK) {
        r->version++;
        r->updated_at = now;
    }
    return rc;
}

/* The resource and every descendant that does not restrict the delete. */
#define SUBTREE                                                                                              \
    "WITH RECURSIVE sub(rid) AS (SELECT $1::bigint UNION ALL SELECT r.rid FROM resources r JOIN sub ON "     \
    "r.parent_rid = sub.rid WHERE r.restricts = 0) "

int pg_res_delete(struct store *s, int64_t rid, json_t **blocker)
{
    static const char find_blocker[] = SUBTREE "SELECT kind, id FROM resources WHERE restricts = 1 AND "
                                               "parent_rid IN (SELECT rid FROM sub) ORDER BY rid LIMIT 1";
    static const char delete_sql[] = SUBTREE "DELETE FROM resources WHERE rid IN (SELECT rid FROM sub)";
    if (blocker)
        *blocker = NULL;
    struct pg_params a = {0};
    pp_int(&a, rid);
    PGresult *res;
    int rc = pg_one(s, find_blocker, &a, &res);
    if (rc == STORE_OK) {
        if (blocker)
            *blocker = json_pack("{s:s,s:s}", "kind", PQgetvalue(res, 0, 0), "id", PQgetvalue(res, 0, 1));
        PQclear(res);
        return STORE_CONFLICT;
    }
    if (rc != STORE_NOT_FOUND)
        return rc;
    long n;
    rc = pg_exec(s, delete_sql, &a, &n);
    return rc == STORE_OK && n == 0 ? STORE_NOT_FOUND : rc;
}

/* List queries: one statement per kind of filter, so that each uses its
 * index. $1 kind, $2 the filter's value, $3 the parent filter (0 any, -1
 * top level), $4 limit, $5 offset. */
#define PARENT_FILTER " AND ($3::bigint = 0 OR ($3 = -1 AND r.parent_rid IS NULL) OR r.parent_rid = $3)"
#define W_PARENT      " WHERE r.kind = $1 AND r.parent_rid = $3::bigint AND ($2::text IS NULL OR r.customer_id = $2)"
#define W_CUSTOMER    " WHERE r.kind = $1 AND r.customer_id = $2::text" PARENT_FILTER
#define W_PORTAL                                                                                             \
    " WHERE r.kind = $1 AND r.customer_id IN (SELECT id FROM customers WHERE portal_id = $2::text)" PARENT_FILTER
#define W_ANY    " WHERE r.kind = $1 AND $2::text IS NULL" PARENT_FILTER
#define PAGE     " ORDER BY r.rid LIMIT $4 OFFSET $5"
#define LIST(w)  "SELECT " RES_COLS " FROM resources r" w PAGE
#define COUNT(w) "SELECT count(*) FROM resources r" w

static const char list_parent[] = LIST(W_PARENT), count_parent[] = COUNT(W_PARENT);
static const char list_customer[] = LIST(W_CUSTOMER), count_customer[] = COUNT(W_CUSTOMER);
static const char list_portal[] = LIST(W_PORTAL), count_portal[] = COUNT(W_PORTAL);
static const char list_any[] = LIST(W_ANY), count_any[] = COUNT(W_ANY);

int pg_res_list(struct store *s, const struct res_query *q, json_t **out, long *total)
{
    *out = NULL;
    const char *list_sql = list_any, *count_sql = count_any, *value = NULL;
    if (q->parent_rid > 0) {
        list_sql = list_parent, count_sql = count_parent, value = q->customer_id;
    } else if (q->customer_id) {
        list_sql = list_customer, count_sql = count_customer, value = q->customer_id;
    } else if (q->portal_id) {
        list_sql = list_portal, count_sql = count_portal, value = q->portal_id;
    }
    struct pg_params a = {0};
    pp_text(&a, q->kind);
    pp_text(&a, value);
    pp_int(&a, q->parent_rid);
    PGresult *res;
    int rc = pg_one(s, count_sql, &a, &res);
    if (rc != STORE_OK)
        return rc == STORE_NOT_FOUND ? STORE_ERROR : rc;
    if (total)
        *total = (long)pg_int(res, 0, 0);
    PQclear(res);
    json_t *rows = json_array();
    if (q->limit > 0) {
        pp_int(&a, q->limit);
        pp_int(&a, q->offset);
        if (!(res = pg_query(s, list_sql, &a, &rc))) {
            json_decref(rows);
            return rc;
        }
        for (int i = 0; i < PQntuples(res) && rc == STORE_OK; i++) {
            struct resource r;
            if ((rc = row_resource(res, i, &r)) == STORE_OK) {
                json_array_append_new(rows, resource_row_json(&r));
                resource_clear(&r);
            }
        }
        PQclear(res);
    }
    if (rc != STORE_OK) {
        json_decref(rows);
        return rc;
    }
    *out = rows;
    return STORE_OK;
}

int pg_res_child_ints(struct store *s, int64_t parent_rid, const char *kind, const char *member, int64_t *out,
                      size_t max, size_t *n)
{
    /* doc is json: a number member whose text is all digits is an integer */
    static const char sql[] = "SELECT CASE WHEN json_typeof(doc -> $3) = 'number' "
                              "AND (doc ->> $3) ~ '^-?[0-9]{1,18}$' THEN (doc ->> $3)::bigint ELSE -1 END "
                              "FROM resources WHERE parent_rid = $1::bigint AND kind = $2 "
                              "ORDER BY rid LIMIT $4::bigint";
    *n = 0;
    struct pg_params a = {0};
    pp_int(&a, parent_rid);
    pp_text(&a, kind);
    pp_text(&a, member);
    pp_int(&a, (int64_t)max);
    int rc;
    PGresult *res = pg_query(s, sql, &a, &rc);
    if (!res)
        return rc;
    for (int i = 0; i < PQntuples(res) && *n < max; i++)
        out[(*n)++] = pg_int(res, i, 0);
    PQclear(res);
    return STORE_OK;
}
