/* test_sqlite_walbuf.c — the WAL write buffer (store/sqlite/walbuf.h): a
 * commit's frames reach the WAL file in one write call, before the commit
 * returns, so that another connection reads every commit at once; a
 * transaction that spills pages to the WAL before its end, reads them back
 * and rolls back, or commits, leaves a database SQLite finds intact. */
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite/walbuf.h"
#include "unit.h"

static char dir[64];
static char path[128];

static sqlite3 *open_db(void)
{
    sqlite3 *db = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        abort();
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
    return db;
}

static long long one_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static const char *integrity(sqlite3 *db)
{
    static char out[256];
    sqlite3_stmt *st = NULL;
    snprintf(out, sizeof out, "(no answer)");
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

static long long wal_size(void)
{
    char wal[160];
    snprintf(wal, sizeof wal, "%s-wal", path);
    struct stat st;
    return stat(wal, &st) == 0 ? (long long)st.st_size : -1;
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/parapet-walbuf-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/w.db", dir);
    CHECK_INT(walbuf_register(), 0);
}

static void teardown(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
}

TEST(a_commit_writes_its_frames_in_one_call_before_it_returns)
{
    setup();
    sqlite3 *a = open_db(), *b = open_db();
    CHECK_INT(sqlite3_exec(a, "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t (v)", NULL,
                           NULL, NULL),
              SQLITE_OK);
    for (int i = 1; i <= 20; i++) {
        unsigned long made0, given0, made1, given1;
        walbuf_counts(&made0, &given0);
        long long before = wal_size();
        char sql[160];
        /* a row of ~6 KB: its table leaf, overflow pages and index leaf */
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, printf('%%d-%%.6000c', %d, 'x'))", i, i);
        CHECK_INT(sqlite3_exec(a, sql, NULL, NULL, NULL), SQLITE_OK);
        walbuf_counts(&made1, &given1);
        CHECK(given1 - given0 >= 6); /* three frames or more, two writes each */
        CHECK_INT(made1 - made0, 1);
        /* on the file already, and another connection reads it */
        long long frames = (long long)(given1 - given0) / 2; /* (the WAL header is one write more) */
        CHECK_INT(wal_size(), (before > 0 ? before : 32) + frames * (24 + 4096));
        CHECK_INT(one_int(b, "SELECT count(*) FROM t"), i);
        snprintf(sql, sizeof sql, "SELECT length(v) FROM t WHERE k = %d", i);
        CHECK(one_int(b, sql) > 6000);
    }
    CHECK_STR(integrity(b), "ok");
    sqlite3_close(b);
    sqlite3_close(a);
    teardown();
}

TEST(a_transaction_that_spills_reads_back_rolls_back_and_commits)
{
    setup();
    sqlite3 *a = open_db(), *b = open_db();
    /* a cache of a few pages: a large transaction writes frames before its end */
    sqlite3_exec(a, "PRAGMA cache_size=8; CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)", NULL, NULL, NULL);
    sqlite3_exec(a, "INSERT INTO t VALUES (0, 'kept')", NULL, NULL, NULL);
    CHECK_INT(sqlite3_exec(a,
                           "BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) "
                           "INSERT INTO t SELECT i, printf('%.500c', 'y') FROM n",
                           NULL, NULL, NULL),
              SQLITE_OK);
    CHECK(wal_size() > 100 * 4096); /* spilled */
    CHECK_INT(one_int(a, "SELECT sum(length(v)) FROM t"), 3000 * 500 + 4);
    CHECK_INT(one_int(b, "SELECT count(*) FROM t"), 1); /* not committed */
    CHECK_INT(sqlite3_exec(a, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(one_int(a, "SELECT count(*) FROM t"), 1);
    /* the next commits write over the rolled-back frames */
    CHECK_INT(sqlite3_exec(a, "INSERT INTO t VALUES (1, 'one')", NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(one_int(b, "SELECT count(*) FROM t"), 2);
    CHECK_INT(sqlite3_exec(a,
                           "BEGIN; WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                           "INSERT INTO t SELECT i, printf('%.300c', 'z') FROM n; COMMIT",
                           NULL, NULL, NULL),
              SQLITE_OK);
    CHECK_INT(one_int(b, "SELECT count(*) FROM t"), 2001);
    CHECK_INT(one_int(b, "SELECT sum(length(v)) FROM t WHERE k >= 2"), 1999 * 300);
    CHECK_STR(integrity(b), "ok");
    /* the checkpoint reads the WAL back into the database */
    CHECK_INT(sqlite3_wal_checkpoint_v2(a, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL), SQLITE_OK);
    CHECK_INT(wal_size(), 0);
    CHECK_INT(sqlite3_exec(a, "INSERT INTO t VALUES (-1, 'after')", NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(one_int(b, "SELECT count(*) FROM t"), 2002);
    sqlite3_close(b);
    sqlite3_close(a);
    /* a fresh connection, with the WAL recovered from the file alone */
    sqlite3 *c = open_db();
    CHECK_INT(one_int(c, "SELECT count(*) FROM t"), 2002);
    CHECK_STR(integrity(c), "ok");
    sqlite3_close(c);
    teardown();
}

UNIT_MAIN(UNIT_CASE(a_commit_writes_its_frames_in_one_call_before_it_returns),
          UNIT_CASE(a_transaction_that_spills_reads_back_rolls_back_and_commits))
