/* sqlite/resources.c — the generic resource layer on SQLite (store/resource.h):
 * one table for every kind, the document as JSON text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "store/sqlite/db.h"
#include "store/store_text.h"

void resource_clear(struct resource *r)
{
    json_decref(r->doc);
    r->doc = NULL;
}

#define RES_COLS                                                                                             \
    "r.rid, r.kind, r.id, r.customer_id, r.parent_rid, r.name, r.doc, r.created_at, r.updated_at, r.version"

/* Fills *out from a row of RES_COLS but its document (left NULL). */
static void row_head(sqlite3_stmt *st, struct resource *out)
{
    memset(out, 0, sizeof *out);
    out->rid = sqlite3_column_int64(st, 0);
    db_col_text(st, 1, out->kind, sizeof out->kind);
    db_col_text(st, 2, out->id, sizeof out->id);
    db_col_text(st, 3, out->customer_id, sizeof out->customer_id);
    out->parent_rid = sqlite3_column_int64(st, 4);
    db_col_text(st, 5, out->name, sizeof out->name);
    out->created_at = sqlite3_column_int64(st, 7);
    out->updated_at = sqlite3_column_int64(st, 8);
    out->version = sqlite3_column_int64(st, 9);
}

/* Fills *out from a row of RES_COLS (doc parsed; a stored document that does
 * not parse is a store error, never silently empty). */
static int row_resource(struct store *s, sqlite3_stmt *st, struct resource *out)
{
    row_head(st, out);
    json_error_t e;
    out->doc =
        json_loadb((const char *)sqlite3_column_text(st, 6), (size_t)sqlite3_column_bytes(st, 6), 0, &e);
    if (!json_is_object(out->doc)) {
        resource_clear(out);
        fprintf(stderr, "parapet: sqlite: resource %s %s: stored document is not a JSON object\n", out->kind,
                out->id);
        (void)s;
        return STORE_ERROR;
    }
    return STORE_OK;
}

/* The next serial id of a kind: counters only grow, so an id is never reused. */
static int next_serial(struct store *s, const char *kind, char *out, size_t size)
{
    static const char sql[] = "INSERT INTO resource_serials (kind, last) VALUES (?1, 1) "
                              "ON CONFLICT (kind) DO UPDATE SET last = last + 1 RETURNING last";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, kind);
    int rc = db_row_result(s, sqlite3_step(st), "resource serial");
    if (rc == STORE_OK)
        snprintf(out, size, "%lld", (long long)sqlite3_column_int64(st, 0));
    sqlite3_reset(st);
    return rc;
}

int sq_res_create(struct store *s, const struct res_kind *k, struct resource *r)
{
    if (!k || strlen(k->name) > RES_KIND_MAX)
        return STORE_ERROR;
    snprintf(r->kind, sizeof r->kind, "%s", k->name);
    if (r->parent_rid) { /* the parent must be the same customer's */
        static const char sql[] = "SELECT customer_id, kind FROM resources WHERE rid = ?1";
        sqlite3_stmt *st = db_stmt(s, sql);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, r->parent_rid);
        int rc = db_row_result(s, sqlite3_step(st), "resource parent");
        if (rc == STORE_OK &&
            (strcmp((const char *)sqlite3_column_text(st, 0), r->customer_id) != 0 ||
             (k->parent && strcmp((const char *)sqlite3_column_text(st, 1), k->parent) != 0)))
            rc = STORE_NOT_FOUND;
        sqlite3_reset(st);
        if (rc != STORE_OK)
            return rc;
    }
    if (!r->id[0]) {
        if (k->serial_id) {
            int rc = next_serial(s, k->name, r->id, sizeof r->id);
            if (rc != STORE_OK)
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
    /* the rid above every rid there is or was (migration 005: never reused) */
    static const char sql[] = "INSERT INTO resources (rid, kind, id, customer_id, parent_rid, name, name_scope, "
                              "restricts, doc, created_at, updated_at, version) VALUES ("
                              "max(coalesce((SELECT max(rid) FROM resources), 0), "
                              "(SELECT rid FROM resource_rid_floor WHERE one = 1)) + 1, "
                              "?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, 1)";
    sqlite3_stmt *st = db_stmt(s, sql);
    char *doc = resource_doc_text(r->doc);
    if (!st || !doc) {
        free(doc);
        return STORE_ERROR;
    }
    int64_t now = (int64_t)time(NULL);
    BIND_TEXT(st, 1, r->kind);
    BIND_TEXT(st, 2, r->id);
    BIND_TEXT(st, 3, r->customer_id);
    if (r->parent_rid)
        sqlite3_bind_int64(st, 4, r->parent_rid);
    if (r->name[0])
        BIND_TEXT(st, 5, r->name);
    if (scope[0])
        BIND_TEXT(st, 6, scope);
    sqlite3_bind_int(st, 7, k->restricts_parent);
    BIND_TEXT(st, 8, doc);
    sqlite3_bind_int64(st, 9, now);
    int rc = db_exec_stmt(s, st);
    free(doc);
    if (rc == STORE_OK) {
        r->rid = sqlite3_last_insert_rowid(DB(s)->db);
        r->created_at = r->updated_at = now;
        r->version = 1;
    }
    return rc;
}

/* Whether a fetched row passes q's filters (portal: column 10). */
static bool row_matches(sqlite3_stmt *st, const struct res_query *q)
{
    if (q->customer_id && strcmp((const char *)sqlite3_column_text(st, 3), q->customer_id) != 0)
        return false;
    if (q->portal_id) {
        const unsigned char *p = sqlite3_column_text(st, 10);
        if (!p || strcmp((const char *)p, q->portal_id) != 0)
            return false;
    }
    int64_t parent = sqlite3_column_int64(st, 4);
    if (q->parent_rid == RES_TOP_LEVEL)
        return parent == 0;
    return q->parent_rid == 0 || parent == q->parent_rid;
}

int sq_res_get(struct store *s, const struct res_query *q, const char *id, const char *name,
               struct resource *out)
{
    static const char by_id[] =
        "SELECT " RES_COLS ", c.portal_id FROM resources r "
        "LEFT JOIN customers c ON c.id = r.customer_id WHERE r.kind = ?1 AND r.id = ?2";
    static const char by_name[] =
        "SELECT " RES_COLS ", c.portal_id FROM resources r "
        "LEFT JOIN customers c ON c.id = r.customer_id WHERE r.kind = ?1 AND r.name = ?2 "
        "ORDER BY r.rid";
    memset(out, 0, sizeof *out);
    if (!q->kind || (!id && !name))
        return STORE_NOT_FOUND;
    sqlite3_stmt *st = db_stmt(s, id ? by_id : by_name);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, q->kind);
    BIND_TEXT(st, 2, id ? id : name);
    int rc, step;
    for (;;) {
        step = sqlite3_step(st);
        if (step != SQLITE_ROW) {
            rc = db_row_result(s, step, "resource get");
            break;
        }
        if (row_matches(st, q)) {
            rc = STORE_OK;
            if (q->without_doc)
                row_head(st, out);
            else
                rc = row_resource(s, st, out);
            break;
        }
    }
    sqlite3_reset(st);
    return rc;
}

int sq_res_get_rid(struct store *s, int64_t rid, struct resource *out)
{
    static const char sql[] = "SELECT " RES_COLS ", c.portal_id FROM resources r "
                              "LEFT JOIN customers c ON c.id = r.customer_id WHERE r.rid = ?1";
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int step = sqlite3_step(st);
    int rc = step == SQLITE_ROW ? row_resource(s, st, out) : db_row_result(s, step, "resource get by rid");
    sqlite3_reset(st);
    return rc;
}

/* One integer column of the resource with this key (sql: its ?1). */
static int column_by_rid(struct store *s, const char *sql, int64_t rid, int64_t *out, const char *what)
{
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int step = sqlite3_step(st);
    int rc = step == SQLITE_ROW ? STORE_OK : db_row_result(s, step, what);
    if (rc == STORE_OK)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return rc;
}

int sq_res_version(struct store *s, int64_t rid, int64_t *version)
{
    return column_by_rid(s, "SELECT version FROM resources WHERE rid = ?1", rid, version, "resource version");
}

int sq_res_parent(struct store *s, int64_t rid, int64_t *parent_rid)
{
    return column_by_rid(s, "SELECT coalesce(parent_rid, 0) FROM resources WHERE rid = ?1", rid, parent_rid,
                         "resource parent");
}

int sq_res_update(struct store *s, struct resource *r)
{
    if (!r->doc) /* loaded without its document (res_query.without_doc): nothing to write back */
        return STORE_ERROR;
    static const char sql[] =
        "UPDATE resources SET name = ?1, doc = ?2, updated_at = ?3, version = version + 1 "
        "WHERE rid = ?4 AND version = ?5";
    sqlite3_stmt *st = db_stmt(s, sql);
    char *doc = resource_doc_text(r->doc);
    if (!st || !doc) {
        free(doc);
        return STORE_ERROR;
    }
    int64_t now = (int64_t)time(NULL);
    if (r->name[0])
        BIND_TEXT(st, 1, r->name);
    BIND_TEXT(st, 2, doc);
    sqlite3_bind_int64(st, 3, now);
    sqlite3_bind_int64(st, 4, r->rid);
    sqlite3_bind_int64(st, 5, r->version);
    int rc = db_exec_stmt(s, st);
    free(doc);
    if (rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0)
        rc = STORE_CONFLICT; /* changed by someone else since it was read, or gone */
    if (rc == STORE_OK) {
        r->version++;
        r->updated_at = now;
    }
    return rc;
}

/* The resource and every descendant that does not restrict the delete. */
#define SUBTREE                                                                                              \
    "WITH RECURSIVE sub(rid) AS (SELECT ?1 UNION ALL SELECT r.rid FROM resources r JOIN sub ON "             \
    "r.parent_rid = "                                                                                        \
    "sub.rid WHERE r.restricts = 0) "

int sq_res_delete(struct store *s, int64_t rid, json_t **blocker)
{
    static const char find_blocker[] = SUBTREE "SELECT kind, id FROM resources WHERE restricts = 1 AND "
                                               "parent_rid IN (SELECT rid FROM sub) ORDER BY rid LIMIT 1";
    static const char delete_sql[] = "DELETE FROM resources WHERE rid IN (" SUBTREE "SELECT rid FROM sub)";
    if (blocker)
        *blocker = NULL;
    sqlite3_stmt *st = db_stmt(s, find_blocker);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = db_row_result(s, sqlite3_step(st), "resource delete check");
    if (rc == STORE_OK && blocker)
        *blocker = json_pack("{s:s,s:s}", "kind", (const char *)sqlite3_column_text(st, 0), "id",
                             (const char *)sqlite3_column_text(st, 1));
    sqlite3_reset(st);
    if (rc == STORE_OK)
        return STORE_CONFLICT;
    if (rc != STORE_NOT_FOUND)
        return rc;
    st = db_stmt(s, delete_sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    rc = db_exec_stmt(s, st);
    if (rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0)
        rc = STORE_NOT_FOUND;
    return rc;
}

/* List queries: one statement per kind of filter, so that each uses its
 * index (an OR of optional filters would scan). ?1 kind, ?2 the filter's
 * value, ?3 the parent filter (0 any, -1 top level), ?4 limit, ?5 offset. */
#define PARENT_FILTER " AND (?3 = 0 OR (?3 = -1 AND r.parent_rid IS NULL) OR r.parent_rid = ?3)"
#define W_PARENT      " WHERE r.kind = ?1 AND r.parent_rid = ?3 AND (?2 IS NULL OR r.customer_id = ?2)"
#define W_CUSTOMER    " WHERE r.kind = ?1 AND r.customer_id = ?2" PARENT_FILTER
#define W_PORTAL                                                                                             \
    " WHERE r.kind = ?1 AND r.customer_id IN (SELECT id FROM customers WHERE portal_id = ?2)" PARENT_FILTER
#define W_ANY    " WHERE r.kind = ?1 AND ?2 IS NULL" PARENT_FILTER
#define PAGE     " ORDER BY r.rid LIMIT ?4 OFFSET ?5"
#define LIST(w)  "SELECT " RES_COLS " FROM resources r" w PAGE
#define COUNT(w) "SELECT COUNT(*) FROM resources r" w

static const char list_parent[] = LIST(W_PARENT), count_parent[] = COUNT(W_PARENT);
static const char list_customer[] = LIST(W_CUSTOMER), count_customer[] = COUNT(W_CUSTOMER);
static const char list_portal[] = LIST(W_PORTAL), count_portal[] = COUNT(W_PORTAL);
static const char list_any[] = LIST(W_ANY), count_any[] = COUNT(W_ANY);

static void bind_list(sqlite3_stmt *st, const struct res_query *q, const char *value, bool paged)
{
    BIND_TEXT(st, 1, q->kind);
    if (value)
        BIND_TEXT(st, 2, value);
    sqlite3_bind_int64(st, 3, q->parent_rid);
    if (paged) {
        sqlite3_bind_int64(st, 4, q->limit);
        sqlite3_bind_int64(st, 5, q->offset);
    }
}

int sq_res_list(struct store *s, const struct res_query *q, json_t **out, long *total)
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
    sqlite3_stmt *st = db_stmt(s, count_sql);
    if (!st)
        return STORE_ERROR;
    bind_list(st, q, value, false);
    int rc = db_row_result(s, sqlite3_step(st), "resource count");
    if (rc == STORE_OK && total)
        *total = (long)sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != STORE_OK)
        return rc;
    json_t *rows = json_array();
    if (q->limit > 0) {
        st = db_stmt(s, list_sql);
        if (!st) {
            json_decref(rows);
            return STORE_ERROR;
        }
        bind_list(st, q, value, true);
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            struct resource r;
            if ((rc = row_resource(s, st, &r)) != STORE_OK)
                break;
            json_array_append_new(rows, resource_row_json(&r));
            resource_clear(&r);
        }
        if (rc == STORE_OK && step != SQLITE_DONE)
            rc = db_log_error(s, "resource list");
        sqlite3_reset(st);
    }
    if (rc != STORE_OK) {
        json_decref(rows);
        return rc;
    }
    *out = rows;
    return STORE_OK;
}

int sq_res_child_ints(struct store *s, int64_t parent_rid, const char *kind, const char *member, int64_t *out,
                      size_t max, size_t *n)
{
    static const char sql[] = "SELECT CASE WHEN json_type(doc, '$.' || ?3) = 'integer' "
                              "THEN json_extract(doc, '$.' || ?3) ELSE -1 END FROM resources "
                              "WHERE parent_rid = ?1 AND kind = ?2 ORDER BY rid LIMIT ?4";
    *n = 0;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, parent_rid);
    BIND_TEXT(st, 2, kind);
    BIND_TEXT(st, 3, member);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)max);
    int step = SQLITE_DONE;
    while (*n < max && (step = sqlite3_step(st)) == SQLITE_ROW)
        out[(*n)++] = sqlite3_column_int64(st, 0);
    int rc = *n == max || step == SQLITE_DONE ? STORE_OK : db_log_error(s, "resource members");
    sqlite3_reset(st);
    return rc;
}
