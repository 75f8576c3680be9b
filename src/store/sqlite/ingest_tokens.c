/* sqlite/ingest_tokens.c — the operator's ingest credentials in SQLite:
 * stored as digests only, revoked rather than deleted. */
#include <time.h>

#include "store/sqlite/db.h"

int sq_ingest_token_create(struct store *s, const char *id, const char *name, const char *digest)
{
    static const char sql[] = "INSERT INTO ingest_tokens (id, name, digest, created_at) VALUES (?, ?, ?, ?)";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, id);
    BIND_TEXT(st, 2, name);
    BIND_TEXT(st, 3, digest);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL));
    return db_exec_stmt(s, st);
}

int sq_ingest_token_check(struct store *s, const char *digest)
{
    static const char sql[] = "SELECT 1 FROM ingest_tokens WHERE digest = ? AND revoked = 0";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, digest);
    int rc = db_row_result(s, sqlite3_step(st), "ingest_token_check");
    sqlite3_reset(st);
    return rc;
}

int sq_ingest_token_list(struct store *s, json_t **out)
{
    static const char sql[] = "SELECT id, name, created_at, revoked FROM ingest_tokens ORDER BY created_at, id";
    return db_rows_json(s, db_stmt(s, sql), out);
}

int sq_ingest_token_revoke(struct store *s, const char *id)
{
    static const char sql[] = "UPDATE ingest_tokens SET revoked = 1 WHERE id = ?";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, id);
    int rc = db_exec_stmt(s, st);
    return rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0 ? STORE_NOT_FOUND : rc;
}
