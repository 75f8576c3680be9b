/* tel_top.h — a top list of raw flows summed in C: the flows of a window
 * by one key (an integer, an address key or a text), with their sums and
 * the largest source country among them, ranked by bytes or packets,
 * largest first, ties by the key in SQL's order (integers by value, address
 * keys by their bytes, text by its bytes), and the totals of all of them.
 *
 * The same answer as `GROUP BY key ORDER BY sum DESC, key LIMIT n` with
 * max(country), which sorted every flow of the window: one pass with a hash
 * instead (store/sqlite/tel_op.c; test_tel_ingest runs the SQL beside it). */
#ifndef PARAPET_TEL_TOP_H
#define PARAPET_TEL_TOP_H

#include "store/tel_sums.h"
#include "store/telemetry.h"
#include "store/telemetry_op.h"

enum tel_key_type { TEL_KEY_INT, TEL_KEY_ADDR, TEL_KEY_TEXT };

/* The type of dimension dim's key (TEL_DIM_APP .. TEL_DIM_DST_PORT). */
enum tel_key_type tel_dim_key_type(int dim);

struct tel_top_sums {
    enum tel_key_type type;
    struct tel_sums keys; /* (key, country) -> bytes, packets, flows */
    struct tel_counts total;
};

void tel_top_sums_init(struct tel_top_sums *t, enum tel_key_type type);
/* Adds one flow: its key (number for TEL_KEY_INT; addr, TEL_ADDR_KEY bytes,
 * for TEL_KEY_ADDR; text for TEL_KEY_TEXT), its source country and counts.
 * 0, or -1 out of memory. */
int tel_top_sums_add(struct tel_top_sums *t, int64_t number, const uint8_t *addr, const char *text,
                     const char *country, int64_t bytes, int64_t packets);
/* The largest `limit` keys in *out (calloc'd, or NULL when none; the caller
 * frees it), their number in *n, and the totals in *all (when not NULL).
 * 0, or -1 out of memory. */
int tel_top_sums_result(struct tel_top_sums *t, bool by_packets, long limit, struct tel_top_row **out, size_t *n,
                        struct tel_top_row *all);
void tel_top_sums_free(struct tel_top_sums *t);

struct store;
/* tel_op_tops by one tel_op_top a list (for a backend, or a window, that
 * reads each apart); on failure no list holds rows. A store status. */
int tel_tops_each(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                  struct tel_top_row *all);
/* Frees the lists' rows. */
void tel_tops_clear(struct tel_top_list *lists, size_t n_lists);

#endif
