/* pm_fold.c — see pm_fold.h. Sorting does the grouping: no hash table, and
 * the output order (hence the flow ids) is a function of the rows alone. */
#include "dataplane/pmacct/pm_fold.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/record.h"

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
    return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_addr(const struct ip_addr *a, const struct ip_addr *b)
{
    if (a->family != b->family)
        return a->family < b->family ? -1 : 1;
    return memcmp(a->b, b->b, 16);
}

/* The whole key of a row (then its size), for a total order. */
static int cmp_key(const struct pm_row *x, const struct pm_row *y)
{
    int c = cmp_addr(&x->src, &y->src);
    if (!c)
        c = cmp_addr(&x->dst, &y->dst);
    if (!c)
        c = (int)x->proto - (int)y->proto;
    if (!c)
        c = (int)x->sport - (int)y->sport;
    if (!c)
        c = (int)x->dport - (int)y->dport;
    if (!c)
        c = x->src_as < y->src_as ? -1 : x->src_as > y->src_as;
    return c;
}

static int by_site_minute_src(const void *a, const void *b)
{
    const struct pm_row *x = a, *y = b;
    if (x->site != y->site)
        return x->site < y->site ? -1 : 1;
    if (x->minute != y->minute)
        return x->minute < y->minute ? -1 : 1;
    return cmp_key(x, y);
}

static int by_bytes(const void *a, const void *b)
{
    const struct pm_row *x = a, *y = b;
    int c = cmp_u64_desc(x->bytes, y->bytes);
    return c ? c : cmp_key(x, y);
}

static int by_key(const void *a, const void *b)
{
    return cmp_key(a, b);
}

/* One source's totals and its rows [start, end) in the group. */
struct source {
    size_t start, end;
    uint64_t bytes, packets;
    bool kept;
};

static int src_by_bytes(const void *a, const void *b)
{
    const struct source *x = a, *y = b;
    int c = cmp_u64_desc(x->bytes, y->bytes);
    return c ? c : (x->start < y->start ? -1 : 1);
}

static int src_by_packets(const void *a, const void *b)
{
    const struct source *x = a, *y = b;
    int c = cmp_u64_desc(x->packets, y->packets);
    return c ? c : (x->start < y->start ? -1 : 1);
}

struct emit {
    json_t *out;
    const char *batch, *router;
    size_t made;
};

static void emit(struct emit *e, const struct pm_row *r)
{
    char src[NET_TEXT_MAX], dst[NET_TEXT_MAX], id[64];
    ip_format(&r->src, src);
    ip_format(&r->dst, dst);
    snprintf(id, sizeof id, "pm-%lld-%s-%zu", (long long)r->minute, e->batch, e->made++);
    json_t *rec = json_pack("{s:s,s:s,s:I,s:s,s:s,s:s,s:i,s:i,s:i,s:I,s:I}", "kind", "flow", "flow_id", id, "time",
                            (json_int_t)r->minute, "router", e->router, "src_ip", src, "dst_ip", dst, "src_port",
                            (int)r->sport, "dst_port", (int)r->dport, "protocol", (int)r->proto, "bytes",
                            (json_int_t)r->bytes, "packets", (json_int_t)r->packets);
    /* what the exporter saw, not what was done to it (record.h) */
    json_object_set_new(rec, "policy_type", json_string(TEL_POLICY_OBSERVED));
    if (r->src_as)
        json_object_set_new(rec, "src_as", json_integer(r->src_as));
    if (r->sampling > 1)
        json_object_set_new(rec, "sampling_rate", json_integer(r->sampling));
    char *line = json_dumps(rec, JSON_COMPACT);
    json_array_append_new(e->out, json_string(line));
    free(line);
    json_decref(rec);
}

/* Sums rows with equal keys in place (rows sorted by key): the count left.
 * Rows of different sampling rates are summed as they are: with pmacct
 * renormalizing, every rate is 1. */
static size_t merge(struct pm_row *rows, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (w && cmp_key(&rows[w - 1], &rows[i]) == 0) {
            rows[w - 1].bytes += rows[i].bytes;
            rows[w - 1].packets += rows[i].packets;
        } else {
            rows[w++] = rows[i];
        }
    }
    return w;
}

static void prefix_of(struct ip_addr *a)
{
    if (a->family == NET_V4)
        a->b[3] = 0; /* /24 */
    else
        memset(a->b + 6, 0, 10); /* /48 */
}

/* Emits the `max` largest of rows[0..n) (after merging equal keys); the rest
 * is moved to the front of `rest` (returns how many). */
static size_t emit_largest(struct emit *e, struct pm_row *rows, size_t n, size_t max, struct pm_row *rest)
{
    qsort(rows, n, sizeof *rows, by_key);
    n = merge(rows, n);
    qsort(rows, n, sizeof *rows, by_bytes);
    size_t k = n < max ? n : max;
    for (size_t i = 0; i < k; i++)
        emit(e, &rows[i]);
    memmove(rest, rows + k, (n - k) * sizeof *rows);
    return n - k;
}

static const struct ip_addr *site_first(const struct pm_site *sites, size_t n_sites, int64_t rid)
{
    for (size_t i = 0; i < n_sites; i++)
        if (sites[i].rid == rid)
            return &sites[i].first;
    return NULL;
}

/* One site and minute: rows[0..n), sorted by source. */
static void fold_group(struct emit *e, struct pm_row *rows, size_t n, const struct pm_site *sites, size_t n_sites)
{
    struct source *srcs = calloc(n, sizeof *srcs);
    size_t ns = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ns || cmp_addr(&rows[srcs[ns - 1].start].src, &rows[i].src) != 0)
            srcs[ns++] = (struct source){.start = i, .end = i};
        struct source *s = &srcs[ns - 1];
        s->end = i + 1;
        s->bytes += rows[i].bytes;
        s->packets += rows[i].packets;
    }
    qsort(srcs, ns, sizeof *srcs, src_by_bytes);
    for (size_t i = 0; i < ns && i < PM_TOP_SOURCES; i++)
        srcs[i].kept = true;
    qsort(srcs, ns, sizeof *srcs, src_by_packets);
    for (size_t i = 0; i < ns && i < PM_TOP_SOURCES; i++)
        srcs[i].kept = true;
    /* 1. exact rows of the kept sources, then 2. the others by prefix */
    struct pm_row *exact = malloc((n + 1) * sizeof *exact), *other = malloc((n + 1) * sizeof *other);
    size_t ne = 0, no = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t j = srcs[i].start; j < srcs[i].end; j++)
            if (srcs[i].kept)
                exact[ne++] = rows[j];
            else
                other[no++] = rows[j];
    free(srcs);
    qsort(exact, ne, sizeof *exact, by_bytes);
    size_t k = ne < PM_EXACT_MAX ? ne : PM_EXACT_MAX;
    for (size_t i = 0; i < k; i++)
        emit(e, &exact[i]);
    memcpy(other + no, exact + k, (ne - k) * sizeof *exact);
    no += ne - k;
    free(exact);
    for (size_t i = 0; i < no; i++) {
        prefix_of(&other[i].src);
        if (other[i].sport > 1023)
            other[i].sport = 0;
        if (other[i].dport > 1023)
            other[i].dport = 0;
        other[i].src_as = 0;
    }
    no = emit_largest(e, other, no, PM_BUCKETS_MAX, other);
    /* 3. per destination and protocol, from nowhere in particular */
    for (size_t i = 0; i < no; i++) {
        memset(other[i].src.b, 0, 16);
        other[i].sport = other[i].dport = 0;
    }
    no = emit_largest(e, other, no, PM_OTHER_MAX, other);
    if (no) { /* the very rest: one record toward the site */
        struct pm_row all = other[0];
        all.bytes = all.packets = 0;
        for (size_t i = 0; i < no; i++)
            all.bytes += other[i].bytes, all.packets += other[i].packets;
        const struct ip_addr *first = site_first(sites, n_sites, all.site);
        if (first)
            all.dst = *first;
        all.src = (struct ip_addr){.family = all.dst.family};
        all.proto = 0;
        emit(e, &all);
    }
    free(other);
}

size_t pm_fold(struct pm_row *rows, size_t n, const struct pm_site *sites, size_t n_sites, const char *batch,
               const char *router, json_t *out)
{
    struct emit e = {.out = out, .batch = batch, .router = router};
    qsort(rows, n, sizeof *rows, by_site_minute_src);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && rows[j].site == rows[i].site && rows[j].minute == rows[i].minute)
            j++;
        fold_group(&e, rows + i, j - i, sites, n_sites);
        i = j;
    }
    return e.made;
}
