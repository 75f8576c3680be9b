/* db_count.h — the first column of a query's first row, as a number, read
 * from an SQLite file on a read-only connection of its own (what a test
 * counts in the store a component under test wrote). */
#ifndef PARAPET_TEST_DB_COUNT_H
#define PARAPET_TEST_DB_COUNT_H

#include <sqlite3.h>

/* -1 when the file or the query fails, or the query answers no row. */
static inline long db_count(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st;
    long n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 2000);
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW)
                n = (long)sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(db);
    return n;
}

#endif
