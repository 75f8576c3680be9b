/* tel_sums.h — a map from fixed-size keys to sums (bytes, packets, flows),
 * for the flow roll-ups an ingest transaction adds to: flows are summed per
 * key in memory and each key is written once, however many flows and
 * chunks of the transaction it saw.
 *
 * An item is a struct whose first key_size bytes are its key (zeroed before
 * it is filled, so that padding compares equal) followed by a struct
 * tel_counts. */
#ifndef PARAPET_TEL_SUMS_H
#define PARAPET_TEL_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/tel_vector.h"
#include "store/telemetry.h"

struct tel_counts {
    int64_t bytes, packets, flows;
};

struct tel_sums {
    size_t item_size, key_size;
    char *items; /* n items of item_size bytes, in the order first seen */
    size_t n, cap;
    uint64_t *slots; /* open addressing: index + 1 of an item (low half; 0 empty) and the high half of its
                        key's hash, so that a probe compares keys only when their hashes agree */
    size_t nslots;   /* a power of two, at least twice n */
    uint32_t *order; /* indexes of the items, as tel_sums_sort left them */
};

/* An empty map of items of item_size bytes whose first key_size bytes are
 * the key (item_size = key_size + sizeof(struct tel_counts)). */
void tel_sums_init(struct tel_sums *m, size_t item_size, size_t key_size);
/* Adds item's counts to its key's (a new key starts from item). 0, or -1
 * out of memory (the map is unchanged). */
int tel_sums_add(struct tel_sums *m, const void *item);
/* Sorts the items' order by cmp (qsort's), for writes in index order: then
 * tel_sums_sorted(m, i) is the i-th. 0, or -1 out of memory. The order
 * lasts until the next add. */
int tel_sums_sort(struct tel_sums *m, int (*cmp)(const void *, const void *));
void *tel_sums_sorted(const struct tel_sums *m, size_t i);
void *tel_sums_item(const struct tel_sums *m, size_t i);
struct tel_counts *tel_sums_counts(const struct tel_sums *m, size_t i);
/* Empties the map (keeping its memory), and frees it. */
void tel_sums_clear(struct tel_sums *m);
void tel_sums_free(struct tel_sums *m);

/* ---- the flow roll-ups but those by destination (tel_dst_sums.h) ----
 * What new flows add to tel_site_hours (a site's minutes by action and
 * policy) and to tel_flow_hours and tel_flow_days (by application, source
 * AS, country and protocol, counters left out), summed per key for a write
 * transaction and written once per key. */
enum { TEL_ROLL_APP = 1, TEL_ROLL_AS = 2, TEL_ROLL_COUNTRY = 3, TEL_ROLL_DST = 4, TEL_ROLL_PROTOCOL = 5 };

struct tel_minute_item {
    struct tel_minute_key {
        int64_t site_rid, minute;
        uint8_t action;
        char policy[33];
    } key;
    struct tel_counts c;
};

/* The key of a dimension as the flow holds it (text for the application and
 * the country; int64 bytes for the AS and the protocol): made text
 * (tel_hour_key_text) once per row written, not per flow. */
struct tel_hour_item {
    struct tel_hour_key {
        int64_t site_rid, hour; /* a day's start in tel_flow_days */
        int32_t dim;
        char key[40]; /* an application (at most 32) or a country, or an int64 */
    } key;
    struct tel_counts c;
};

struct tel_flow_rollups {
    struct tel_sums site_minutes, hours, days; /* days: filled from the hours by tel_flow_rollups_days */
};

void tel_flow_rollups_init(struct tel_flow_rollups *r);
/* Adds one new flow of a site. 0, or -1 out of memory. */
int tel_flow_rollups_add(struct tel_flow_rollups *r, int64_t site_rid, const struct tel_flow *f);
/* Sums the hours into the days (once, before writing). 0, or -1. */
int tel_flow_rollups_days(struct tel_flow_rollups *r);
/* Orders for tel_sums_sort: site minutes by site, hour, action, policy,
 * then minute (a row of tel_site_hours in a run); hours or days by site,
 * dim, start, key. */
int tel_cmp_site_hour(const void *a, const void *b);
int tel_cmp_hour(const void *a, const void *b);
/* One row of tel_site_hours: a site's hour by action and policy, its
 * minutes' sums as a vector (tel_vector.h) and its flows. */
struct tel_site_hour_row {
    int64_t site_rid, hour, flows;
    uint8_t action;
    const char *policy;
    uint8_t mins[TEL_VEC_BYTES];
};
/* Sorts the site minutes (tel_cmp_site_hour) and calls row() with each run
 * of one site, hour, action and policy. 0, -1 out of memory, or the first
 * nonzero value row() returned. */
int tel_site_hour_rows(struct tel_sums *site_minutes, int (*row)(void *ctx, const struct tel_site_hour_row *r),
                       void *ctx);
/* The text tel_flow_hours and tel_flow_days keep for a key. */
void tel_hour_key_text(const struct tel_hour_key *k, char out[NET_TEXT_MAX]);
void tel_flow_rollups_clear(struct tel_flow_rollups *r);
void tel_flow_rollups_free(struct tel_flow_rollups *r);

#endif
