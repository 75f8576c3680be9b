/* pm_fold.h — the flows of one pmacct batch (one purge of nfacctd's print
 * plugin) as a bounded number of `flow` records per site and minute, before
 * the ingest: a flood from a million spoofed sources must not make a million
 * records a minute.
 *
 * For each site and minute:
 *  1. exact: the rows of the top PM_TOP_SOURCES sources by bytes and of the
 *     top PM_TOP_SOURCES by packets, as pmacct gave them (at most
 *     PM_EXACT_MAX rows, the largest first; the rest go to 2);
 *  2. prefix buckets: every other row with its source replaced by its /24
 *     (IPv4) or /48 (IPv6), ports above 1023 replaced by 0 (well-known ports,
 *     the signature of a reflection or a service, are kept), summed; at most
 *     PM_BUCKETS_MAX buckets, the largest first (the rest go to 3);
 *  3. other: what is left, per destination and protocol, from source 0.0.0.0
 *     (:: for IPv6), at most PM_OTHER_MAX destinations; the very rest as one
 *     record toward the site's first address, protocol 0.
 * The records' bytes and packets add up to the batch's, exactly, for every
 * site and minute. Pure; unit-tested (tests/unit/test_pm_fold.c). */
#ifndef PARAPET_PM_FOLD_H
#define PARAPET_PM_FOLD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/net.h"

enum {
    PM_TOP_SOURCES = 100,
    PM_EXACT_MAX = 1000,
    PM_BUCKETS_MAX = 2000,
    PM_OTHER_MAX = 1000,
};

struct pm_row {
    struct ip_addr src, dst;
    uint16_t sport, dport;
    uint8_t proto;
    uint32_t src_as;
    int64_t minute;       /* unix time of the minute (pmacct's stamp_inserted) */
    uint64_t bytes, packets;
    uint32_t sampling;    /* pmacct's sampling_rate (1 when renormalized) */
    int64_t site;         /* the protecting site's rid (the caller's lookup) */
};

struct pm_site {
    int64_t rid;
    struct ip_addr first; /* the first address of its first block */
};

/* Appends the records (NDJSON lines, as JSON strings) of rows[0..n) to out;
 * the rows are reordered. sites: where a site's very rest goes. flow ids are
 * `pm-<minute>-<batch>-<n>`. Returns the records made. */
size_t pm_fold(struct pm_row *rows, size_t n, const struct pm_site *sites, size_t n_sites, const char *batch,
               const char *router, json_t *out);

#endif
