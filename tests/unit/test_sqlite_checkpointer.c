/* test_sqlite_checkpointer.c — the shared writer's checkpoints run on a
 * thread of their own (sqlite/writer.c, checkpointer_main): commits past the
 * checkpoint interval (sqlite/conn.c, 10,000 pages) ask for one and return;
 * that thread copies the WAL back into the database file; and the WAL then
 * rewinds at the next write instead of growing. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite/conn.h"
#include "store/sqlite/writer.h"
#include "unit.h"

enum { BLOB = 1024 * 1024 };

static char dir[64] = "/tmp/parapet-ckpt-XXXXXX";
static char path[128];

static long long file_size(const char *suffix)
{
    char name[160];
    snprintf(name, sizeof name, "%s%s", path, suffix);
    struct stat st;
    return stat(name, &st) == 0 ? (long long)st.st_size : -1;
}

static void remove_dir(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

/* One write transaction on the writer: a new 1 MiB row (~257 pages). */
static int write_mib(struct sqlite_writer *w, int id)
{
    struct sqlite_conn *c = writer_enter(w, 5000);
    if (!c)
        return -1;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->db, "INSERT OR REPLACE INTO t VALUES (?1, randomblob(?2))", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(st, 1, id);
        sqlite3_bind_int(st, 2, BLOB);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        sqlite3_finalize(st);
    }
    writer_leave(w);
    return rc == SQLITE_OK ? 0 : -1;
}

TEST(checkpoints_run_behind_the_committer)
{
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    snprintf(path, sizeof path, "%s/c.db", dir);
    struct sqlite_writer *w = writer_get(path);
    struct sqlite_conn *c = writer_enter(w, 5000);
    CHECK(c != NULL);
    CHECK_INT(db_exec_sql(c->db, "CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)"), 0);
    writer_leave(w);
    /* 48 MiB in autocommitted transactions: past 10,000 WAL pages */
    for (int i = 0; i < 48; i++)
        CHECK_INT(write_mib(w, i), 0);
    for (int i = 0; i < 5000 && writer_checkpoints(w) == 0; i++)
        usleep(1000);
    CHECK(writer_checkpoints(w) >= 1);
    /* the pages reached the database file, written by that thread */
    CHECK(file_size("") >= 38LL * BLOB);
    /* and the WAL rewinds: rewriting the same rows does not grow it */
    usleep(200000); /* the checkpoint asked for by the last commits ends */
    long long wal = file_size("-wal");
    for (int i = 0; i < 16; i++)
        CHECK_INT(write_mib(w, i), 0);
    fprintf(stderr, "  database %.1f MB, WAL %.1f MB then %.1f MB, %llu checkpoints on the thread\n",
            (double)file_size("") / 1048576, (double)wal / 1048576, (double)file_size("-wal") / 1048576,
            (unsigned long long)writer_checkpoints(w));
    CHECK(wal > 0 && file_size("-wal") <= wal);
    writer_put(w);
}

UNIT_MAIN(UNIT_CASE(checkpoints_run_behind_the_committer))
