/* tel_cells.c — see tel_cells.h. */
#include "store/tel_cells.h"

#include <stdlib.h>
#include <string.h>

static void put64(uint8_t *p, int64_t v)
{
    uint64_t u = (uint64_t)v;
    for (int i = 7; i >= 0; i--, u >>= 8)
        p[i] = (uint8_t)u;
}

static int64_t get64(const uint8_t *p)
{
    uint64_t u = 0;
    for (int i = 0; i < 8; i++)
        u = u << 8 | p[i];
    return (int64_t)u;
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

int tel_cells_sum(const uint8_t *v, size_t n, const uint8_t *lo, const uint8_t *hi, struct tel_counts *sum)
{
    struct tel_cell c;
    size_t at = 0;
    int rc;
    *sum = (struct tel_counts){0};
    while ((rc = tel_cell_next(v, n, &at, &c)) == 1) {
        if (lo && memcmp(c.dst, lo, TEL_ADDR_KEY) < 0)
            continue;
        if (hi && memcmp(c.dst, hi, TEL_ADDR_KEY) > 0)
            break; /* in destination order: none further is in range */
        sum->bytes += c.c.bytes;
        sum->packets += c.c.packets;
        sum->flows += c.c.flows;
    }
    return rc < 0 ? -1 : 0;
}
