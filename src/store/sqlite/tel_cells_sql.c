/* sqlite/tel_cells_sql.c — SQL functions over destination cells
 * (store/tel_cells.h) on every SQLite connection:
 *   tel_cells_add(a, b): a + b, cells of equal keys summed (NULL: none), for
 *   the upserts of tel_dst_minutes, tel_dst_hours and tel_dst_days;
 *   tel_cells_sum(cells, lo, hi, what): the bytes (what 0), packets (1) or
 *   flows (2) of the cells whose destination lies in [lo, hi] (NULL: no
 *   bound), for the events' peaks and for checks;
 *   tel_cells_pack(dst, action, policy, bytes, packets, flows): an aggregate,
 *   the cells of its rows (dst an address key or an address's text), for
 *   migration 013. */
#include "store/sqlite/tel_cells_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "store/tel_cells.h"

/* A cells argument: NULL and empty are no cells; *ok false when malformed. */
static const uint8_t *cells_arg(sqlite3_value *v, size_t *n, bool *ok)
{
    *n = 0;
    *ok = true;
    if (sqlite3_value_type(v) == SQLITE_NULL)
        return NULL;
    const uint8_t *p = sqlite3_value_blob(v);
    *n = (size_t)sqlite3_value_bytes(v);
    *ok = sqlite3_value_type(v) == SQLITE_BLOB && tel_cells_valid(p, *n);
    return p;
}

static void cells_add(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    size_t na, nb, n;
    bool ok_a, ok_b;
    const uint8_t *a = cells_arg(argv[0], &na, &ok_a), *b = cells_arg(argv[1], &nb, &ok_b);
    uint8_t *sum;
    if (!ok_a || !ok_b) {
        sqlite3_result_error(ctx, "tel_cells_add: not destination cells", -1);
        return;
    }
    if (tel_cells_merge(a, na, b, nb, &sum, &n) != 0) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_blob(ctx, sum ? (const void *)sum : "", (int)n, SQLITE_TRANSIENT);
    free(sum);
}

/* An address key argument: NULL, or a blob of TEL_ADDR_KEY bytes. */
static bool key_arg(sqlite3_value *v, const uint8_t **key)
{
    *key = NULL;
    if (sqlite3_value_type(v) == SQLITE_NULL)
        return true;
    if (sqlite3_value_type(v) != SQLITE_BLOB || sqlite3_value_bytes(v) != TEL_ADDR_KEY)
        return false;
    *key = sqlite3_value_blob(v);
    return true;
}

static void cells_sum(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    size_t n;
    bool ok;
    const uint8_t *v = cells_arg(argv[0], &n, &ok), *lo, *hi;
    struct tel_counts sum;
    int what = sqlite3_value_int(argv[3]);
    if (!ok || !key_arg(argv[1], &lo) || !key_arg(argv[2], &hi) || what < 0 || what > 2 ||
        tel_cells_sum(v, n, lo, hi, &sum) != 0) {
        sqlite3_result_error(ctx, "tel_cells_sum: bad arguments", -1);
        return;
    }
    sqlite3_result_int64(ctx, what == 0 ? sum.bytes : what == 1 ? sum.packets : sum.flows);
}

struct pack {
    struct tel_cell *cells;
    size_t n, cap;
    bool failed;
};

static void pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct pack *p = sqlite3_aggregate_context(ctx, sizeof *p);
    if (!p) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (p->failed)
        return;
    struct tel_cell c;
    memset(&c, 0, sizeof c);
    struct ip_addr a;
    const char *policy = (const char *)sqlite3_value_text(argv[2]);
    if (sqlite3_value_type(argv[0]) == SQLITE_BLOB && sqlite3_value_bytes(argv[0]) == TEL_ADDR_KEY) {
        memcpy(c.dst, sqlite3_value_blob(argv[0]), TEL_ADDR_KEY);
    } else if (sqlite3_value_type(argv[0]) == SQLITE_TEXT &&
               ip_parse((const char *)sqlite3_value_text(argv[0]), &a) == 0) {
        c.dst[0] = (uint8_t)a.family;
        memcpy(c.dst + 1, a.b, 16);
    } else {
        p->failed = true;
        return;
    }
    c.action = (uint8_t)sqlite3_value_int(argv[1]);
    if (policy && strlen(policy) > TEL_CELL_POLICY) {
        p->failed = true;
        return;
    }
    snprintf(c.policy, sizeof c.policy, "%s", policy ? policy : "");
    c.c = (struct tel_counts){sqlite3_value_int64(argv[3]), sqlite3_value_int64(argv[4]),
                              sqlite3_value_int64(argv[5])};
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        struct tel_cell *cells = realloc(p->cells, cap * sizeof *cells);
        if (!cells) {
            p->failed = true;
            return;
        }
        p->cells = cells;
        p->cap = cap;
    }
    p->cells[p->n++] = c;
}

static int by_cell(const void *a, const void *b)
{
    return tel_cell_cmp(a, b);
}

static void pack_final(sqlite3_context *ctx)
{
    struct pack *p = sqlite3_aggregate_context(ctx, 0);
    struct tel_cells_buf b = {0};
    bool failed = p && p->failed;
    if (p && !failed) {
        qsort(p->cells, p->n, sizeof *p->cells, by_cell);
        for (size_t i = 0; i < p->n && !failed; i++) {
            struct tel_cell c = p->cells[i];
            for (; i + 1 < p->n && tel_cell_cmp(&c, &p->cells[i + 1]) == 0; i++) {
                c.c.bytes += p->cells[i + 1].c.bytes;
                c.c.packets += p->cells[i + 1].c.packets;
                c.c.flows += p->cells[i + 1].c.flows;
            }
            failed = tel_cells_append(&b, &c) != 0;
        }
    }
    if (p)
        free(p->cells);
    if (failed)
        sqlite3_result_error(ctx, "tel_cells_pack: not a destination cell", -1);
    else
        sqlite3_result_blob(ctx, b.v ? (const void *)b.v : "", (int)b.n, SQLITE_TRANSIENT);
    tel_cells_buf_free(&b);
}

int sq_tel_cells_functions(sqlite3 *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    return sqlite3_create_function(db, "tel_cells_add", 2, flags, NULL, cells_add, NULL, NULL) == SQLITE_OK &&
                   sqlite3_create_function(db, "tel_cells_sum", 4, flags, NULL, cells_sum, NULL, NULL) ==
                       SQLITE_OK &&
                   sqlite3_create_function(db, "tel_cells_pack", 6, flags, NULL, NULL, pack_step, pack_final) ==
                       SQLITE_OK
               ? 0
               : -1;
}
