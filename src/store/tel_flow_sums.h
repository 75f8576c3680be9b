/* store/tel_flow_sums.h — everything new flows add to the roll-ups in a
 * write transaction, as both stores keep it until they write it: the site
 * minutes, hours and days (tel_sums.h, tel_flow_rollups) and the sums by
 * destination (tel_dst_sums.h). */
#ifndef PARAPET_STORE_TEL_FLOW_SUMS_H
#define PARAPET_STORE_TEL_FLOW_SUMS_H

#include <stddef.h>

#include "store/tel_dst_sums.h"
#include "store/tel_sums.h"

struct tel_flow_sums {
    struct tel_flow_rollups roll;
    struct tel_dst_sums dst;
};

void tel_flow_sums_init(struct tel_flow_sums *f);
/* Adds one flow new to the store, of the site site_rid. 0, or -1 out of
 * memory. */
int tel_flow_sums_add(struct tel_flow_sums *f, int64_t site_rid, const struct tel_flow *flow);
/* The keys held (to bound a transaction's memory). */
size_t tel_flow_sums_keys(const struct tel_flow_sums *f);
void tel_flow_sums_clear(struct tel_flow_sums *f);
void tel_flow_sums_free(struct tel_flow_sums *f);

#endif
