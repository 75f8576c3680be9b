/* tel_cells.c — see tel_cells.h. */
#include "store/tel_cells.h"

#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "store/tel_vector.h"

/* Big-endian int64s (be64toh: one instruction here). */
static void put64(uint8_t *p, int64_t v)
{
    uint64_t u = htobe64((uint64_t)v);
    memcpy(p, &u, sizeof u);
}

static int64_t get64(const uint8_t *p)
{
    uint64_t u;
    memcpy(&u, p, sizeof u);
    return (int64_t)be64toh(u);
}

size_t tel_cell_put(uint8_t *out, const struct tel_cell *c)
{
    size_t plen = strnlen(c->policy, TEL_CELL_POLICY), at = 0;
    memcpy(out, c->dst, TEL_ADDR_KEY);
    at += TEL_ADDR_KEY;
    out[at++] = c->action;
    out[at++] = (uint8_t)plen;
    memcpy(out + at, c->policy, plen);
    at += plen;
    put64(out + at, c->c.bytes);
    put64(out + at + 8, c->c.packets);
    put64(out + at + 16, c->c.flows);
    return at + 24;
}

int tel_cell_next(const uint8_t *v, size_t n, size_t *at, struct tel_cell *c)
{
    size_t i = *at;
    if (i == n)
        return 0;
    if (n - i < TEL_ADDR_KEY + 2)
        return -1;
    size_t plen = v[i + TEL_ADDR_KEY + 1];
    if (plen > TEL_CELL_POLICY || n - i < TEL_ADDR_KEY + 2 + plen + 24)
        return -1;
    memcpy(c->dst, v + i, TEL_ADDR_KEY);
    c->action = v[i + TEL_ADDR_KEY];
    i += TEL_ADDR_KEY + 2;
    memcpy(c->policy, v + i, plen);
    c->policy[plen] = '\0';
    if (memchr(c->policy, '\0', plen))
        return -1;
    i += plen;
    c->c.bytes = get64(v + i);
    c->c.packets = get64(v + i + 8);
    c->c.flows = get64(v + i + 16);
    *at = i + 24;
    return 1;
}

int tel_cell_cmp(const struct tel_cell *a, const struct tel_cell *b)
{
    int d = memcmp(a->dst, b->dst, TEL_ADDR_KEY);
    if (d)
        return d;
    if (a->action != b->action)
        return a->action < b->action ? -1 : 1;
    return strcmp(a->policy, b->policy);
}

bool tel_cells_valid(const uint8_t *v, size_t n)
{
    struct tel_cell prev, c;
    size_t at = 0;
    int rc;
    bool first = true;
    while ((rc = tel_cell_next(v, n, &at, &c)) == 1) {
        if (!first && tel_cell_cmp(&prev, &c) >= 0)
            return false;
        prev = c;
        first = false;
    }
    return rc == 0;
}

int tel_cells_append(struct tel_cells_buf *b, const struct tel_cell *c)
{
    if (b->cap - b->n < TEL_CELL_MAX) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        uint8_t *v = realloc(b->v, cap);
        if (!v)
            return -1;
        b->v = v;
        b->cap = cap;
    }
    b->n += tel_cell_put(b->v + b->n, c);
    return 0;
}

void tel_cells_buf_free(struct tel_cells_buf *b)
{
    free(b->v);
    *b = (struct tel_cells_buf){0};
}

int tel_cells_merge(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t **out, size_t *nout)
{
    struct tel_cells_buf m = {0};
    struct tel_cell ca, cb;
    size_t ia = 0, ib = 0;
    int ra = tel_cell_next(a, na, &ia, &ca), rb = tel_cell_next(b, nb, &ib, &cb);
    while (ra == 1 || rb == 1) {
        int d = ra != 1 ? 1 : rb != 1 ? -1 : tel_cell_cmp(&ca, &cb);
        struct tel_cell sum = d <= 0 ? ca : cb;
        if (d == 0) {
            sum.c.bytes += cb.c.bytes;
            sum.c.packets += cb.c.packets;
            sum.c.flows += cb.c.flows;
        }
        if (tel_cells_append(&m, &sum) != 0) {
            tel_cells_buf_free(&m);
            return -1;
        }
        if (d <= 0)
            ra = tel_cell_next(a, na, &ia, &ca);
        if (d >= 0)
            rb = tel_cell_next(b, nb, &ib, &cb);
    }
    if (ra < 0 || rb < 0) {
        tel_cells_buf_free(&m);
        return -1;
    }
    *out = m.v;
    *nout = m.n;
    return 0;
}

/* The size of the cell at v[at..n), checked as tel_cell_next checks it, or
 * 0 when malformed. */
static size_t cell_size(const uint8_t *v, size_t n, size_t at)
{
    if (n - at < TEL_ADDR_KEY + 2)
        return 0;
    size_t plen = v[at + TEL_ADDR_KEY + 1], size = TEL_ADDR_KEY + 2 + plen + 24;
    if (plen > TEL_CELL_POLICY || n - at < size || memchr(v + at + TEL_ADDR_KEY + 2, '\0', plen))
        return 0;
    return size;
}

/* Read in place: a row of a busy minute holds hundreds of destinations,
 * and most are outside the range an event's peak sums. */
int tel_cells_sum(const uint8_t *v, size_t n, const uint8_t *lo, const uint8_t *hi, struct tel_counts *sum)
{
    *sum = (struct tel_counts){0};
    for (size_t at = 0, size; at < n; at += size) {
        if (!(size = cell_size(v, n, at)))
            return -1;
        const uint8_t *dst = v + at;
        if (lo && memcmp(dst, lo, TEL_ADDR_KEY) < 0)
            continue;
        if (hi && memcmp(dst, hi, TEL_ADDR_KEY) > 0)
            break; /* in destination order: none further is in range */
        const uint8_t *counts = v + at + size - 24;
        sum->bytes += get64(counts);
        sum->packets += get64(counts + 8);
        sum->flows += get64(counts + 16);
    }
    return 0;
}

int tel_cells_to_minutes(struct tel_minute *slots, int64_t first, int64_t to, int64_t minute, const uint8_t *v,
                         size_t n, const struct tel_range *range, const char *policy)
{
    struct tel_cell c;
    size_t at = 0;
    int rc;
    while ((rc = tel_cell_next(v, n, &at, &c)) == 1) {
        if (memcmp(c.dst, range->lo, TEL_ADDR_KEY) < 0 || (policy && strcmp(c.policy, policy) != 0))
            continue;
        if (memcmp(c.dst, range->hi, TEL_ADDR_KEY) > 0)
            break; /* in destination order: none further is in range */
        tel_minutes_add_to(slots, first, to, minute, c.action ? 1 : 0, c.c.bytes, c.c.packets);
    }
    return rc < 0 ? -1 : 0;
}

int tel_minutes_add_row(const struct tel_minutes_query *q, const struct tel_minutes_row *r, struct tel_minute *slots,
                        struct tel_minute *obs, int64_t first, int64_t to)
{
    if (!r->v && r->len)
        return -1;
    if (q->range) /* (an empty value is no cells: SQLite reads it as NULL) */
        return tel_cells_to_minutes(slots, first, to, r->start, r->v, r->len, q->range, q->policy) != 0 ||
                       (obs && tel_cells_to_minutes(obs, first, to, r->start, r->v, r->len, q->range,
                                                    TEL_POLICY_OBSERVED) != 0)
                   ? -1
                   : 0;
    if (!tel_vec_valid(r->len))
        return -1;
    int action = r->action ? 1 : 0;
    tel_vec_add_to_minutes(slots, first, q->from, to, r->start, action, r->v);
    if (obs && r->observed)
        tel_vec_add_to_minutes(obs, first, q->from, to, r->start, action, r->v);
    return 0;
}

void tel_cells_by_dst_init(struct tel_sums *m)
{
    tel_sums_init(m, sizeof(struct tel_dst_sum), sizeof ((struct tel_dst_sum *)0)->dst);
}

int tel_cells_by_dst(struct tel_sums *m, const uint8_t *v, size_t n)
{
    struct tel_cell c;
    size_t at = 0;
    int rc;
    while ((rc = tel_cell_next(v, n, &at, &c)) == 1) {
        struct tel_dst_sum it;
        memset(&it, 0, sizeof it);
        memcpy(it.dst, c.dst, TEL_ADDR_KEY);
        it.c = c.c;
        if (tel_sums_add(m, &it) != 0)
            return -1;
    }
    return rc < 0 ? -1 : 0;
}

struct ranked {
    char key[NET_TEXT_MAX];
    struct tel_counts c;
};

static int by_size_then_key(const void *pa, const void *pb, void *by_packets)
{
    const struct ranked *a = pa, *b = pb;
    bool packets = *(const bool *)by_packets;
    int64_t x = packets ? a->c.packets : a->c.bytes, y = packets ? b->c.packets : b->c.bytes;
    if (x != y)
        return x > y ? -1 : 1;
    return strcmp(a->key, b->key);
}

int tel_cells_top(const struct tel_sums *m, bool by_packets, long limit, struct tel_top_row **out, size_t *n,
                  struct tel_top_row *all)
{
    *n = 0;
    struct ranked *r = malloc((m->n ? m->n : 1) * sizeof *r);
    *out = limit > 0 ? calloc((size_t)limit, sizeof **out) : NULL;
    if (!r || !*out) {
        free(r);
        free(*out);
        *out = NULL;
        return -1;
    }
    struct tel_counts total = {0};
    for (size_t i = 0; i < m->n; i++) {
        const struct tel_dst_sum *it = tel_sums_item(m, i);
        tel_addr_text(it->dst, r[i].key);
        r[i].c = it->c;
        total.bytes += it->c.bytes;
        total.packets += it->c.packets;
        total.flows += it->c.flows;
    }
    qsort_r(r, m->n, sizeof *r, by_size_then_key, &by_packets);
    for (size_t i = 0; i < m->n && *n < (size_t)limit; i++) {
        struct tel_top_row *row = &(*out)[(*n)++];
        snprintf(row->key, sizeof row->key, "%s", r[i].key);
        row->bytes = r[i].c.bytes;
        row->packets = r[i].c.packets;
        row->flows = r[i].c.flows;
    }
    if (all)
        *all = (struct tel_top_row){.bytes = total.bytes, .packets = total.packets, .flows = total.flows};
    free(r);
    return 0;
}
