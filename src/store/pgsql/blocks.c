/* pgsql/blocks.c — the address-block index on PostgreSQL: the blocks any
 * resource holds, as bytea ranges of store/block_key.h keys (bytea compares
 * bytewise, as SQLite's BLOBs do). */
#include <stdlib.h>
#include <string.h>

#include "store/block_key.h"
#include "store/pgsql/db.h"

int pg_blocks_set(struct store *s, int64_t rid, const struct cidr *blocks, size_t n)
{
    static const char clear_sql[] = "DELETE FROM address_blocks WHERE rid = $1";
    static const char add_sql[] =
        "INSERT INTO address_blocks (rid, position, customer_id, kind, top_level, prefix, lo, hi) "
        "SELECT rid, $2, customer_id, kind, (parent_rid IS NULL)::int, $3, $4, $5 FROM resources WHERE rid = "
        "$1";
    if (n > RES_MAX_BLOCKS)
        return STORE_ERROR;
    struct pg_params a = {0};
    pp_int(&a, rid);
    int rc = pg_exec(s, clear_sql, &a, NULL);
    for (size_t i = 0; i < n && rc == STORE_OK; i++) {
        char text[NET_TEXT_MAX];
        uint8_t lo[BLOCK_KEY_LEN], hi[BLOCK_KEY_LEN];
        cidr_format(&blocks[i], text);
        block_range(&blocks[i], lo, hi);
        struct pg_params p = {0};
        pp_int(&p, rid);
        pp_int(&p, (int64_t)i);
        pp_text(&p, text);
        pp_bytes(&p, lo, BLOCK_KEY_LEN);
        pp_bytes(&p, hi, BLOCK_KEY_LEN);
        long added;
        rc = pg_exec(s, add_sql, &p, &added);
        if (rc == STORE_OK && added == 0)
            rc = STORE_NOT_FOUND; /* no such resource */
    }
    return rc;
}

int pg_blocks_get(struct store *s, int64_t rid, struct cidr **out, size_t *n)
{
    static const char sql[] = "SELECT prefix FROM address_blocks WHERE rid = $1 ORDER BY position";
    *out = NULL;
    *n = 0;
    struct pg_params a = {0};
    pp_int(&a, rid);
    int rc;
    PGresult *res = pg_query(s, sql, &a, &rc);
    if (!res)
        return rc;
    size_t count = (size_t)PQntuples(res);
    struct cidr *list = count ? calloc(count, sizeof *list) : NULL;
    if (count && !list)
        rc = STORE_ERROR;
    for (size_t i = 0; i < count && rc == STORE_OK; i++)
        if (cidr_parse(PQgetvalue(res, (int)i, 0), 0, &list[i]) != 0)
            rc = STORE_ERROR;
    PQclear(res);
    if (rc != STORE_OK) {
        free(list);
        return rc;
    }
    *out = list;
    *n = count;
    return STORE_OK;
}

/* A hit from row i of (rid, kind, id, customer_id, prefix). */
static int row_hit(const PGresult *res, int i, struct block_hit *h)
{
    memset(h, 0, sizeof *h);
    h->rid = pg_int(res, i, 0);
    pg_text(res, i, 1, h->kind, sizeof h->kind);
    pg_text(res, i, 2, h->id, sizeof h->id);
    pg_text(res, i, 3, h->customer_id, sizeof h->customer_id);
    return cidr_parse(PQgetvalue(res, i, 4), 0, &h->block) == 0 ? STORE_OK : STORE_ERROR;
}

/* The blocks overlapping [$1, $2] that pass the filters $3..$8, in the
 * order of their first address then rid, at most $9: BLOCKS_SELECT WHERE
 * <which> BLOCKS_FILTER (as sqlite/blocks.c). */
#define BLOCKS_SELECT                                                                                        \
    "SELECT b.rid, b.kind, r.id, b.customer_id, b.prefix FROM address_blocks b JOIN resources r ON r.rid = " \
    "b.rid "
#define BLOCKS_FILTER                                                                                        \
    " AND ($3::text IS NULL OR b.kind = $3) AND ($4::text IS NULL OR b.customer_id = $4) "                   \
    "AND ($5::text IS NULL OR b.customer_id <> $5) AND ($6::int = 0 OR b.top_level = 1) "                    \
    "AND ($7::bigint = 0 OR r.parent_rid = $7) AND ($8::bigint = 0 OR b.rid <> $8) ORDER BY b.lo, b.rid "    \
    "LIMIT $9"

/* One query of the overlap lookup (block_key.h): the containing blocks or those inside c. */
static int overlap_query(struct store *s, const struct cidr *c, const struct block_filter *f,
                         const uint8_t (*ancestors)[BLOCK_KEY_LEN], int nanc, struct block_hit *out,
                         size_t max, size_t *n)
{
    /* the blocks containing c's first address start before it, each at that
     * address masked to its length ($10: those starts for lengths 0 to
     * $11 - 1), and only lengths some block has can hold one
     * (address_block_lengths, migration 012); the others start inside c
     * (block_key.h) */
    static const char containing_sql[] =
        BLOCKS_SELECT "WHERE b.lo = ANY(ARRAY(SELECT substring($10::bytea FROM l.length * 17 + 1 FOR 17) FROM "
                      "address_block_lengths l WHERE l.family = substring($1::bytea FROM 1 FOR 1) "
                      "AND l.length < $11::int)) AND b.lo < $1::bytea AND b.hi >= $1::bytea "
                      "AND $2::bytea IS NOT NULL" BLOCKS_FILTER; /* ($2 keeps the parameters alike) */
    static const char inside_sql[] = BLOCKS_SELECT "WHERE b.lo BETWEEN $1::bytea AND $2::bytea" BLOCKS_FILTER;
    const char *sql = ancestors ? containing_sql : inside_sql;
    uint8_t lo[BLOCK_KEY_LEN], hi[BLOCK_KEY_LEN];
    block_range(c, lo, hi);
    struct pg_params a = {0};
    pp_bytes(&a, lo, BLOCK_KEY_LEN);
    pp_bytes(&a, hi, BLOCK_KEY_LEN);
    pp_text(&a, f->kind);
    pp_text(&a, f->customer_id);
    pp_text(&a, f->not_customer_id);
    pp_int(&a, f->top_level);
    pp_int(&a, f->parent_rid);
    pp_int(&a, f->except_rid);
    pp_int(&a, (int64_t)(max - *n));
    if (ancestors) {
        pp_bytes(&a, ancestors, nanc * BLOCK_KEY_LEN);
        pp_int(&a, nanc);
    }
    int rc;
    PGresult *res = pg_query(s, sql, &a, &rc);
    if (!res)
        return rc;
    for (int i = 0; i < PQntuples(res) && *n < max && rc == STORE_OK; i++)
        rc = row_hit(res, i, &out[(*n)++]);
    PQclear(res);
    return rc;
}

int pg_blocks_overlapping(struct store *s, const struct cidr *c, const struct block_filter *f,
                          struct block_hit *out, size_t max, size_t *n)
{
    return block_overlaps(s, overlap_query, c, f, out, max, n);
}

int pg_blocks_uncovered(struct store *s, int64_t rid, struct block_hit *out)
{
    static const char sql[] =
        "WITH RECURSIVE sub(rid) AS (SELECT rid FROM resources WHERE parent_rid = $1 "
        "UNION ALL SELECT r.rid FROM resources r JOIN sub ON r.parent_rid = sub.rid) "
        "SELECT b.rid, b.kind, r.id, b.customer_id, b.prefix FROM address_blocks b "
        "JOIN resources r ON r.rid = b.rid WHERE b.rid IN (SELECT rid FROM sub) AND NOT EXISTS "
        "(SELECT 1 FROM address_blocks o WHERE o.rid = $1 AND o.lo <= b.lo AND o.hi >= b.hi) "
        "ORDER BY b.rid, b.position LIMIT 1";
    struct pg_params a = {0};
    pp_int(&a, rid);
    PGresult *res;
    int rc = pg_one(s, sql, &a, &res);
    if (rc == STORE_OK) {
        rc = row_hit(res, 0, out);
        PQclear(res);
    }
    return rc;
}
