/* sqlite/conn.c — one SQLite connection (conn.h): opening it with WAL,
 * the pragmas, parapet's SQL functions and hooks, the migrations, and
 * closing it with its statements. */
#include "store/sqlite/conn.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/data_version.h"
#include "store/migrations.h"
#include "store/schema_guard.h"
#include "store/sqlite/sqlite.h"
#include "store/sqlite/walbuf.h"

int db_exec_sql(sqlite3 *db, const char *sql)
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
    if (db_exec_sql(db, "CREATE TABLE IF NOT EXISTS schema_migrations ("
                     "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"))
        return -1;
    if (schema_guard(sqlite3_db_filename(db, "main"), applied_version(db), migrations, migrations_count) != 0)
        return -1;
    for (int i = 0; i < migrations_count; i++) {
        const struct migration *m = &migrations[i];
        if (db_exec_sql(db, "BEGIN IMMEDIATE"))
            return -1;
        sqlite3_stmt *st;
        sqlite3_prepare_v2(db, "SELECT 1 FROM schema_migrations WHERE version = ?", -1, &st, NULL);
        sqlite3_bind_int(st, 1, m->version);
        bool done = sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
        if (!done) {
            if (db_exec_sql(db, m->sql)) {
                fprintf(stderr, "parapet: migration %s failed\n", m->name);
                db_exec_sql(db, "ROLLBACK");
                return -1;
            }
            sqlite3_prepare_v2(db, "INSERT INTO schema_migrations VALUES (?, ?, ?)", -1, &st, NULL);
            sqlite3_bind_int(st, 1, m->version);
            sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
            sqlite3_step(st);
            sqlite3_finalize(st);
        }
        if (db_exec_sql(db, "COMMIT"))
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
/* A passive checkpoint copies the WAL back, but SQLite rewinds the WAL to
 * its start only when a write begins while no reader holds a snapshot older
 * than that checkpoint. With readers always in flight (dashboards under
 * load) that moment may never come, and the WAL grows by every commit (the
 * soak: 46 MB to 185 MB in 80 minutes; test_sqlite_wal_bound: 485 MB for 2,400 commits). Past
 * twice the interval the writer waits, briefly, for those readers to finish
 * and truncates the WAL; new readers are not held up, writes for at most
 * RESTART_WAIT_MS (and it is tried again after the next commit).
 * The shared writer's connection hands its passive checkpoints to a thread
 * of its own (writer.c, checkpointer_main): the committer then pays
 * neither the copy nor the checkpoint's two fdatasync calls. */
enum { RESTART_PAGES = 2 * CHECKPOINT_PAGES, RESTART_WAIT_MS = 100 };

static int after_commit(void *ctx, sqlite3 *db, const char *name, int wal_pages)
{
    struct sqlite_conn *c = ctx;
    data_version_bump(c->version, c->accounts_changed);
    c->accounts_changed = false;
    if (wal_pages >= RESTART_PAGES) {
        sqlite3_busy_timeout(db, RESTART_WAIT_MS);
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
        sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    } else if (wal_pages >= CHECKPOINT_PAGES && c->checkpoint_soon) {
        c->checkpoint_soon(c->checkpoint_arg);
    } else if (wal_pages >= CHECKPOINT_PAGES) {
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
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

/* Connections read the database file through a memory map of up to 2 GB
 * (SQLite's largest by default; past it, pages are read with pread) rather
 * than copying each page from the kernel's cache with pread into their
 * own: the dashboards read megabytes a request (a month's policy chart: 17
 * MB of minute vectors), and the copies were a third of their CPU. The
 * WAL's pages are still read with pread. Measured on the SCALE=1 bench
 * store, cp.dashboard.policy: 16-17 -> 11-13 ms of CPU a request. The
 * price: a read error of the disk under the map is a SIGBUS rather than an
 * error answer, and the mapped pages count in the process's VmRSS (shared,
 * file-backed: bench/soak reports RssAnon). Writes still go through
 * pwrite. */
#define MMAP_PRAGMA "PRAGMA mmap_size=2147418112"

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
        db_exec_sql(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; " MMAP_PRAGMA)) {
        sqlite3_close(db);
        return -1;
    }
    int cache_kb = atomic_load(&conn_cache_kb);
    if (cache_kb > 0) {
        char pragma[48];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size=-%d", cache_kb);
        db_exec_sql(db, pragma);
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

void sqlite_set_cache_kb(int cache_kb)
{
    atomic_store(&conn_cache_kb, cache_kb);
}
