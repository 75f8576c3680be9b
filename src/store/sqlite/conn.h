/* sqlite/conn.h — one SQLite connection and its prepared statements: what
 * a store (db.h) and the shared writer (writer.h) each hold, so that
 * neither needs the other to open one. */
#ifndef PARAPET_SQLITE_CONN_H
#define PARAPET_SQLITE_CONN_H

#include <sqlite3.h>
#include <stdbool.h>

/* for SQLite's locks and for the shared writer */
enum { BUSY_TIMEOUT_MS = 5000 };

enum { STMT_CACHE_SLOTS = 1024 };

struct data_version;

/* One SQLite connection, its prepared statements, and the database's change
 * counter (bumped after each of its commits that wrote data). */
struct sqlite_conn {
    sqlite3 *db;
    struct data_version *version;
    bool accounts_changed; /* by the transaction going on (update hook; see data_version.h) */
    /* Set by the shared writer (writer.h) on its connection: the passive
     * checkpoints after its commits are asked of a thread of their own
     * instead of being run by the committer (conn.c, after_commit). */
    void (*checkpoint_soon)(void *arg);
    void *checkpoint_arg;
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } cache[STMT_CACHE_SLOTS];
};

/* Opens (with WAL, synchronous=NORMAL, foreign keys) and closes one
 * connection; the first open of a fresh database applies the migrations. */
int db_conn_open(struct sqlite_conn *c, const char *path);
void db_conn_close(struct sqlite_conn *c);
/* Runs SQL text (no rows) on a connection; 0, or -1 with SQLite's message
 * on stderr. */
int db_exec_sql(sqlite3 *db, const char *sql);
/* Registers the SQL functions over minute vectors (sqlite/tel_vector_sql.c) on a
 * connection; 0 or -1. */
int sq_tel_vector_functions(sqlite3 *db);

#endif
