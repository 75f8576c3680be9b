/* test_tel_cells.c — destination cells (store/tel_cells.h) against a brute
 * force: random sorted sets merged into sums, range sums in address order,
 * and values a store could hold but a writer never made (cut, out of order,
 * a policy too long) refused; counters kept out of the hourly roll-up. */
#include <stdlib.h>

#include "store/tel_cells.h"
#include "store/tel_dst_sums.h"
#include "unit.h"

enum { DSTS = 40, POLICIES = 3, KEYS = DSTS * 2 * POLICIES };

static const char *const policy_names[POLICIES] = {"", "udp_flood", "block_list"};

/* key k: destination k / 6 (10.0.0.k/6 as an address key), action, policy */
static struct tel_cell cell_of(int k, int64_t bytes)
{
    struct tel_cell c;
    memset(&c, 0, sizeof c);
    c.dst[0] = 4;
    c.dst[1] = 10;
    c.dst[4] = (uint8_t)(k / (2 * POLICIES));
    c.action = (uint8_t)(k / POLICIES % 2);
    snprintf(c.policy, sizeof c.policy, "%s", policy_names[k % POLICIES]);
    c.c = (struct tel_counts){bytes, bytes / 2, 1};
    return c;
}

/* The policies sort as text: "" < "block_list" < "udp_flood", not by index. */
static int key_cmp(const void *a, const void *b)
{
    struct tel_cell x = cell_of(*(const int *)a, 0), y = cell_of(*(const int *)b, 0);
    return tel_cell_cmp(&x, &y);
}

TEST(merges_and_sums_equal_brute_force)
{
    static int order[KEYS];
    for (int k = 0; k < KEYS; k++)
        order[k] = k;
    qsort(order, KEYS, sizeof *order, key_cmp);
    srand(11);
    for (int round = 0; round < 50; round++) {
        int64_t want[KEYS] = {0}, flows[KEYS] = {0}, all_flows = 0;
        struct tel_cells_buf sets[2];
        for (int i = 0; i < 2; i++) { /* a random subset of the keys, in the cells' order */
            sets[i] = (struct tel_cells_buf){0};
            for (int j = 0; j < KEYS; j++) {
                int k = order[j];
                if (rand() % 3 == 0)
                    continue;
                int64_t bytes = rand() % 10000;
                struct tel_cell c = cell_of(k, bytes);
                CHECK(tel_cells_append(&sets[i], &c) == 0);
                want[k] += bytes;
                flows[k]++;
                all_flows++;
            }
            CHECK(tel_cells_valid(sets[i].v, sets[i].n));
        }
        uint8_t *sum;
        size_t n;
        CHECK(tel_cells_merge(sets[0].v, sets[0].n, sets[1].v, sets[1].n, &sum, &n) == 0);
        CHECK(tel_cells_valid(sum, n));
        struct tel_cell c;
        size_t at = 0;
        for (int j = 0; j < KEYS; j++) {
            int k = order[j];
            if (!flows[k])
                continue;
            CHECK(tel_cell_next(sum, n, &at, &c) == 1);
            struct tel_cell expect = cell_of(k, want[k]);
            CHECK(tel_cell_cmp(&c, &expect) == 0);
            CHECK_INT(c.c.bytes, want[k]);
            CHECK_INT(c.c.flows, flows[k]);
        }
        CHECK(tel_cell_next(sum, n, &at, &c) == 0);
        /* a range of destinations: 10.0.0.5 to 10.0.0.9 */
        struct tel_cell lo = cell_of(5 * 2 * POLICIES, 0), hi = cell_of(9 * 2 * POLICIES, 0);
        struct tel_counts in;
        CHECK(tel_cells_sum(sum, n, lo.dst, hi.dst, &in) == 0);
        int64_t range = 0;
        for (int k = 5 * 2 * POLICIES; k < 10 * 2 * POLICIES; k++)
            range += want[k];
        CHECK_INT(in.bytes, range);
        CHECK(tel_cells_sum(sum, n, NULL, NULL, &in) == 0);
        CHECK_INT(in.flows, all_flows);
        free(sum);
        tel_cells_buf_free(&sets[0]);
        tel_cells_buf_free(&sets[1]);
    }
}

TEST(malformed_cells_refused)
{
    struct tel_cells_buf b = {0};
    struct tel_cell one = cell_of(6, 10), two = cell_of(13, 20);
    CHECK(tel_cells_append(&b, &one) == 0);
    CHECK(tel_cells_append(&b, &two) == 0);
    CHECK(tel_cells_valid(b.v, b.n));
    CHECK(tel_cells_valid(NULL, 0));
    CHECK(!tel_cells_valid(b.v, b.n - 1)); /* cut */
    struct tel_cells_buf back = {0};
    CHECK(tel_cells_append(&back, &two) == 0);
    CHECK(tel_cells_append(&back, &one) == 0);
    CHECK(!tel_cells_valid(back.v, back.n)); /* out of order */
    struct tel_cells_buf twice = {0};
    CHECK(tel_cells_append(&twice, &one) == 0);
    CHECK(tel_cells_append(&twice, &one) == 0);
    CHECK(!tel_cells_valid(twice.v, twice.n)); /* a key twice */
    struct tel_counts sum;
    CHECK(tel_cells_sum(b.v, b.n, two.dst, NULL, &sum) == 0 && sum.bytes == two.c.bytes);
    CHECK(tel_cells_sum(b.v, b.n - 1, two.dst, NULL, &sum) == -1); /* cut, after a cell skipped */
    b.v[TEL_ADDR_KEY + 1] = TEL_CELL_POLICY + 1; /* a policy longer than any */
    CHECK(!tel_cells_valid(b.v, b.n));
    CHECK(tel_cells_sum(b.v, b.n, NULL, NULL, &sum) == -1);
    CHECK(tel_cells_sum(b.v, b.n, two.dst, NULL, &sum) == -1); /* even when skipped */
    uint8_t *out;
    size_t n;
    CHECK(tel_cells_merge(b.v, b.n, back.v, back.n, &out, &n) == -1);
    tel_cells_buf_free(&b);
    tel_cells_buf_free(&back);
    tel_cells_buf_free(&twice);
}

/* A counter (store/telemetry.h) is a verdict with no source; the hourly
 * destination roll-up (the breakdown by address) leaves it out, the
 * minute's cells (the series) keep it. */
TEST(counters_out_of_the_hourly_breakdown)
{
    struct tel_flow f;
    memset(&f, 0, sizeof f);
    f.time = 1764000000;
    f.src[0] = 4;
    f.dst[0] = 4;
    f.dst[1] = 10;
    f.bytes = 100;
    f.packets = 1;
    CHECK(tel_flow_is_counter(&f)); /* 0.0.0.0, no policy_type */
    snprintf(f.policy, sizeof f.policy, "udp_flood");
    CHECK(tel_flow_is_counter(&f));
    f.src[0] = 6; /* :: */
    CHECK(tel_flow_is_counter(&f));
    snprintf(f.policy, sizeof f.policy, "%s", TEL_POLICY_OBSERVED);
    CHECK(!tel_flow_is_counter(&f)); /* a collector's folded rest */
    snprintf(f.policy, sizeof f.policy, "udp_flood");
    f.src[0] = 4;
    f.src[16] = 1; /* ::1-like tail: a source */
    CHECK(!tel_flow_is_counter(&f));
    f.src[16] = 0;
    f.src[1] = 198; /* 198.0.0.0 */
    CHECK(!tel_flow_is_counter(&f));
    f.src[1] = 0;
    f.src[0] = 0; /* no family: not an address key, not a counter */
    CHECK(!tel_flow_is_counter(&f));

    struct tel_dst_sums d;
    tel_dst_sums_init(&d);
    f.src[0] = 4;
    CHECK(tel_flow_is_counter(&f));
    CHECK(tel_dst_sums_add(&d, 7, &f) == 0);
    CHECK(d.minutes.n == 1 && d.hours.n == 0);
    f.src[1] = 198;
    CHECK(tel_dst_sums_add(&d, 7, &f) == 0);
    CHECK(d.minutes.n == 1 && d.hours.n == 1);
    tel_dst_sums_free(&d);
}

UNIT_MAIN(UNIT_CASE(merges_and_sums_equal_brute_force), UNIT_CASE(malformed_cells_refused),
          UNIT_CASE(counters_out_of_the_hourly_breakdown))
