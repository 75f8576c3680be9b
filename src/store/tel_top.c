/* tel_top.c — see tel_top.h. */
#include "store/tel_top.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "store/store.h"

/* A key of the list with a source country (zeroed before it is filled:
 * tel_sums compares the padding too). An item of the map is the first
 * key_size bytes of a top_key, those of its type (16 for a number, 32 for
 * an address, 72 for a text), then its counts: the map hashes and
 * compares no more than the type needs. */
struct top_key {
    char country[sizeof ((struct tel_top_row *)0)->country];
    union {
        int64_t number;
        uint8_t addr[TEL_ADDR_KEY];
        char text[sizeof ((struct tel_top_row *)0)->key];
    };
};

static size_t key_size(enum tel_key_type type)
{
    size_t own = sizeof ((struct top_key *)0)->text;
    if (type == TEL_KEY_INT)
        own = sizeof(int64_t);
    else if (type == TEL_KEY_ADDR)
        own = TEL_ADDR_KEY;
    size_t n = offsetof(struct top_key, number) + own;
    return (n + 7) / 8 * 8; /* the counts after it aligned */
}

static const struct tel_counts *counts_of(const struct tel_top_sums *t, const struct top_key *k)
{
    return (const struct tel_counts *)((const char *)k + t->keys.key_size);
}

void tel_top_sums_init(struct tel_top_sums *t, enum tel_key_type type)
{
    memset(t, 0, sizeof *t);
    t->type = type;
    tel_sums_init(&t->keys, key_size(type) + sizeof(struct tel_counts), key_size(type));
}

void tel_top_sums_free(struct tel_top_sums *t)
{
    tel_sums_free(&t->keys);
}

enum tel_key_type tel_dim_key_type(int dim)
{
    switch (dim) {
    case TEL_DIM_AS:
    case TEL_DIM_PROTOCOL:
    case TEL_DIM_SRC_PORT:
    case TEL_DIM_DST_PORT: return TEL_KEY_INT;
    case TEL_DIM_DST:
    case TEL_DIM_SRC: return TEL_KEY_ADDR;
    default: return TEL_KEY_TEXT; /* application, country */
    }
}

int tel_top_sums_add(struct tel_top_sums *t, int64_t number, const uint8_t *addr, const char *text,
                     const char *country, int64_t bytes, int64_t packets)
{
    union {
        struct top_key key;
        char bytes[sizeof(struct top_key) + sizeof(struct tel_counts)];
    } it;
    memset(&it, 0, sizeof it);
    switch (t->type) {
    case TEL_KEY_INT: it.key.number = number; break;
    case TEL_KEY_ADDR: memcpy(it.key.addr, addr, TEL_ADDR_KEY); break;
    case TEL_KEY_TEXT: copy_text(it.key.text, sizeof it.key.text, text ? text : ""); break;
    }
    copy_text(it.key.country, sizeof it.key.country, country ? country : "");
    const struct tel_counts c = {bytes, packets, 1};
    memcpy(it.bytes + t->keys.key_size, &c, sizeof c);
    t->total.bytes += bytes;
    t->total.packets += packets;
    t->total.flows++;
    return tel_sums_add(&t->keys, &it);
}

/* The key alone, in SQL's order for its type. */
static int cmp_key(enum tel_key_type type, const struct top_key *a, const struct top_key *b)
{
    switch (type) {
    case TEL_KEY_INT: return a->number < b->number ? -1 : a->number > b->number;
    case TEL_KEY_ADDR: return memcmp(a->addr, b->addr, sizeof a->addr);
    default: return strcmp(a->text, b->text);
    }
}

/* The items are sorted through pointers: an item is some 150 bytes, and a
 * window of a collector's density holds tens of thousands of sources. */
struct ranking {
    enum tel_key_type type;
    bool by_packets;
};

/* By key, then the largest country first (max(country) leads its run). */
static int by_key_country(const void *pa, const void *pb, void *arg)
{
    const struct top_key *a = *(const struct top_key *const *)pa, *b = *(const struct top_key *const *)pb;
    int c = cmp_key(((const struct ranking *)arg)->type, a, b);
    return c ? c : strcmp(b->country, a->country);
}

/* A key's sums over its countries; the key of its largest country. */
struct merged {
    const struct top_key *key;
    struct tel_counts c;
};

static int by_size(const struct merged *a, const struct merged *b, const struct ranking *r)
{
    int64_t x = r->by_packets ? a->c.packets : a->c.bytes, y = r->by_packets ? b->c.packets : b->c.bytes;
    if (x != y)
        return x > y ? -1 : 1;
    return cmp_key(r->type, a->key, b->key);
}

/* The first `keep` of n keys by size into best[] (keep <= n), best first:
 * each is placed among the best so far, most go by at one comparison. */
static void rank_best(const struct merged *items, size_t n, const struct ranking *r,
                      const struct merged **best, size_t keep)
{
    size_t held = 0;
    for (size_t i = 0; i < n; i++) {
        if (held == keep && by_size(&items[i], best[keep - 1], r) >= 0)
            continue;
        size_t lo = 0, hi = held; /* the first held that items[i] ranks before */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (by_size(&items[i], best[mid], r) < 0)
                hi = mid;
            else
                lo = mid + 1;
        }
        if (held < keep)
            held++;
        memmove(&best[lo + 1], &best[lo], (held - 1 - lo) * sizeof *best);
        best[lo] = &items[i];
    }
}

static void key_out(enum tel_key_type type, const struct top_key *k, char *out, size_t size)
{
    if (type == TEL_KEY_INT) {
        snprintf(out, size, "%lld", (long long)k->number);
    } else if (type == TEL_KEY_ADDR) {
        char text[NET_TEXT_MAX];
        tel_addr_text(k->addr, text);
        copy_text(out, size, text);
    } else {
        snprintf(out, size, "%s", k->text);
    }
}

int tel_top_sums_result(struct tel_top_sums *t, bool by_packets, long limit, struct tel_top_row **out, size_t *n,
                        struct tel_top_row *all)
{
    *out = NULL;
    *n = 0;
    if (all)
        *all = (struct tel_top_row){.bytes = t->total.bytes, .packets = t->total.packets, .flows = t->total.flows};
    struct tel_sums *m = &t->keys;
    if (limit <= 0 || m->n == 0)
        return 0;
    /* (key, country) items into one a key: the sums, the largest country
     * (the map stays as it is: a list may be asked by bytes and by packets) */
    struct ranking r = {t->type, by_packets};
    const struct top_key **sorted = malloc(m->n * sizeof *sorted);
    struct merged *keys = malloc(m->n * sizeof *keys);
    if (!sorted || !keys) {
        free(sorted);
        free(keys);
        return -1;
    }
    for (size_t i = 0; i < m->n; i++)
        sorted[i] = tel_sums_item(m, i);
    qsort_r(sorted, m->n, sizeof *sorted, by_key_country, &r);
    size_t nkeys = 0;
    for (size_t i = 0; i < m->n; i++) {
        struct merged *last = nkeys ? &keys[nkeys - 1] : NULL;
        const struct tel_counts *c = counts_of(t, sorted[i]);
        if (last && cmp_key(t->type, last->key, sorted[i]) == 0) {
            last->c.bytes += c->bytes;
            last->c.packets += c->packets;
            last->c.flows += c->flows;
        } else {
            keys[nkeys++] = (struct merged){sorted[i], *c};
        }
    }
    free(sorted);
    size_t keep = nkeys < (size_t)limit ? nkeys : (size_t)limit;
    const struct merged **best = malloc(keep * sizeof *best);
    if (!best || !(*out = calloc(keep, sizeof **out))) {
        free(best);
        free(keys);
        return -1;
    }
    rank_best(keys, nkeys, &r, best, keep);
    for (size_t i = 0; i < keep; i++) {
        struct tel_top_row *row = &(*out)[i];
        key_out(t->type, best[i]->key, row->key, sizeof row->key);
        snprintf(row->country, sizeof row->country, "%s", best[i]->key->country);
        row->bytes = best[i]->c.bytes;
        row->packets = best[i]->c.packets;
        row->flows = best[i]->c.flows;
    }
    *n = keep;
    free(best);
    free(keys);
    return 0;
}

void tel_tops_clear(struct tel_top_list *lists, size_t n_lists)
{
    for (size_t i = 0; i < n_lists; i++) {
        free(lists[i].rows);
        lists[i].rows = NULL;
        lists[i].n = 0;
    }
}

int tel_tops_each(struct store *s, const struct tel_top_query *q, struct tel_top_list *lists, size_t n_lists,
                  struct tel_top_row *all)
{
    for (size_t i = 0; i < n_lists; i++) {
        struct tel_top_query one = *q;
        one.dim = lists[i].dim;
        one.by_packets = lists[i].by_packets;
        one.limit = lists[i].limit;
        int rc = s->ops->tel_op_top(s, &one, &lists[i].rows, &lists[i].n, i ? NULL : all);
        if (rc != STORE_OK) {
            tel_tops_clear(lists, n_lists);
            return rc;
        }
    }
    return STORE_OK;
}
