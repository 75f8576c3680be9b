/* sqlite/db.c — connection handling for the SQLite backend: opening, WAL,
 * migrations, the statement cache and transactions. */
#include <pthread.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/metrics.h"
#include "store/data_version.h"
#include "store/migrations.h"
#include "store/schema_guard.h"
#include "store/sqlite/db.h"
#include "store/sqlite/sqlite.h"
#include "store/sqlite/walbuf.h"
#include "store/sqlite/writer.h"
#include "store/write_fence.h"

extern const struct store_ops sqlite_ops; /* sqlite/ops.c */

enum { BUSY_TIMEOUT_MS = 5000 }; /* for SQLite's locks and for the shared writer */

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

static int exec_sql(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "parapet: sqlite: %s\n", err ? err : sqlite3_errmsg(db));
        sqlite3_free(err);
        return -1;
    }
    return 0;
}

/* The newest migration applied to db (0: none). */
static int applied_version(sqlite3 *db)
{
    sqlite3_stmt *st;
    int v = 0;
    if (sqlite3_prepare_v2(db, "SELECT coalesce(max(version), 0) FROM schema_migrations", -1, &st, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Applies every embedded migration newer than the database, in one
 * transaction each (after refusing a database newer than the binary). */
static int migrate(sqlite3 *db)
{
    if (exec_sql(db, "CREATE TABLE IF NOT EXISTS schema_migrations ("
                     "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"))
        return -1;
    if (schema_guard(sqlite3_db_filename(db, "main"), applied_version(db), migrations, migrations_count) != 0)
        return -1;
    for (int i = 0; i < migrations_count; i++) {
        const struct migration *m = &migrations[i];
        if (exec_sql(db, "BEGIN IMMEDIATE"))
            return -1;
        sqlite3_stmt *st;
        sqlite3_prepare_v2(db, "SELECT 1 FROM schema_migrations WHERE version = ?", -1, &st, NULL);
        sqlite3_bind_int(st, 1, m->version);
        bool done = sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
        if (!done) {
            if (exec_sql(db, m->sql)) {
                fprintf(stderr, "parapet: migration %s failed\n", m->name);
                exec_sql(db, "ROLLBACK");
                return -1;
            }
            sqlite3_prepare_v2(db, "INSERT INTO schema_migrations VALUES (?, ?, ?)", -1, &st, NULL);
            sqlite3_bind_int(st, 1, m->version);
            sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
            sqlite3_step(st);
            sqlite3_finalize(st);
        }
        if (exec_sql(db, "COMMIT"))
            return -1;
    }
    return 0;
}

void db_conn_close(struct sqlite_conn *c)
{
    for (size_t i = 0; i < STMT_CACHE_SLOTS; i++)
        if (c->cache[i].st)
            sqlite3_finalize(c->cache[i].st);
    sqlite3_close(c->db);
    data_version_close(c->version);
    memset(c, 0, sizeof *c);
}

/* SQLite's memory statistics take a process-wide mutex on every allocation
 * (~70 per request, and the worker threads contend for it); nothing reads
 * them. Must be set before SQLite initialises, hence once, before the first
 * open. */
static void configure_sqlite(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    walbuf_register(); /* without it (no default VFS), SQLite's own writes */
}

/* SQLite calls this after each commit that wrote data, once the write lock
 * is released and the change is visible to readers: the place to bump the
 * change counter (readers that tagged a cache entry before this bump see a
 * new value). It replaces SQLite's automatic checkpoint hook, so it also
 * checkpoints: every CHECKPOINT_PAGES WAL pages (~40 MB) rather than
 * SQLite's 1000. Each checkpoint costs three fdatasync calls and copies the
 * last version of every page written since the one before; a token insert
 * writes ~5 pages, mostly the same hot ones. Measured on POST
 * /oauth/credit/token (interleaved runs, medians): 3.3k -> 4.9k req/s, 180
 * -> 142 us CPU per request. */
enum { CHECKPOINT_PAGES = 10000 };

static int after_commit(void *ctx, sqlite3 *db, const char *name, int wal_pages)
{
    struct sqlite_conn *c = ctx;
    data_version_bump(c->version, c->accounts_changed);
    c->accounts_changed = false;
    if (wal_pages >= CHECKPOINT_PAGES)
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return SQLITE_OK;
}

/* The tables core/auth_cache.c caches rows of, or rows joined to them
 * (data_version.h). SQLite's update hook sees every row changed in a rowid
 * table, cascades included; its blind spots (WITHOUT ROWID tables, DELETE
 * without WHERE, ON CONFLICT REPLACE) are not used on these. */
static void row_changed(void *ctx, int op, const char *dbname, const char *table, sqlite3_int64 rowid)
{
    (void)op, (void)dbname, (void)rowid;
    static const char *const accounts[] = {"portals",       "apps",       "app_allow", "customers",
                                           "installations", "auth_codes", "tokens"};
    struct sqlite_conn *c = ctx;
    for (size_t i = 0; i < sizeof accounts / sizeof accounts[0] && !c->accounts_changed; i++)
        if (strcmp(table, accounts[i]) == 0)
            c->accounts_changed = true;
}

static void rolled_back(void *ctx)
{
    ((struct sqlite_conn *)ctx)->accounts_changed = false;
}

static atomic_int conn_cache_kb; /* 0: SQLite's default (2 MB) */

int db_conn_open(struct sqlite_conn *c, const char *path)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, configure_sqlite);
    memset(c, 0, sizeof *c);
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        fprintf(stderr, "parapet: cannot open %s: %s\n", path, sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    if (sq_tel_vector_functions(db) != 0 ||
        exec_sql(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")) {
        sqlite3_close(db);
        return -1;
    }
    int cache_kb = atomic_load(&conn_cache_kb);
    if (cache_kb > 0) {
        char pragma[48];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size=-%d", cache_kb);
        exec_sql(db, pragma);
    }
    c->version = data_version_open(sqlite3_db_filename(db, "main"));
    sqlite3_wal_hook(db, after_commit, c);
    sqlite3_update_hook(db, row_changed, c);
    sqlite3_rollback_hook(db, rolled_back, c);
    if (migrate(db)) {
        sqlite3_close(db);
        data_version_close(c->version);
        c->version = NULL;
        return -1;
    }
    c->db = db;
    return 0;
}

static void end_write(struct sqlite_store *d);

void sqlite_close(struct store *s)
{
    struct sqlite_store *d = DB(s);
    sq_tel_drop(s);
    if (d->conn != &d->own) {
        sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
        end_write(d);
    }
    if (d->writer)
        writer_put(d->writer);
    db_conn_close(&d->own);
    free(d);
}

void sqlite_set_cache_kb(int cache_kb)
{
    atomic_store(&conn_cache_kb, cache_kb);
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
        exec_sql(d->db, "PRAGMA synchronous=FULL");
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
    sq_tel_drop(s); /* left by a transaction that neither committed nor rolled back */
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
    if (d->tel_pending && sq_tel_flush(s) != STORE_OK) {
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
    sq_tel_drop(s);
    DB(s)->read_pending = false;
    int rc = sqlite3_get_autocommit(DB(s)->db) ? STORE_OK : tx(s, rollback_sql);
    end_write(DB(s));
    return rc;
}
