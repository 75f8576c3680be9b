/* sqlite/db.c — a store on SQLite: the statement cache and its helpers,
 * opening and closing a store, and transactions (on the store's own
 * connection, or the shared writer's: writer.h). Connections themselves
 * are opened in conn.c. */
#include <pthread.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/metrics.h"
#include "store/data_version.h"
#include "store/sqlite/db.h"
#include "store/sqlite/sqlite.h"
#include "store/sqlite/writer.h"
#include "store/write_fence.h"

extern const struct store_ops sqlite_ops; /* sqlite/ops.c */

/* A failure for lack of space is noted for the HTTP layer's answer
 * (write_fence.h); SQLite reports ENOSPC as SQLITE_FULL. */
static void note_failure(sqlite3 *db)
{
    if ((sqlite3_extended_errcode(db) & 0xff) == SQLITE_FULL)
        store_note_disk_full();
}

int db_log_error(struct store *s, const char *what)
{
    note_failure(DB(s)->db);
    fprintf(stderr, "parapet: sqlite: %s: %s\n", what, sqlite3_errmsg(DB(s)->db));
    return STORE_ERROR;
}

int db_row_result(struct store *s, int step_rc, const char *what)
{
    if (step_rc == SQLITE_ROW)
        return STORE_OK;
    return step_rc == SQLITE_DONE ? STORE_NOT_FOUND : db_log_error(s, what);
}

static int open_pending_read(struct store *s);

sqlite3_stmt *db_stmt(struct store *s, const char *sql)
{
    if (DB(s)->read_pending && open_pending_read(s) != STORE_OK)
        return NULL;
    struct sqlite_conn *d = DB(s)->conn;
    size_t h = ((uintptr_t)sql >> 3) % STMT_CACHE_SLOTS;
    for (size_t probe = 0; probe < STMT_CACHE_SLOTS; probe++) {
        size_t i = (h + probe) % STMT_CACHE_SLOTS;
        if (d->cache[i].sql == sql) {
            sqlite3_reset(d->cache[i].st);
            sqlite3_clear_bindings(d->cache[i].st);
            return d->cache[i].st;
        }
        if (!d->cache[i].sql) {
            sqlite3_stmt *st;
            if (sqlite3_prepare_v3(d->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
                db_log_error(s, sql);
                return NULL;
            }
            d->cache[i].sql = sql;
            d->cache[i].st = st;
            return st;
        }
    }
    return NULL;
}

int db_exec_stmt(struct store *s, sqlite3_stmt *st)
{
    if (!st)
        return STORE_ERROR;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        return STORE_OK;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return STORE_CONFLICT;
    return db_log_error(s, "step");
}

/* memcpy with the column's byte count rather than snprintf("%s"): a GET
 * copies some 15 columns, and snprintf cost ~600 instructions each. */
void db_col_text(sqlite3_stmt *st, int i, char *dst, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    size_t n = t ? (size_t)sqlite3_column_bytes(st, i) : 0;
    if (n >= size)
        n = size - 1;
    if (n)
        memcpy(dst, t, n);
    dst[n] = '\0';
}

int db_rows_json(struct store *s, sqlite3_stmt *st, json_t **out)
{
    *out = NULL;
    if (!st)
        return STORE_ERROR;
    json_t *rows = json_array();
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *row = json_object();
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const char *name = sqlite3_column_name(st, i);
            if (sqlite3_column_type(st, i) == SQLITE_INTEGER)
                json_object_set_new(row, name, json_integer(sqlite3_column_int64(st, i)));
            else if (sqlite3_column_type(st, i) == SQLITE_NULL)
                json_object_set_new(row, name, json_null());
            else
                json_object_set_new(row, name, json_string((const char *)sqlite3_column_text(st, i)));
        }
        json_array_append_new(rows, row);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        json_decref(rows);
        return db_log_error(s, "step");
    }
    *out = rows;
    return STORE_OK;
}

static void end_write(struct sqlite_store *d);

/* Drops what the transaction kept in memory (sqlite_pending_steps). */
static void drop_pending(struct store *s)
{
    if (DB(s)->pending)
        DB(s)->pending->drop(s);
}

void sqlite_close(struct store *s)
{
    struct sqlite_store *d = DB(s);
    drop_pending(s);
    if (d->conn != &d->own) {
        sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
        end_write(d);
    }
    if (d->writer)
        writer_put(d->writer);
    db_conn_close(&d->own);
    free(d);
}

struct store *sqlite_store_open(const char *path)
{
    struct sqlite_store *d = calloc(1, sizeof *d);
    if (!d || db_conn_open(&d->own, path) != 0) {
        free(d);
        return NULL;
    }
    d->base.ops = &sqlite_ops;
    d->conn = &d->own;
    d->db = d->own.db;
    d->writer = writer_get(sqlite3_db_filename(d->db, "main"));
    /* Without the shared writer (too many databases), writes stay on this
     * connection: durable by SQLite's own sync at every commit. */
    if (!d->writer)
        db_exec_sql(d->db, "PRAGMA synchronous=FULL");
    return &d->base;
}

/* ---- transactions ---- */

/* BEGIN/COMMIT/ROLLBACK go through the statement cache: sqlite3_exec parsed
 * and compiled them on every request (~5,000 instructions each). */
static const char begin_sql[] = "BEGIN";
static const char begin_write_sql[] = "BEGIN IMMEDIATE";
static const char commit_sql[] = "COMMIT";
static const char rollback_sql[] = "ROLLBACK";

static int tx(struct store *s, const char *sql)
{
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        note_failure(DB(s)->db);
        fprintf(stderr, "parapet: sqlite: %s: %s\n", sql, sqlite3_errmsg(DB(s)->db));
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? STORE_OK : STORE_ERROR;
}

static void use(struct sqlite_store *d, struct sqlite_conn *c)
{
    d->conn = c;
    d->db = c->db;
}

/* Back to the own connection once the write transaction is over (SQLite
 * may also have ended it by itself: a rollback after some errors). */
static void end_write(struct sqlite_store *d)
{
    if (d->conn != &d->own && sqlite3_get_autocommit(d->db)) {
        use(d, &d->own);
        writer_leave(d->writer);
    }
}

/* A read transaction is opened in SQLite only by its first statement: a
 * request answered from the caches alone (core/auth_cache.h,
 * core/reply_cache.h) then costs no BEGIN and no ROLLBACK. SQLite's own
 * BEGIN (DEFERRED) takes its snapshot only at the first read as well, so
 * what every statement of the transaction sees is the same either way. */
static int open_pending_read(struct store *s)
{
    DB(s)->read_pending = false;
    return tx(s, begin_sql);
}

int sqlite_begin(struct store *s, bool write)
{
    struct sqlite_store *d = DB(s);
    if (d->read_pending) {
        fprintf(stderr, "parapet: sqlite: BEGIN: a transaction is already open\n");
        return STORE_ERROR; /* as SQLite answers a BEGIN inside a transaction */
    }
    end_write(d);
    drop_pending(s); /* left by a transaction that neither committed nor rolled back */
    if (!write && d->conn == &d->own && sqlite3_get_autocommit(d->db)) {
        d->read_pending = true;
        return STORE_OK;
    }
    /* A transaction already open on the own connection stays the one in
     * use, and BEGIN fails on it as it should. */
    if (write && write_fence_tripped())
        return STORE_ERROR; /* after a failed sync: logged once (write_fence.h) */
    bool take = write && d->writer && d->conn == &d->own && sqlite3_get_autocommit(d->db);
    if (take) {
        struct sqlite_conn *c = writer_enter(d->writer, BUSY_TIMEOUT_MS);
        if (!c) {
            fprintf(stderr, "parapet: sqlite: BEGIN IMMEDIATE: the write connection is not available\n");
            return STORE_ERROR;
        }
        use(d, c);
    }
    int rc = tx(s, write ? begin_write_sql : begin_sql);
    if (take)
        end_write(d); /* only if BEGIN failed */
    d->changes_at_begin = sqlite3_total_changes64(d->db);
    if (take && rc == STORE_OK)
        clock_gettime(CLOCK_MONOTONIC, &d->began);
    return rc;
}

uint64_t sqlite_data_version(struct store *s)
{
    return data_version_read(DB(s)->own.version);
}

uint64_t sqlite_accounts_version(struct store *s)
{
    return data_version_read_accounts(DB(s)->own.version);
}

/* A write transaction that changed rows is answered only once it is
 * durable: see "group commit" in sqlite/writer.h. */
int sqlite_commit(struct store *s)
{
    struct sqlite_store *d = DB(s);
    if (d->read_pending) { /* nothing was read: nothing to end */
        d->read_pending = false;
        return STORE_OK;
    }
    if (d->pending && d->pending->flush(s) != STORE_OK) {
        sqlite_rollback(s);
        return STORE_ERROR;
    }
    bool on_writer = d->conn != &d->own;
    bool wrote = on_writer && sqlite3_total_changes64(d->db) != d->changes_at_begin;
    int rc = tx(s, commit_sql);
    if (rc == STORE_OK && wrote) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        metrics_store_write((double)(now.tv_sec - d->began.tv_sec) + (double)(now.tv_nsec - d->began.tv_nsec) / 1e9);
    }
    uint64_t seq = rc == STORE_OK && wrote ? writer_committed(d->writer) : 0;
    end_write(d);
    if (seq && d->defer_durability)
        d->ticket = seq;
    else if (seq && writer_wait_durable(d->writer, seq) != 0)
        rc = STORE_ERROR;
    return rc;
}

void sqlite_defer_durability(struct store *s, bool on)
{
    DB(s)->defer_durability = on && DB(s)->writer;
}

void sqlite_writes_coming(struct store *s, bool on)
{
    if (DB(s)->writer)
        writer_expect(DB(s)->writer, on);
}

/* SQLite takes one writer at a time whatever the transaction does. */
void sqlite_credential_writes(struct store *s)
{
    (void)s;
}

uint64_t sqlite_commit_ticket(struct store *s)
{
    uint64_t t = DB(s)->ticket;
    DB(s)->ticket = 0;
    return t;
}

int sqlite_durable_notify(struct store *s, uint64_t ticket, void (*done)(void *arg, bool ok), void *arg)
{
    return DB(s)->writer ? writer_notify_durable(DB(s)->writer, ticket, done, arg) : 1;
}

int sqlite_rollback(struct store *s)
{
    drop_pending(s);
    DB(s)->read_pending = false;
    int rc = sqlite3_get_autocommit(DB(s)->db) ? STORE_OK : tx(s, rollback_sql);
    end_write(DB(s));
    return rc;
}
