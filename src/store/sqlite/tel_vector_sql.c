/* sqlite/tel_vector.c — SQL functions over per-minute vectors (tel_vector.h)
 * on every SQLite connection, for the upserts of tel_site_hours and for
 * migration 011, which builds the table from per-minute rows:
 *   tel_minutes_add(a, b): a + b, minute by minute (NULL counts as zeros);
 *   tel_minutes_vector(i, bytes, packets): an aggregate, the vector whose
 *   minute i holds the sums of its rows' bytes and packets;
 * and those over destination cells (tel_cells_sql.c). */
#include <stdlib.h>
#include <string.h>

#include "store/sqlite/conn.h"
#include "store/sqlite/tel_cells_sql.h"
#include "store/tel_vector.h"

static const uint8_t *vec_arg(sqlite3_value *v)
{
    if (sqlite3_value_type(v) != SQLITE_BLOB || !tel_vec_valid((size_t)sqlite3_value_bytes(v)))
        return NULL;
    return sqlite3_value_blob(v);
}

static void minutes_add(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    bool null_a = sqlite3_value_type(argv[0]) == SQLITE_NULL, null_b = sqlite3_value_type(argv[1]) == SQLITE_NULL;
    const uint8_t *a = vec_arg(argv[0]), *b = vec_arg(argv[1]);
    if ((!a && !null_a) || (!b && !null_b)) {
        sqlite3_result_error(ctx, "tel_minutes_add: not a minute vector", -1);
        return;
    }
    uint8_t sum[TEL_VEC_BYTES] = {0};
    if (a)
        memcpy(sum, a, TEL_VEC_BYTES);
    if (b)
        tel_vec_add(sum, b);
    sqlite3_result_blob(ctx, sum, TEL_VEC_BYTES, SQLITE_TRANSIENT);
}

static void vector_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    uint8_t *v = sqlite3_aggregate_context(ctx, TEL_VEC_BYTES);
    int64_t i = sqlite3_value_int64(argv[0]);
    if (!v || i < 0 || i >= TEL_VEC_MINUTES) {
        sqlite3_result_error(ctx, v ? "tel_minutes_vector: minute out of range" : "out of memory", -1);
        return;
    }
    int64_t bytes, packets;
    tel_vec_get(v, (int)i, &bytes, &packets);
    tel_vec_set(v, (int)i, bytes + sqlite3_value_int64(argv[1]), packets + sqlite3_value_int64(argv[2]));
}

static void vector_final(sqlite3_context *ctx)
{
    uint8_t *v = sqlite3_aggregate_context(ctx, 0);
    uint8_t zeros[TEL_VEC_BYTES] = {0};
    sqlite3_result_blob(ctx, v ? v : zeros, TEL_VEC_BYTES, SQLITE_TRANSIENT);
}

int sq_tel_vector_functions(sqlite3 *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    return sqlite3_create_function(db, "tel_minutes_add", 2, flags, NULL, minutes_add, NULL, NULL) == SQLITE_OK &&
                   sqlite3_create_function(db, "tel_minutes_vector", 3, flags, NULL, NULL, vector_step,
                                           vector_final) == SQLITE_OK &&
                   sq_tel_cells_functions(db) == 0
               ? 0
               : -1;
}
