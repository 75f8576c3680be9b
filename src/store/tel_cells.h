/* tel_cells.h — the destination roll-ups of one site and one minute, hour or
 * day in one value (SQLite's tel_dst_minutes, tel_dst_hours, tel_dst_days,
 * migration 013): a sequence of cells sorted by (destination, action,
 * policy), each with its sums. A flow then costs no B-tree row of its own in
 * these roll-ups: an ingest writes one row per site and period.
 *
 * A cell: dst (17-byte address key), action (1 byte), the policy's length
 * (1 byte, at most TEL_CELL_POLICY) and its bytes, then bytes, packets and
 * flows as big-endian int64. Hours and days keep action 0 and policy "". */
#ifndef PARAPET_TEL_CELLS_H
#define PARAPET_TEL_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/tel_sums.h"
#include "store/telemetry.h"
#include "store/telemetry_op.h"

enum { TEL_CELL_POLICY = 32, TEL_CELL_MAX = TEL_ADDR_KEY + 2 + TEL_CELL_POLICY + 24 };

struct tel_cell {
    uint8_t dst[TEL_ADDR_KEY];
    uint8_t action;
    char policy[TEL_CELL_POLICY + 1];
    struct tel_counts c;
};

/* Writes c at out (TEL_CELL_MAX bytes of room): the bytes written. */
size_t tel_cell_put(uint8_t *out, const struct tel_cell *c);
/* Reads the cell at *at of v[0..n) and moves *at past it: 1, 0 at the end,
 * -1 malformed. */
int tel_cell_next(const uint8_t *v, size_t n, size_t *at, struct tel_cell *c);
/* The order of the cells: destination, action, policy. */
int tel_cell_cmp(const struct tel_cell *a, const struct tel_cell *b);
/* Whether v[0..n) is well formed and strictly in order. */
bool tel_cells_valid(const uint8_t *v, size_t n);
/* a + b (both valid): cells of equal keys summed. *out is malloc'd (NULL
 * and 0 when both are empty). 0, or -1 out of memory. */
int tel_cells_merge(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t **out, size_t *nout);
/* The sums of the cells whose destination lies in [lo, hi] (NULL: all). 0,
 * or -1 malformed. */
int tel_cells_sum(const uint8_t *v, size_t n, const uint8_t *lo, const uint8_t *hi, struct tel_counts *sum);

/* A growing buffer of cells, for writers that append them in order. */
struct tel_cells_buf {
    uint8_t *v;
    size_t n, cap;
};
/* Appends c (the caller keeps the order). 0, or -1 out of memory. */
int tel_cells_append(struct tel_cells_buf *b, const struct tel_cell *c);
void tel_cells_buf_free(struct tel_cells_buf *b);

/* ---- what the dashboards' reads share (both stores) ---- */

/* Adds the cells of one minute's row (v[0..n)) toward range and of policy
 * (NULL: any) to the dense slots of tel_minutes_add_to (tel_vector.h). 0,
 * or -1 malformed. */
int tel_cells_to_minutes(struct tel_minute *slots, int64_t first, int64_t to, int64_t minute, const uint8_t *v,
                         size_t n, const struct tel_range *range, const char *policy);

/* One row of a store's minutes query (tel_op_minutes): with q->range, a
 * minute's cells (start: the minute); without, the vector of an hour
 * (start) of one action, and whether its policy is the observations'. */
struct tel_minutes_row {
    int64_t start;
    const uint8_t *v;
    size_t len;
    int action;    /* without a range only */
    bool observed; /* without a range only */
};
/* Adds the row to the dense slots of the minutes [first, to) and, when obs
 * is not NULL, what it holds of the observations to obs. 0, or -1
 * malformed. */
int tel_minutes_add_row(const struct tel_minutes_query *q, const struct tel_minutes_row *r, struct tel_minute *slots,
                        struct tel_minute *obs, int64_t first, int64_t to);

/* Sums per destination: a tel_sums map of these (tel_cells_by_dst_init). */
struct tel_dst_sum {
    uint8_t dst[24]; /* the address key, zero-padded to keep the counts aligned */
    struct tel_counts c;
};
void tel_cells_by_dst_init(struct tel_sums *m);
/* Adds the cells of v[0..n) to m, per destination. 0, or -1 malformed or
 * out of memory. */
int tel_cells_by_dst(struct tel_sums *m, const uint8_t *v, size_t n);
/* The destinations of m ranked as a top list: the largest `limit` by bytes
 * (or packets), ties by the address's text; *all the sums of them all.
 * *out is calloc'd (limit rows). 0, or -1 out of memory. */
int tel_cells_top(const struct tel_sums *m, bool by_packets, long limit, struct tel_top_row **out, size_t *n,
                  struct tel_top_row *all);

#endif
