/* tel_patterns.c — see tel_patterns.h. */
#include "store/tel_patterns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "base/text.h"

/* A pattern's key and a minute (zeroed before it is filled: tel_sums
 * compares the padding too). */
struct pattern_key {
    int64_t src_as, minute;
    int32_t protocol, src_port, dst_port;
    uint8_t net[TEL_ADDR_KEY]; /* the source's /24 or /48, the rest zero */
    char router[sizeof ((struct tel_pattern *)0)->router];
};

struct minute_item {
    struct pattern_key key;
    struct tel_counts c;
};

/* A pattern's sums over its minutes. */
struct pattern_run {
    struct pattern_key key; /* minute unused */
    int64_t bytes, packets, peak_bytes, peak_packets;
};

void tel_pattern_sums_init(struct tel_pattern_sums *p)
{
    tel_sums_init(&p->minutes, sizeof(struct minute_item), sizeof(struct pattern_key));
}

void tel_pattern_sums_free(struct tel_pattern_sums *p)
{
    tel_sums_free(&p->minutes);
}

int tel_pattern_sums_add(struct tel_pattern_sums *p, const uint8_t *src, const char *router, int protocol,
                         int src_port, int dst_port, int64_t src_as, int64_t ts, int64_t bytes, int64_t packets)
{
    struct minute_item it;
    memset(&it, 0, sizeof it);
    /* the family byte and the first 3 bytes (IPv4 /24) or 6 bytes (IPv6 /48) */
    memcpy(it.key.net, src, src[0] == NET_V4 ? 4 : 7);
    copy_text(it.key.router, sizeof it.key.router, router ? router : "");
    it.key.protocol = protocol;
    it.key.src_port = src_port;
    it.key.dst_port = dst_port;
    it.key.src_as = src_as;
    it.key.minute = ts - ts % 60;
    it.c = (struct tel_counts){bytes, packets, 1};
    return tel_sums_add(&p->minutes, &it);
}

/* The order of the key's columns: source prefix, router, protocol, ports, AS. */
static int cmp_pattern(const struct pattern_key *a, const struct pattern_key *b)
{
    int c = memcmp(a->net, b->net, sizeof a->net);
    if (c == 0)
        c = strcmp(a->router, b->router);
    if (c)
        return c;
    if (a->protocol != b->protocol)
        return a->protocol < b->protocol ? -1 : 1;
    if (a->src_port != b->src_port)
        return a->src_port < b->src_port ? -1 : 1;
    if (a->dst_port != b->dst_port)
        return a->dst_port < b->dst_port ? -1 : 1;
    if (a->src_as != b->src_as)
        return a->src_as < b->src_as ? -1 : 1;
    return 0;
}

static int by_pattern(const void *pa, const void *pb)
{
    return cmp_pattern(pa, pb);
}

static int64_t order_value(const struct pattern_run *r, enum tel_pattern_order order)
{
    switch (order) {
    case TEL_BY_PACKETS: return r->packets;
    case TEL_BY_PEAK_BYTES: return r->peak_bytes;
    case TEL_BY_PEAK_PACKETS: return r->peak_packets;
    default: return r->bytes;
    }
}

static int by_order(const void *pa, const void *pb, void *arg)
{
    const struct pattern_run *a = pa, *b = pb;
    enum tel_pattern_order order = *(const enum tel_pattern_order *)arg;
    int64_t x = order_value(a, order), y = order_value(b, order);
    if (x != y)
        return x > y ? -1 : 1;
    return cmp_pattern(&a->key, &b->key);
}

static void pattern_out(const struct pattern_run *r, struct tel_pattern *out)
{
    char addr[NET_TEXT_MAX];
    tel_addr_text(r->key.net, addr);
    snprintf(out->cidr, sizeof out->cidr, "%s/%d", addr, r->key.net[0] == NET_V4 ? 24 : 48);
    snprintf(out->router, sizeof out->router, "%s", r->key.router);
    out->protocol = r->key.protocol;
    out->src_port = r->key.src_port;
    out->dst_port = r->key.dst_port;
    out->src_as = r->key.src_as;
    out->bytes = r->bytes;
    out->packets = r->packets;
    out->peak_bytes = r->peak_bytes;
    out->peak_packets = r->peak_packets;
}

int tel_pattern_sums_result(struct tel_pattern_sums *p, enum tel_pattern_order order, long limit,
                            struct tel_pattern **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    struct tel_sums *m = &p->minutes;
    if (limit <= 0)
        return 0;
    struct pattern_run *runs = malloc((m->n ? m->n : 1) * sizeof *runs);
    if (!runs || tel_sums_sort(m, by_pattern) != 0) {
        free(runs);
        return -1;
    }
    /* the minutes of one pattern are adjacent now: their sums and largest */
    size_t nruns = 0;
    for (size_t i = 0; i < m->n; i++) {
        const struct minute_item *it = tel_sums_sorted(m, i);
        struct pattern_run *r = nruns ? &runs[nruns - 1] : NULL;
        if (!r || cmp_pattern(&r->key, &it->key) != 0) {
            r = &runs[nruns++];
            *r = (struct pattern_run){.key = it->key};
        }
        r->bytes += it->c.bytes;
        r->packets += it->c.packets;
        if (it->c.bytes > r->peak_bytes)
            r->peak_bytes = it->c.bytes;
        if (it->c.packets > r->peak_packets)
            r->peak_packets = it->c.packets;
    }
    qsort_r(runs, nruns, sizeof *runs, by_order, &order);
    size_t keep = nruns < (size_t)limit ? nruns : (size_t)limit;
    if (keep && !(*out = calloc(keep, sizeof **out))) {
        free(runs);
        return -1;
    }
    for (size_t i = 0; i < keep; i++)
        pattern_out(&runs[i], &(*out)[i]);
    *n = keep;
    free(runs);
    return 0;
}
