/* test_tel_sums.c — the roll-up sum map against a brute force: random keys
 * (with padding that must compare equal), growth past many rehashes, the
 * sorted order, and reuse after clearing. */
#include <stdlib.h>

#include "store/tel_sums.h"
#include "unit.h"

struct item {
    struct key {
        int64_t a;
        uint8_t b; /* followed by padding */
        char name[13];
    } key;
    struct tel_counts c;
};

static int by_key(const void *pa, const void *pb)
{
    const struct key *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b - y->b;
    return strcmp(x->name, y->name);
}

enum { KEYS = 3000, ADDS = 40000 };

TEST(sums_equal_brute_force)
{
    static int64_t bytes[KEYS], packets[KEYS], flows[KEYS];
    struct tel_sums m;
    tel_sums_init(&m, sizeof(struct item), sizeof(struct key));
    srand(7);
    for (int round = 0; round < 2; round++) {
        memset(bytes, 0, sizeof bytes);
        memset(packets, 0, sizeof packets);
        memset(flows, 0, sizeof flows);
        for (int i = 0; i < ADDS; i++) {
            int k = rand() % KEYS;
            struct item it;
            memset(&it, 0, sizeof it);
            it.key.a = k / 100;
            it.key.b = (uint8_t)(k % 100 / 10);
            snprintf(it.key.name, sizeof it.key.name, "n%d", k % 10);
            it.c = (struct tel_counts){i, 2 * i, 1};
            CHECK(tel_sums_add(&m, &it) == 0);
            bytes[k] += i;
            packets[k] += 2 * i;
            flows[k]++;
        }
        size_t seen = 0;
        for (int k = 0; k < KEYS; k++)
            seen += flows[k] > 0;
        CHECK_INT(m.n, seen);
        CHECK(tel_sums_sort(&m, by_key) == 0);
        for (size_t i = 0; i < m.n; i++) {
            const struct item *it = tel_sums_sorted(&m, i);
            int k = (int)it->key.a * 100 + it->key.b * 10 + atoi(it->key.name + 1);
            CHECK_INT(it->c.bytes, bytes[k]);
            CHECK_INT(it->c.packets, packets[k]);
            CHECK_INT(it->c.flows, flows[k]);
            if (i)
                CHECK(by_key(tel_sums_sorted(&m, i - 1), it) < 0);
        }
        /* adding after sorting still finds the item */
        struct item again = *(const struct item *)tel_sums_sorted(&m, m.n / 2);
        int64_t was = again.c.bytes;
        again.c = (struct tel_counts){5, 0, 0};
        size_t n = m.n;
        CHECK(tel_sums_add(&m, &again) == 0);
        CHECK_INT(m.n, n);
        CHECK_INT(((const struct item *)tel_sums_sorted(&m, m.n / 2))->c.bytes, was + 5);
        CHECK_INT(tel_sums_counts(&m, 0)->flows, ((const struct item *)tel_sums_item(&m, 0))->c.flows);
        tel_sums_clear(&m);
        CHECK_INT(m.n, 0);
    }
    tel_sums_free(&m);
}

UNIT_MAIN(UNIT_CASE(sums_equal_brute_force))
