/* sqlite/blocks.c — the address-block index on SQLite: the blocks any
 * resource holds, as BLOB ranges of store/block_key.h keys. */
#include <stdlib.h>
#include <string.h>

#include "store/block_key.h"
#include "store/sqlite/db.h"

int sq_blocks_set(struct store *s, int64_t rid, const struct cidr *blocks, size_t n)
{
    static const char clear_sql[] = "DELETE FROM address_blocks WHERE rid = ?1";
    static const char add_sql[] =
        "INSERT INTO address_blocks (rid, position, customer_id, kind, top_level, prefix, lo, hi) "
        "SELECT rid, ?2, customer_id, kind, parent_rid IS NULL, ?3, ?4, ?5 FROM resources WHERE rid = ?1";
    if (n > RES_MAX_BLOCKS)
        return STORE_ERROR;
    sqlite3_stmt *st = db_stmt(s, clear_sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = db_exec_stmt(s, st);
    for (size_t i = 0; i < n && rc == STORE_OK; i++) {
        if (!(st = db_stmt(s, add_sql)))
            return STORE_ERROR;
        char text[NET_TEXT_MAX];
        uint8_t lo[BLOCK_KEY_LEN], hi[BLOCK_KEY_LEN];
        cidr_format(&blocks[i], text);
        block_range(&blocks[i], lo, hi);
        sqlite3_bind_int64(st, 1, rid);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
        sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
        sqlite3_bind_blob(st, 4, lo, BLOCK_KEY_LEN, SQLITE_TRANSIENT);
        sqlite3_bind_blob(st, 5, hi, BLOCK_KEY_LEN, SQLITE_TRANSIENT);
        rc = db_exec_stmt(s, st);
        if (rc == STORE_OK && sqlite3_changes(DB(s)->db) == 0)
            rc = STORE_NOT_FOUND; /* no such resource */
    }
    return rc;
}

int sq_blocks_get(struct store *s, int64_t rid, struct cidr **out, size_t *n)
{
    static const char sql[] = "SELECT prefix FROM address_blocks WHERE rid = ?1 ORDER BY position";
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    struct cidr *list = NULL;
    size_t count = 0;
    int step, rc = STORE_OK;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        struct cidr *grown = realloc(list, (count + 1) * sizeof *list);
        if (!grown || cidr_parse((const char *)sqlite3_column_text(st, 0), 0, &grown[count]) != 0) {
            list = grown ? grown : list;
            rc = STORE_ERROR;
            break;
        }
        list = grown;
        count++;
    }
    if (rc == STORE_OK && step != SQLITE_DONE)
        rc = db_log_error(s, "blocks get");
    sqlite3_reset(st);
    if (rc != STORE_OK) {
        free(list);
        return rc;
    }
    *out = list;
    *n = count;
    return STORE_OK;
}

/* A hit from a row of (rid, kind, id, customer_id, prefix). */
static int row_hit(sqlite3_stmt *st, struct block_hit *h)
{
    memset(h, 0, sizeof *h);
    h->rid = sqlite3_column_int64(st, 0);
    db_col_text(st, 1, h->kind, sizeof h->kind);
    db_col_text(st, 2, h->id, sizeof h->id);
    db_col_text(st, 3, h->customer_id, sizeof h->customer_id);
    return cidr_parse((const char *)sqlite3_column_text(st, 4), 0, &h->block) == 0 ? STORE_OK : STORE_ERROR;
}

/* The blocks overlapping [?1, ?2] that pass the filters ?3..?8, in the
 * order of their first address then rid, at most ?9: BLOCKS_SELECT WHERE
 * <which> BLOCKS_FILTER. */
#define BLOCKS_SELECT                                                                                        \
    "SELECT b.rid, b.kind, r.id, b.customer_id, b.prefix FROM address_blocks b JOIN resources r ON r.rid = " \
    "b.rid "
#define BLOCKS_FILTER                                                                                        \
    " AND (?3 IS NULL OR b.kind = ?3) AND (?4 IS NULL OR b.customer_id = ?4) "                               \
    "AND (?5 IS NULL OR b.customer_id <> ?5) AND (?6 = 0 OR b.top_level = 1) "                               \
    "AND (?7 = 0 OR r.parent_rid = ?7) AND (?8 = 0 OR b.rid <> ?8) ORDER BY b.lo, b.rid LIMIT ?9"

/* One query of the overlap lookup (block_key.h): the containing blocks or those inside c. */
static int overlap_query(struct store *s, const struct cidr *c, const struct block_filter *f,
                         const uint8_t (*ancestors)[BLOCK_KEY_LEN], int nanc, struct block_hit *out,
                         size_t max, size_t *n)
{
    /* the blocks containing c's first address start before it, each at that
     * address masked to its length (?10: those starts for lengths 0 to
     * ?11 - 1), and only lengths some block has can hold one
     * (address_block_lengths, migration 012); the others start inside c
     * (block_key.h) */
    static const char containing_sql[] =
        BLOCKS_SELECT "WHERE b.lo IN (SELECT substr(?10, l.length * 17 + 1, 17) FROM address_block_lengths l "
                      "WHERE l.family = substr(?1, 1, 1) AND l.length < ?11) "
                      "AND b.lo < ?1 AND b.hi >= ?1" BLOCKS_FILTER;
    static const char inside_sql[] = BLOCKS_SELECT "WHERE b.lo BETWEEN ?1 AND ?2" BLOCKS_FILTER;
    const char *sql = ancestors ? containing_sql : inside_sql;
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    uint8_t lo[BLOCK_KEY_LEN], hi[BLOCK_KEY_LEN];
    block_range(c, lo, hi);
    sqlite3_bind_blob(st, 1, lo, BLOCK_KEY_LEN, SQLITE_TRANSIENT);
    sqlite3_bind_blob(st, 2, hi, BLOCK_KEY_LEN, SQLITE_TRANSIENT);
    if (f->kind)
        BIND_TEXT(st, 3, f->kind);
    if (f->customer_id)
        BIND_TEXT(st, 4, f->customer_id);
    if (f->not_customer_id)
        BIND_TEXT(st, 5, f->not_customer_id);
    sqlite3_bind_int(st, 6, f->top_level);
    sqlite3_bind_int64(st, 7, f->parent_rid);
    sqlite3_bind_int64(st, 8, f->except_rid);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)(max - *n));
    if (ancestors) {
        sqlite3_bind_blob(st, 10, ancestors, nanc * BLOCK_KEY_LEN, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 11, nanc);
    }
    int step = SQLITE_DONE, rc = STORE_OK;
    while (rc == STORE_OK && *n < max && (step = sqlite3_step(st)) == SQLITE_ROW)
        rc = row_hit(st, &out[(*n)++]);
    if (rc == STORE_OK && step != SQLITE_DONE && step != SQLITE_ROW)
        rc = db_log_error(s, "blocks overlapping");
    sqlite3_reset(st);
    return rc;
}

int sq_blocks_overlapping(struct store *s, const struct cidr *c, const struct block_filter *f,
                          struct block_hit *out, size_t max, size_t *n)
{
    return block_overlaps(s, overlap_query, c, f, out, max, n);
}

int sq_blocks_uncovered(struct store *s, int64_t rid, struct block_hit *out)
{
    static const char sql[] =
        "WITH RECURSIVE sub(rid) AS (SELECT rid FROM resources WHERE parent_rid = ?1 "
        "UNION ALL SELECT r.rid FROM resources r JOIN sub ON r.parent_rid = sub.rid) "
        "SELECT b.rid, b.kind, r.id, b.customer_id, b.prefix FROM address_blocks b "
        "JOIN resources r ON r.rid = b.rid WHERE b.rid IN (SELECT rid FROM sub) AND NOT EXISTS "
        "(SELECT 1 FROM address_blocks o WHERE o.rid = ?1 AND o.lo <= b.lo AND o.hi >= b.hi) "
        "ORDER BY b.rid, b.position LIMIT 1";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, rid);
    int rc = db_row_result(s, sqlite3_step(st), "blocks uncovered");
    if (rc == STORE_OK)
        rc = row_hit(st, out);
    sqlite3_reset(st);
    return rc;
}
