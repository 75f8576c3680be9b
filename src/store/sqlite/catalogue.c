/* sqlite/catalogue.c — the operator's catalogue on SQLite: one JSON value per key. */
#include <stdlib.h>
#include <time.h>

#include "store/sqlite/db.h"

int sq_catalogue_get(struct store *s, const char *key, json_t **out)
{
    static const char sql[] = "SELECT value FROM catalogue WHERE key = ?1";
    *out = NULL;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, key);
    int rc = db_row_result(s, sqlite3_step(st), "catalogue get");
    if (rc == STORE_OK) {
        *out = json_loadb((const char *)sqlite3_column_text(st, 0), (size_t)sqlite3_column_bytes(st, 0),
                          JSON_DECODE_ANY, NULL);
        if (!*out)
            rc = db_log_error(s, "catalogue value is not JSON");
    }
    sqlite3_reset(st);
    return rc;
}

int sq_catalogue_set(struct store *s, const char *key, const json_t *value, const char *source)
{
    static const char sql[] =
        "INSERT INTO catalogue (key, value, source, updated_at) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT (key) DO UPDATE SET value = ?2, source = ?3, updated_at = ?4";
    sqlite3_stmt *st = db_stmt(s, sql);
    char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!st || !text) {
        free(text);
        return STORE_ERROR;
    }
    BIND_TEXT(st, 1, key);
    BIND_TEXT(st, 2, text);
    BIND_TEXT(st, 3, source);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL));
    int rc = db_exec_stmt(s, st);
    free(text);
    return rc;
}

int sq_catalogue_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT key, source, updated_at FROM catalogue ORDER BY key";
    return db_rows_json(s, db_stmt(s, sql), out);
}
