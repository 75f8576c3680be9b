/* tel_dst_sums.h — the roll-ups by destination that a write adds to
 * (tel_dst_minutes, tel_dst_hours, tel_dst_days: tel_cells.h), summed in
 * memory per key, then handed out one row of cells per site and period, in
 * key order. Both stores' ingest use it (SQLite per transaction, PostgreSQL
 * per slice of flows). */
#ifndef PARAPET_TEL_DST_SUMS_H
#define PARAPET_TEL_DST_SUMS_H

#include "store/tel_cells.h"
#include "store/tel_sums.h"
#include "store/telemetry.h"

enum tel_dst_period { TEL_DST_MINUTES, TEL_DST_HOURS, TEL_DST_DAYS };

struct tel_dst_sums {
    struct tel_sums minutes, hours, days; /* days: filled from the hours by tel_dst_sums_rows */
};

void tel_dst_sums_init(struct tel_dst_sums *d);
/* Adds one new flow of a site. 0, or -1 out of memory. */
int tel_dst_sums_add(struct tel_dst_sums *d, int64_t site_rid, const struct tel_flow *f);
/* The keys held (minutes and hours): a measure of the memory used. */
size_t tel_dst_sums_keys(const struct tel_dst_sums *d);
/* Calls row() for each site and period start of the period's sums, with
 * its cells, in key order; stops at the first non-zero answer, which it
 * returns (-1 out of memory). */
int tel_dst_sums_rows(struct tel_dst_sums *d, enum tel_dst_period period,
                      int (*row)(void *ctx, int64_t site_rid, int64_t start, const uint8_t *cells, size_t n),
                      void *ctx);
/* Empties the sums (keeping their memory), and frees them. */
void tel_dst_sums_clear(struct tel_dst_sums *d);
void tel_dst_sums_free(struct tel_dst_sums *d);

#endif
