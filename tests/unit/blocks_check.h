/* blocks_check.h — the address-block index's overlap answers against a
 * brute force, for any store (test_resources: SQLite; test_pg_telemetry:
 * PostgreSQL). Random nested and disjoint blocks, IPv4 in 100.64.0.0/15
 * and IPv6 in fd12:3456::/30 (where the tests put nothing else), one per
 * resource the caller made; every probe's overlapping blocks must be the
 * brute force's (two CIDR blocks overlap when the shorter one contains the
 * other's start), in the store's order (first address, then rid). */
#ifndef PARAPET_TEST_BLOCKS_CHECK_H
#define PARAPET_TEST_BLOCKS_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "store/block_key.h"
#include "store/store.h"
#include "unit.h"

enum { BLOCKS_CHECK_SITES = 60, BLOCKS_CHECK_PROBES = 400 };

static inline void blocks_check_brute_force(struct store *s, const int64_t rids[BLOCKS_CHECK_SITES])
{
    struct cidr all[BLOCKS_CHECK_SITES];
    srand(7);
    for (int i = 0; i < BLOCKS_CHECK_SITES; i++) {
        char text[64];
        if (i % 5 == 4)
            snprintf(text, sizeof text, "fd12:3456:%x::/%d", rand() % 4, 33 + rand() % 20);
        else
            snprintf(text, sizeof text, "100.%d.%d.0/%d", 64 + rand() % 2, rand() % 256, 12 + rand() % 21);
        CHECK(cidr_parse(text, 0, &all[i]) == 0);
        CHECK_INT(s->ops->blocks_set(s, rids[i], &all[i], 1), STORE_OK);
    }
    for (int p = 0; p < BLOCKS_CHECK_PROBES; p++) {
        char text[64];
        if (p % 5 == 4)
            snprintf(text, sizeof text, "fd12:3456:%x::/%d", rand() % 4, 30 + rand() % 40);
        else
            snprintf(text, sizeof text, "100.%d.%d.%d/%d", 64 + rand() % 2, rand() % 256, rand() % 256,
                     8 + rand() % 25);
        struct cidr probe;
        CHECK(cidr_parse(text, 0, &probe) == 0);
        struct block_hit hits[BLOCKS_CHECK_SITES + 1];
        size_t n = 0, want = 0;
        struct block_filter none = {0};
        CHECK_INT(s->ops->blocks_overlapping(s, &probe, &none, hits, BLOCKS_CHECK_SITES + 1, &n), STORE_OK);
        uint8_t lo[BLOCK_KEY_LEN], hi[BLOCK_KEY_LEN], plo[BLOCK_KEY_LEN], phi[BLOCK_KEY_LEN];
        block_range(&probe, plo, phi);
        for (int i = 0; i < BLOCKS_CHECK_SITES; i++) {
            block_range(&all[i], lo, hi);
            if (memcmp(lo, phi, BLOCK_KEY_LEN) <= 0 && memcmp(hi, plo, BLOCK_KEY_LEN) >= 0)
                want++;
        }
        CHECK_INT(n, want);
        for (size_t k = 1; k < n; k++) { /* ascending first address, then rid */
            uint8_t a[BLOCK_KEY_LEN], b[BLOCK_KEY_LEN];
            block_range(&hits[k - 1].block, a, hi);
            block_range(&hits[k].block, b, hi);
            int cmp = memcmp(a, b, BLOCK_KEY_LEN);
            CHECK(cmp < 0 || (cmp == 0 && hits[k - 1].rid < hits[k].rid));
        }
    }
}

#endif
