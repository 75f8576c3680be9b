/* pgsql/import.c — `parapet admin migrate`: copies an SQLite store into an
 * empty PostgreSQL one, table by table, ids kept.
 *
 * The copy is driven by the PostgreSQL schema (the tables of the current
 * schema, in creation order, so a table comes after those it references):
 * every column is read from the SQLite column of the same name, and a serial
 * column SQLite does not have (the `seq` that gives the order SQLite's rowid
 * gives) from the rowid. A column or table on either side that the other
 * cannot hold stops the copy, so nothing is dropped silently.
 *
 * SQLite is read in one read transaction (a consistent snapshot, while a
 * server may go on writing); PostgreSQL is written in one transaction that
 * holds the write lock of every node, with COPY. Each table's row count is
 * compared on both sides before COMMIT; any failure rolls everything back. */
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/pgsql/pgsql.h"
#include "store/pgsql/db.h"
#include "store/sqlite/sqlite.h"

struct import {
    sqlite3 *src;
    PGconn *pg;
    char *err;
    size_t errsize;
    json_t *tables; /* [{"table", "rows"}] */
    long long rows;
};

__attribute__((format(printf, 2, 3))) static int fail(struct import *im, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(im->err, im->errsize, fmt, ap);
    va_end(ap);
    return -1;
}

/* Runs a statement on PostgreSQL; the result, or NULL with the error set. */
static PGresult *pg_run(struct import *im, const char *sql, int n, const char *const *params,
                        ExecStatusType want)
{
    PGresult *res = PQexecParams(im->pg, sql, n, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(res) == want)
        return res;
    fail(im, "postgresql: %s", PQresultErrorMessage(res));
    im->err[strcspn(im->err, "\n")] = '\0';
    PQclear(res);
    return NULL;
}

/* ---- reading the SQLite side ---- */

static bool sqlite_has_table(struct import *im, const char *table)
{
    sqlite3_stmt *st = NULL;
    bool found = false;
    if (sqlite3_prepare_v2(im->src, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return found;
}

/* The table's column names as a JSON array (empty when it has none). */
static json_t *sqlite_columns(struct import *im, const char *table)
{
    json_t *cols = json_array();
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT name FROM pragma_table_info('%s') ORDER BY cid", table);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(im->src, sql, -1, &st, NULL) == SQLITE_OK)
        while (sqlite3_step(st) == SQLITE_ROW)
            json_array_append_new(cols, json_string((const char *)sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    return cols;
}

static bool has_rowid(struct import *im, const char *table)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT rowid FROM \"%s\" LIMIT 0", table);
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(im->src, sql, -1, &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    return ok;
}

static long long sqlite_scalar(struct import *im, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_prepare_v2(im->src, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static bool in_array(const json_t *a, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach (a, i, v)
        if (strcmp(json_string_value(v), s) == 0)
            return true;
    return false;
}

/* Names that come from our own schemas only; checked anyway, since they are
 * pasted into SQL. */
static bool plain_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* ---- COPY's text format ---- */

struct copybuf {
    char *p;
    size_t n, cap;
};

static void put(struct copybuf *b, const char *s, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void put_text(struct copybuf *b, const unsigned char *s, int n)
{
    for (int i = 0; i < n; i++) {
        const char *esc = s[i] == '\\'   ? "\\\\"
                          : s[i] == '\n' ? "\\n"
                          : s[i] == '\r' ? "\\r"
                          : s[i] == '\t' ? "\\t"
                                         : NULL;
        if (esc)
            put(b, esc, 2);
        else
            put(b, (const char *)s + i, 1);
    }
}

/* bytea's hex input, its backslash escaped for COPY: \\x0a1b... */
static void put_bytes(struct copybuf *b, const unsigned char *s, int n)
{
    static const char hex[] = "0123456789abcdef";
    put(b, "\\\\x", 3);
    for (int i = 0; i < n; i++) {
        char h[2] = {hex[s[i] >> 4], hex[s[i] & 15]};
        put(b, h, 2);
    }
}

static void put_value(struct copybuf *b, sqlite3_stmt *st, int col, bool bytea)
{
    char num[32];
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL: put(b, "\\N", 2); break;
    case SQLITE_INTEGER:
        put(b, num, (size_t)snprintf(num, sizeof num, "%lld", (long long)sqlite3_column_int64(st, col)));
        break;
    case SQLITE_FLOAT:
        put(b, num, (size_t)snprintf(num, sizeof num, "%.17g", sqlite3_column_double(st, col)));
        break;
    default: { /* text or blob: the same bytes, as bytea or text as the target column is */
        const unsigned char *v = sqlite3_column_type(st, col) == SQLITE_BLOB ? sqlite3_column_blob(st, col)
                                                                             : sqlite3_column_text(st, col);
        int n = sqlite3_column_bytes(st, col);
        bytea ? put_bytes(b, v, n) : put_text(b, v, n);
    }
    }
}

/* ---- one table ---- */

struct column {
    char name[64];
    bool bytea;
    char sequence[128]; /* of a serial column, else "" */
    bool from_rowid;
};

/* The table's PostgreSQL columns, each matched to its SQLite source. */
static int plan_columns(struct import *im, const char *oid, const char *table, struct column **out, int *n)
{
    const char *p[] = {oid};
    PGresult *res = pg_run(im,
                           "SELECT a.attname, a.atttypid = 'bytea'::regtype, "
                           "coalesce(pg_get_serial_sequence(format('%I', c.relname), a.attname), '') "
                           "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                           "WHERE c.oid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
                           1, p, PGRES_TUPLES_OK);
    if (!res)
        return -1;
    json_t *src = sqlite_columns(im, table);
    bool rowid = has_rowid(im, table);
    *n = PQntuples(res);
    *out = calloc((size_t)*n + 1, sizeof **out);
    int rc = 0;
    for (int i = 0; i < *n && rc == 0; i++) {
        struct column *c = &(*out)[i];
        pg_text(res, i, 0, c->name, sizeof c->name);
        c->bytea = pg_int(res, i, 1) == 1;
        pg_text(res, i, 2, c->sequence, sizeof c->sequence);
        c->from_rowid = !in_array(src, c->name);
        if (!plain_name(c->name))
            rc = fail(im, "column %s.%s: unexpected name", table, c->name);
        else if (c->from_rowid && !(c->sequence[0] && rowid))
            rc = fail(
                im,
                "column %s.%s has no source in the SQLite store (is it older or newer than this parapet?)",
                table, c->name);
    }
    size_t i;
    json_t *v;
    json_array_foreach (src, i, v) { /* and nothing of SQLite's is left behind */
        bool placed = false;
        for (int k = 0; k < *n; k++)
            placed = placed || strcmp((*out)[k].name, json_string_value(v)) == 0;
        if (!placed && rc == 0)
            rc = fail(im, "column %s.%s of the SQLite store has no place in PostgreSQL", table,
                      json_string_value(v));
    }
    json_decref(src);
    PQclear(res);
    return rc;
}

static int copy_rows(struct import *im, const char *table, const struct column *cols, int ncols,
                     long long *copied)
{
    char sql[2048], list[1536] = "";
    size_t used = 0;
    for (int i = 0; i < ncols; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "", cols[i].name);
    if (used >= sizeof list)
        return fail(im, "table %s: too many columns", table);
    char select[2048] = "SELECT ";
    for (int i = 0; i < ncols; i++) {
        size_t at = strlen(select);
        if (cols[i].from_rowid)
            snprintf(select + at, sizeof select - at, "%srowid", i ? ", " : "");
        else
            snprintf(select + at, sizeof select - at, "%s\"%s\"", i ? ", " : "", cols[i].name);
    }
    size_t at = strlen(select);
    snprintf(select + at, sizeof select - at, " FROM \"%s\"", table);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(im->src, select, -1, &st, NULL) != SQLITE_OK)
        return fail(im, "sqlite: %s", sqlite3_errmsg(im->src));

    snprintf(sql, sizeof sql, "COPY \"%s\" (%s) FROM STDIN", table, list);
    PGresult *res = pg_run(im, sql, 0, NULL, PGRES_COPY_IN);
    if (!res) {
        sqlite3_finalize(st);
        return -1;
    }
    PQclear(res);
    struct copybuf b = {0};
    int step, rc = 0;
    *copied = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW && rc == 0) {
        for (int i = 0; i < ncols; i++) {
            if (i)
                put(&b, "\t", 1);
            put_value(&b, st, i, cols[i].bytea);
        }
        put(&b, "\n", 1);
        (*copied)++;
        if (b.n >= 1 << 16) {
            rc = PQputCopyData(im->pg, b.p, (int)b.n) == 1
                     ? 0
                     : fail(im, "postgresql: %s", PQerrorMessage(im->pg));
            b.n = 0;
        }
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = fail(im, "sqlite: reading %s: %s", table, sqlite3_errmsg(im->src));
    if (rc == 0 && b.n)
        rc = PQputCopyData(im->pg, b.p, (int)b.n) == 1 ? 0
                                                       : fail(im, "postgresql: %s", PQerrorMessage(im->pg));
    free(b.p);
    sqlite3_finalize(st);
    PQputCopyEnd(im->pg, rc == 0 ? NULL : "the source could not be read");
    while ((res = PQgetResult(im->pg))) {
        if (PQresultStatus(res) != PGRES_COMMAND_OK && rc == 0) {
            rc = fail(im, "postgresql: table %s: %s", table, PQresultErrorMessage(res));
            im->err[strcspn(im->err, "\n")] = '\0';
        }
        PQclear(res);
    }
    return rc;
}

/* Serial columns continue after the largest value copied (for resources.rid,
 * also after SQLite's floor of deleted rids: keys are never reused). */
static int continue_sequences(struct import *im, const char *table, const struct column *cols, int ncols)
{
    for (int i = 0; i < ncols; i++) {
        if (!cols[i].sequence[0])
            continue;
        char sql[512];
        snprintf(sql, sizeof sql, "SELECT coalesce(max(\"%s\"), 0) FROM \"%s\"", cols[i].name, table);
        PGresult *res = pg_run(im, sql, 0, NULL, PGRES_TUPLES_OK);
        if (!res)
            return -1;
        long long last = pg_int(res, 0, 0);
        PQclear(res);
        if (strcmp(table, "resources") == 0 && sqlite_has_table(im, "resource_rid_floor")) {
            long long floor = sqlite_scalar(im, "SELECT rid FROM resource_rid_floor");
            last = floor > last ? floor : last;
        }
        char value[24];
        snprintf(value, sizeof value, "%lld", last > 0 ? last : 1);
        const char *p[] = {cols[i].sequence, value, last > 0 ? "true" : "false"};
        res = pg_run(im, "SELECT setval($1::regclass, $2::bigint, $3::boolean)", 3, p, PGRES_TUPLES_OK);
        if (!res)
            return -1;
        PQclear(res);
    }
    return 0;
}

/* A table partitioned by a time range (pg/010: "RANGE (ts)") gets the
 * partitions for the times SQLite holds before its rows go in. */
static int cover_partitions(struct import *im, const char *table, const char *partkey)
{
    char col[64];
    if (sscanf(partkey, "RANGE (%63[a-z_])", col) != 1)
        return fail(im, "table %s: partitioned as %s, which this parapet cannot fill", table, partkey);
    char sql[256], lo[24], hi[24];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    if (sqlite_scalar(im, sql) <= 0)
        return 0; /* nothing to place */
    snprintf(sql, sizeof sql, "SELECT min(\"%s\") FROM \"%s\"", col, table);
    snprintf(lo, sizeof lo, "%lld", sqlite_scalar(im, sql));
    snprintf(sql, sizeof sql, "SELECT max(\"%s\") FROM \"%s\"", col, table);
    snprintf(hi, sizeof hi, "%lld", sqlite_scalar(im, sql));
    const char *p[] = {lo, hi};
    PGresult *res = pg_run(im, "SELECT tel_partitions_cover($1::bigint, $2::bigint)", 2, p, PGRES_TUPLES_OK);
    bool ok = res != NULL;
    PQclear(res);
    return ok ? 0 : -1;
}

static int copy_table(struct import *im, const char *oid, const char *table, const char *partkey)
{
    if (!plain_name(table))
        return fail(im, "table %s: unexpected name", table);
    if (!sqlite_has_table(im, table))
        return fail(im, "the SQLite store has no table %s (is it older or newer than this parapet?)", table);
    /* The catalogue a node seeded on its first start gives way to the
     * source's; any other row means the target is in use. */
    bool catalogue = strcmp(table, "catalogue") == 0;
    char sql[512];
    snprintf(sql, sizeof sql, catalogue ? "DELETE FROM \"%s\"" : "SELECT 1 FROM \"%s\" LIMIT 1", table);
    PGresult *res = pg_run(im, sql, 0, NULL, catalogue ? PGRES_COMMAND_OK : PGRES_TUPLES_OK);
    if (!res)
        return -1;
    bool used = !catalogue && PQntuples(res) > 0;
    PQclear(res);
    if (used)
        return fail(im, "the PostgreSQL database already holds data (table %s): migrate into an empty one",
                    table);

    struct column *cols = NULL;
    int ncols = 0;
    long long copied = 0;
    int rc = plan_columns(im, oid, table, &cols, &ncols);
    if (rc == 0 && *partkey)
        rc = cover_partitions(im, table, partkey);
    /* Copied rows are not new events: the table's own triggers (a
     * webhook's outbox, say) stay off while they go in (in this
     * transaction: they are on again at its end, either way). */
    snprintf(sql, sizeof sql, "ALTER TABLE \"%s\" DISABLE TRIGGER USER", table);
    if (rc == 0 && (res = pg_run(im, sql, 0, NULL, PGRES_COMMAND_OK)))
        PQclear(res);
    else
        rc = -1;
    if (rc == 0)
        rc = copy_rows(im, table, cols, ncols, &copied);
    snprintf(sql, sizeof sql, "ALTER TABLE \"%s\" ENABLE TRIGGER USER", table);
    if (rc == 0 && (res = pg_run(im, sql, 0, NULL, PGRES_COMMAND_OK)))
        PQclear(res);
    else
        rc = -1;
    if (rc == 0)
        rc = continue_sequences(im, table, cols, ncols);
    free(cols);
    if (rc != 0)
        return rc;
    /* the counts, read back on both sides */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    long long in_src = sqlite_scalar(im, sql);
    if (!(res = pg_run(im, sql, 0, NULL, PGRES_TUPLES_OK)))
        return -1;
    long long in_dst = pg_int(res, 0, 0);
    PQclear(res);
    if (in_src != copied || in_dst != copied)
        return fail(im, "table %s: %lld rows in SQLite, %lld copied, %lld in PostgreSQL", table, in_src,
                    copied, in_dst);
    json_array_append_new(im->tables, json_pack("{s:s,s:I}", "table", table, "rows", (json_int_t)copied));
    im->rows += copied;
    return 0;
}

/* SQLite tables PostgreSQL does without: its own bookkeeping. */
static bool sqlite_only(const char *table)
{
    return strncmp(table, "sqlite_", 7) == 0 || strcmp(table, "schema_migrations") == 0 ||
           strcmp(table, "resource_rid_floor") == 0; /* a sequence there (pg/005_rid_floor.sql) */
}

static int check_nothing_left(struct import *im)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(im->src, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name", -1,
                           &st, NULL) != SQLITE_OK)
        return fail(im, "sqlite: %s", sqlite3_errmsg(im->src));
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        bool copied = false;
        size_t i;
        json_t *v;
        json_array_foreach (im->tables, i, v)
            copied = copied || strcmp(json_string_value(json_object_get(v, "table")), t) == 0;
        if (!copied && !sqlite_only(t))
            rc = fail(im, "table %s of the SQLite store has no place in PostgreSQL", t);
    }
    sqlite3_finalize(st);
    return rc;
}

static int copy_all(struct import *im)
{
    PGresult *res = pg_run(im, "BEGIN", 0, NULL, PGRES_COMMAND_OK);
    if (!res)
        return -1;
    PQclear(res);
    if (!(res = pg_run(im, PG_WRITE_LOCK_SQL, 0, NULL, PGRES_TUPLES_OK)))
        return -1;
    PQclear(res);
    res = pg_run(im,
                 "SELECT c.oid::text, c.relname, CASE c.relkind WHEN 'p' THEN pg_get_partkeydef(c.oid) END "
                 "FROM pg_class c "
                 "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') "
                 "AND NOT c.relispartition AND c.relname <> 'schema_migrations' ORDER BY c.oid",
                 0, NULL, PGRES_TUPLES_OK);
    if (!res)
        return -1;
    int rc = 0;
    for (int i = 0; i < PQntuples(res) && rc == 0; i++)
        rc = copy_table(im, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), PQgetvalue(res, i, 2));
    PQclear(res);
    if (rc == 0)
        rc = check_nothing_left(im);
    /* every node's caches start again from what was copied */
    if (rc == 0 && (res = pg_run(im, "SELECT nextval('data_version')", 0, NULL, PGRES_TUPLES_OK)))
        PQclear(res);
    else
        rc = -1;
    if (rc == 0 && (res = pg_run(im, "COMMIT", 0, NULL, PGRES_COMMAND_OK)))
        PQclear(res);
    else
        rc = -1;
    if (rc != 0)
        PQclear(PQexec(im->pg, "ROLLBACK"));
    return rc;
}

int pgsql_import_sqlite(const char *sqlite_path, const char *conninfo, json_t **report, char *err,
                        size_t errsize)
{
    struct import im = {.err = err, .errsize = errsize};
    *report = NULL;
    if (access(sqlite_path, R_OK) != 0)
        return fail(&im, "no SQLite store at %s", sqlite_path);
    /* Both schemas brought to this parapet's version first: the source by
     * opening it as the server would, the target by its migrations. */
    struct store *source = sqlite_store_open(sqlite_path);
    if (!source)
        return fail(&im, "the SQLite store at %s cannot be opened", sqlite_path);
    source->ops->close(source);
    struct store *target = pgsql_store_open(conninfo);
    if (!target)
        return fail(&im, "the PostgreSQL database cannot be opened (see above)");
    im.pg = PG(target)->conn;
    if (sqlite3_open_v2(sqlite_path, &im.src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fail(&im, "sqlite: %s", sqlite3_errmsg(im.src));
        sqlite3_close(im.src);
        target->ops->close(target);
        return -1;
    }
    sqlite3_busy_timeout(im.src, 10000);
    im.tables = json_array();
    /* one read transaction: every table from the same snapshot */
    int rc = sqlite3_exec(im.src, "BEGIN; SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL) == SQLITE_OK
                 ? copy_all(&im)
                 : fail(&im, "sqlite: %s", sqlite3_errmsg(im.src));
    sqlite3_exec(im.src, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(im.src);
    target->ops->close(target);
    if (rc != 0) {
        json_decref(im.tables);
        return -1;
    }
    *report = json_pack("{s:o,s:I,s:b}", "tables", im.tables, "rows", (json_int_t)im.rows, "verified", 1);
    return 0;
}
