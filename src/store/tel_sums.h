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

#endif
