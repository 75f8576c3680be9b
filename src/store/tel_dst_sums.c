/* tel_dst_sums.c — see tel_dst_sums.h. */
#include "store/tel_dst_sums.h"

#include <string.h>

#include "base/text.h"

/* A minute's key holds action and policy; an hour's or day's leaves them
 * zero (action 0, policy ""). */
struct dst_item {
    struct dst_key {
        int64_t site_rid, start;
        uint8_t dst[TEL_ADDR_KEY];
        uint8_t action;
        char policy[TEL_CELL_POLICY + 1];
    } key;
    struct tel_counts c;
};

static int cmp_key(const void *pa, const void *pb)
{
    const struct dst_key *a = pa, *b = pb;
    if (a->site_rid != b->site_rid)
        return a->site_rid < b->site_rid ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    int c = memcmp(a->dst, b->dst, TEL_ADDR_KEY);
    if (c)
        return c;
    if (a->action != b->action)
        return a->action - b->action;
    return strcmp(a->policy, b->policy);
}

void tel_dst_sums_init(struct tel_dst_sums *d)
{
    tel_sums_init(&d->minutes, sizeof(struct dst_item), sizeof(struct dst_key));
    tel_sums_init(&d->hours, sizeof(struct dst_item), sizeof(struct dst_key));
    tel_sums_init(&d->days, sizeof(struct dst_item), sizeof(struct dst_key));
}

int tel_dst_sums_add(struct tel_dst_sums *d, int64_t site_rid, const struct tel_flow *f)
{
    struct dst_item it;
    memset(&it, 0, sizeof it);
    it.key.site_rid = site_rid;
    it.key.start = f->time - f->time % 3600;
    memcpy(it.key.dst, f->dst, TEL_ADDR_KEY);
    it.c = (struct tel_counts){f->bytes, f->packets, 1};
    if (!tel_flow_is_counter(f) && tel_sums_add(&d->hours, &it) != 0) /* hours: the breakdown by destination */
        return -1;
    it.key.start = f->time - f->time % 60;
    it.key.action = (uint8_t)f->action;
    copy_text(it.key.policy, sizeof it.key.policy, f->policy);
    return tel_sums_add(&d->minutes, &it);
}

size_t tel_dst_sums_keys(const struct tel_dst_sums *d)
{
    return d->minutes.n + d->hours.n;
}

int tel_dst_sums_rows(struct tel_dst_sums *d, enum tel_dst_period period,
                      int (*row)(void *ctx, int64_t site_rid, int64_t start, const uint8_t *cells, size_t n),
                      void *ctx)
{
    struct tel_sums *m = period == TEL_DST_MINUTES ? &d->minutes : period == TEL_DST_HOURS ? &d->hours : &d->days;
    if (period == TEL_DST_DAYS) { /* the days of the hours' sums: far fewer keys than flows */
        tel_sums_clear(m);
        for (size_t i = 0; i < d->hours.n; i++) {
            struct dst_item it = *(const struct dst_item *)tel_sums_item(&d->hours, i);
            it.key.start -= it.key.start % 86400;
            if (tel_sums_add(m, &it) != 0)
                return -1;
        }
    }
    if (tel_sums_sort(m, cmp_key) != 0)
        return -1;
    struct tel_cells_buf cells = {0};
    int rc = 0;
    for (size_t i = 0; i < m->n && rc == 0;) {
        const struct dst_item *first = tel_sums_sorted(m, i);
        cells.n = 0;
        for (; i < m->n && rc == 0; i++) {
            const struct dst_item *it = tel_sums_sorted(m, i);
            if (it->key.site_rid != first->key.site_rid || it->key.start != first->key.start)
                break;
            struct tel_cell c = {.action = it->key.action, .c = it->c};
            memcpy(c.dst, it->key.dst, TEL_ADDR_KEY);
            memcpy(c.policy, it->key.policy, sizeof c.policy);
            if (tel_cells_append(&cells, &c) != 0)
                rc = -1;
        }
        if (rc == 0)
            rc = row(ctx, first->key.site_rid, first->key.start, cells.v, cells.n);
    }
    tel_cells_buf_free(&cells);
    return rc;
}

void tel_dst_sums_clear(struct tel_dst_sums *d)
{
    tel_sums_clear(&d->minutes);
    tel_sums_clear(&d->hours);
    tel_sums_clear(&d->days);
}

void tel_dst_sums_free(struct tel_dst_sums *d)
{
    tel_sums_free(&d->minutes);
    tel_sums_free(&d->hours);
    tel_sums_free(&d->days);
}
