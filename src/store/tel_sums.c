/* tel_sums.c — see tel_sums.h. FNV-1a over the key bytes, linear probing. */
#include "store/tel_sums.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"

void tel_sums_init(struct tel_sums *m, size_t item_size, size_t key_size)
{
    *m = (struct tel_sums){.item_size = item_size, .key_size = key_size};
}

/* Over 8-byte words (keys are zero-padded structs; a tail shorter than a
 * word is taken byte by byte, FNV-1a), each multiplied and folded so that
 * its high bytes reach the low bits too, then a final mix for the low bits
 * the mask keeps. */
static uint64_t key_hash(const void *key, size_t n)
{
    const unsigned char *p = key;
    uint64_t h = 1469598103934665603u, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15u;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    return h ^ (h >> 32);
}

void *tel_sums_item(const struct tel_sums *m, size_t i)
{
    return m->items + i * m->item_size;
}

struct tel_counts *tel_sums_counts(const struct tel_sums *m, size_t i)
{
    return (struct tel_counts *)((char *)tel_sums_item(m, i) + m->key_size);
}

#define SLOT_INDEX(v) ((uint32_t)(v))
#define SLOT_TAG(h) ((h) & 0xffffffff00000000u)

/* The slot holding key (whose hash is h), or the empty slot where it would go. */
static size_t find_slot(const struct tel_sums *m, const void *key, uint64_t h)
{
    size_t mask = m->nslots - 1, at = (size_t)h & mask;
    uint64_t v;
    while ((v = m->slots[at]) &&
           (SLOT_TAG(v) != SLOT_TAG(h) || memcmp(tel_sums_item(m, SLOT_INDEX(v) - 1), key, m->key_size) != 0))
        at = (at + 1) & mask;
    return at;
}

static void reslot(struct tel_sums *m)
{
    memset(m->slots, 0, m->nslots * sizeof *m->slots);
    for (size_t i = 0; i < m->n; i++) {
        uint64_t h = key_hash(tel_sums_item(m, i), m->key_size);
        m->slots[find_slot(m, tel_sums_item(m, i), h)] = SLOT_TAG(h) | (uint32_t)(i + 1);
    }
}

static int grow(struct tel_sums *m)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        char *items = realloc(m->items, cap * m->item_size);
        if (!items)
            return -1;
        m->items = items;
        m->cap = cap;
    }
    if (2 * (m->n + 1) > m->nslots) {
        size_t nslots = m->nslots ? m->nslots * 2 : 512;
        uint64_t *slots = calloc(nslots, sizeof *slots);
        if (!slots)
            return -1;
        free(m->slots);
        m->slots = slots;
        m->nslots = nslots;
        reslot(m);
    }
    return 0;
}

int tel_sums_add(struct tel_sums *m, const void *item)
{
    uint64_t h = key_hash(item, m->key_size);
    if (m->nslots) {
        size_t at = find_slot(m, item, h);
        if (m->slots[at]) {
            struct tel_counts *sum = tel_sums_counts(m, SLOT_INDEX(m->slots[at]) - 1);
            const struct tel_counts *add = (const struct tel_counts *)((const char *)item + m->key_size);
            sum->bytes += add->bytes;
            sum->packets += add->packets;
            sum->flows += add->flows;
            return 0;
        }
    }
    if (m->n >= UINT32_MAX - 1 || grow(m) != 0)
        return -1;
    memcpy(tel_sums_item(m, m->n), item, m->item_size);
    m->slots[find_slot(m, item, h)] = SLOT_TAG(h) | (uint32_t)(m->n + 1);
    m->n++;
    return 0;
}

struct order_ctx {
    const struct tel_sums *m;
    int (*cmp)(const void *, const void *);
};

static int by_item(const void *pa, const void *pb, void *arg)
{
    const struct order_ctx *c = arg;
    return c->cmp(tel_sums_item(c->m, *(const uint32_t *)pa), tel_sums_item(c->m, *(const uint32_t *)pb));
}

/* The items stay where they are (and the slots valid): only their order is
 * sorted, as indexes (an item is ~100 bytes; qsort would copy each move). */
int tel_sums_sort(struct tel_sums *m, int (*cmp)(const void *, const void *))
{
    uint32_t *order = realloc(m->order, (m->n ? m->n : 1) * sizeof *order);
    if (!order)
        return -1;
    m->order = order;
    for (size_t i = 0; i < m->n; i++)
        order[i] = (uint32_t)i;
    struct order_ctx c = {m, cmp};
    qsort_r(order, m->n, sizeof *order, by_item, &c);
    return 0;
}

void *tel_sums_sorted(const struct tel_sums *m, size_t i)
{
    return tel_sums_item(m, m->order[i]);
}

void tel_sums_clear(struct tel_sums *m)
{
    m->n = 0;
    if (m->slots)
        memset(m->slots, 0, m->nslots * sizeof *m->slots);
}

void tel_sums_free(struct tel_sums *m)
{
    free(m->items);
    free(m->slots);
    free(m->order);
    tel_sums_init(m, m->item_size, m->key_size);
}

/* ---- the flow roll-ups ---- */

void tel_flow_rollups_init(struct tel_flow_rollups *r)
{
    tel_sums_init(&r->site_minutes, sizeof(struct tel_minute_item), sizeof(struct tel_minute_key));
    tel_sums_init(&r->hours, sizeof(struct tel_hour_item), sizeof(struct tel_hour_key));
    tel_sums_init(&r->days, sizeof(struct tel_hour_item), sizeof(struct tel_hour_key));
}

/* Its minute, and its hour by each dimension but the destination (unless a
 * counter: store/telemetry.h); the days are summed from the hours later. */
int tel_flow_rollups_add(struct tel_flow_rollups *r, int64_t site_rid, const struct tel_flow *f)
{
    struct tel_counts c = {f->bytes, f->packets, 1};
    struct tel_minute_item m;
    memset(&m, 0, sizeof m);
    m.key.site_rid = site_rid;
    m.key.minute = f->time - f->time % 60;
    m.key.action = (uint8_t)f->action;
    copy_text(m.key.policy, sizeof m.key.policy, f->policy);
    m.c = c;
    if (tel_sums_add(&r->site_minutes, &m) != 0)
        return -1;
    if (tel_flow_is_counter(f))
        return 0;
    for (int d = TEL_ROLL_APP; d <= TEL_ROLL_PROTOCOL; d++) {
        if (d == TEL_ROLL_DST)
            continue;
        struct tel_hour_item h;
        memset(&h, 0, sizeof h);
        h.key.site_rid = site_rid;
        h.key.dim = d;
        h.key.hour = f->time - f->time % 3600;
        h.c = c;
        int64_t number = d == TEL_ROLL_AS ? f->src_as : f->protocol;
        switch (d) {
        case TEL_ROLL_APP: copy_text(h.key.key, sizeof f->app, f->app); break; /* (the key is the larger) */
        case TEL_ROLL_COUNTRY: copy_text(h.key.key, sizeof f->country, f->country); break;
        default: memcpy(h.key.key, &number, sizeof number); break; /* AS, protocol */
        }
        if (tel_sums_add(&r->hours, &h) != 0)
            return -1;
    }
    return 0;
}

int tel_flow_rollups_days(struct tel_flow_rollups *r)
{
    for (size_t i = 0; i < r->hours.n; i++) {
        struct tel_hour_item h = *(const struct tel_hour_item *)tel_sums_item(&r->hours, i);
        h.key.hour -= h.key.hour % 86400; /* the day's start */
        if (tel_sums_add(&r->days, &h) != 0)
            return -1;
    }
    return 0;
}

int tel_cmp_site_hour(const void *pa, const void *pb)
{
    const struct tel_minute_key *a = pa, *b = pb;
    int64_t ha = a->minute - a->minute % 3600, hb = b->minute - b->minute % 3600;
    if (a->site_rid != b->site_rid)
        return a->site_rid < b->site_rid ? -1 : 1;
    if (ha != hb)
        return ha < hb ? -1 : 1;
    if (a->action != b->action)
        return a->action - b->action;
    int c = strcmp(a->policy, b->policy);
    if (c)
        return c;
    return a->minute < b->minute ? -1 : a->minute > b->minute;
}

int tel_cmp_hour(const void *pa, const void *pb)
{
    const struct tel_hour_key *a = pa, *b = pb;
    if (a->site_rid != b->site_rid)
        return a->site_rid < b->site_rid ? -1 : 1;
    if (a->dim != b->dim)
        return a->dim - b->dim;
    if (a->hour != b->hour)
        return a->hour < b->hour ? -1 : 1;
    return memcmp(a->key, b->key, sizeof a->key);
}

int tel_site_hour_rows(struct tel_sums *m, int (*row)(void *ctx, const struct tel_site_hour_row *r), void *ctx)
{
    if (tel_sums_sort(m, tel_cmp_site_hour) != 0)
        return -1;
    struct tel_site_hour_row r;
    for (size_t i = 0; i < m->n;) {
        const struct tel_minute_item *first = tel_sums_sorted(m, i);
        memset(&r, 0, sizeof r);
        r.site_rid = first->key.site_rid;
        r.hour = first->key.minute - first->key.minute % 3600;
        r.action = first->key.action;
        r.policy = first->key.policy;
        for (; i < m->n; i++) {
            const struct tel_minute_item *it = tel_sums_sorted(m, i);
            if (it->key.minute - it->key.minute % 3600 != r.hour || it->key.site_rid != r.site_rid ||
                it->key.action != r.action || strcmp(it->key.policy, r.policy) != 0)
                break;
            tel_vec_set(r.mins, (int)(it->key.minute % 3600 / 60), it->c.bytes, it->c.packets);
            r.flows += it->c.flows;
        }
        int rc = row(ctx, &r);
        if (rc)
            return rc;
    }
    return 0;
}

void tel_hour_key_text(const struct tel_hour_key *k, char out[NET_TEXT_MAX])
{
    int64_t v;
    switch (k->dim) {
    case TEL_ROLL_AS:
    case TEL_ROLL_PROTOCOL:
        memcpy(&v, k->key, sizeof v);
        snprintf(out, NET_TEXT_MAX, "%lld", (long long)v);
        break;
    default: copy_text(out, sizeof k->key, k->key);
    }
}

void tel_flow_rollups_clear(struct tel_flow_rollups *r)
{
    tel_sums_clear(&r->site_minutes);
    tel_sums_clear(&r->hours);
    tel_sums_clear(&r->days);
}

void tel_flow_rollups_free(struct tel_flow_rollups *r)
{
    tel_sums_free(&r->site_minutes);
    tel_sums_free(&r->hours);
    tel_sums_free(&r->days);
}
