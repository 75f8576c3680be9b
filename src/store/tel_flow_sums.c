/* store/tel_flow_sums.c — see tel_flow_sums.h. */
#include "store/tel_flow_sums.h"

void tel_flow_sums_init(struct tel_flow_sums *f)
{
    tel_flow_rollups_init(&f->roll);
    tel_dst_sums_init(&f->dst);
}

int tel_flow_sums_add(struct tel_flow_sums *f, int64_t site_rid, const struct tel_flow *flow)
{
    return tel_flow_rollups_add(&f->roll, site_rid, flow) == 0 && tel_dst_sums_add(&f->dst, site_rid, flow) == 0
               ? 0
               : -1;
}

size_t tel_flow_sums_keys(const struct tel_flow_sums *f)
{
    return f->roll.site_minutes.n + f->roll.hours.n + tel_dst_sums_keys(&f->dst);
}

void tel_flow_sums_clear(struct tel_flow_sums *f)
{
    tel_flow_rollups_clear(&f->roll);
    tel_dst_sums_clear(&f->dst);
}

void tel_flow_sums_free(struct tel_flow_sums *f)
{
    tel_flow_rollups_free(&f->roll);
    tel_dst_sums_free(&f->dst);
}
