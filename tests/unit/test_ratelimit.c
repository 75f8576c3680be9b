/* test_ratelimit.c — core/ratelimit.h: quotas per fixed window, the
 * failure backoff, bounded memory under many keys, and thread safety. */
#include "core/ratelimit.h"

#include <pthread.h>
#include <stdio.h>

#include "unit.h"

#define MS(seconds) ((int64_t)(seconds) * 1000)

TEST(quota_counts_per_window)
{
    struct ratelimit *t = ratelimit_new(256);
    struct rl_verdict v;
    for (int i = 0; i < 3; i++) {
        ratelimit_take(t, "app1", 4, 3, 60, MS(120 + i), &v);
        CHECK(!v.limited);
        CHECK_INT(v.remaining, 2 - i);
    }
    CHECK_INT(v.reset_s, 58); /* window 120..179 */
    ratelimit_take(t, "app1", 4, 3, 60, MS(150), &v);
    CHECK(v.limited);
    CHECK_INT(v.remaining, 0);
    CHECK_INT(v.reset_s, 30);
    ratelimit_take(t, "app2", 4, 3, 60, MS(150), &v); /* another key */
    CHECK(!v.limited);
    ratelimit_take(t, "app1", 4, 3, 60, MS(180), &v); /* the next window */
    CHECK(!v.limited);
    CHECK_INT(v.remaining, 2);
    CHECK_INT(v.limit, 3);
    CHECK_INT(v.window_s, 60);
    ratelimit_free(t);
}

TEST(failures_block_exponentially)
{
    struct ratelimit *t = ratelimit_new(256);
    struct rl_backoff b = {.free_failures = 3, .base_s = 1, .max_s = 60};
    int64_t now = MS(1000);
    for (int i = 0; i < 3; i++)
        CHECK_INT(ratelimit_fail(t, "k", 1, &b, now), 0);
    CHECK_INT(ratelimit_blocked(t, "k", 1, now), 0);
    CHECK_INT(ratelimit_fail(t, "k", 1, &b, now), 1);
    CHECK_INT(ratelimit_blocked(t, "k", 1, now), 1);
    CHECK_INT(ratelimit_blocked(t, "k", 1, now + 999), 1); /* a whole second, whatever the clock's phase */
    CHECK_INT(ratelimit_blocked(t, "k", 1, now + MS(1)), 0);
    CHECK_INT(ratelimit_fail(t, "k", 1, &b, now + MS(1)), 2);
    CHECK_INT(ratelimit_fail(t, "k", 1, &b, now + MS(3)), 4);
    CHECK_INT(ratelimit_fail(t, "k", 1, &b, now + MS(7)), 8);
    for (int i = 0; i < 40; i++)
        ratelimit_fail(t, "k", 1, &b, now + MS(8));
    CHECK_INT(ratelimit_blocked(t, "k", 1, now + MS(8)), 60); /* capped */
    CHECK_INT(ratelimit_blocked(t, "other", 5, now + MS(8)), 0);
    /* quiet for max_s: a fresh start */
    CHECK_INT(ratelimit_fail(t, "k", 1, &b, now + MS(8 + 61)), 0);
    /* a success forgives */
    for (int i = 0; i < 5; i++)
        ratelimit_fail(t, "j", 1, &b, now);
    CHECK(ratelimit_blocked(t, "j", 1, now) > 0);
    ratelimit_forgive(t, "j", 1);
    CHECK_INT(ratelimit_blocked(t, "j", 1, now), 0);
    CHECK_INT(ratelimit_fail(t, "j", 1, &b, now), 0);
    ratelimit_free(t);
}

TEST(memory_is_bounded)
{
    /* many more keys than slots: the table keeps working, recent keys win */
    struct ratelimit *t = ratelimit_new(64);
    struct rl_verdict v;
    char key[32];
    for (int i = 0; i < 100000; i++) {
        int n = snprintf(key, sizeof key, "key%d", i);
        ratelimit_take(t, key, (size_t)n, 1, 60, i / 1000, &v);
    }
    ratelimit_take(t, "key99999", 8, 1, 60, 99, &v);
    CHECK(v.limited); /* its count survived */
    ratelimit_free(t);
}

static struct ratelimit *shared;
static int limited_seen[4];

static void *hammer(void *arg)
{
    int id = (int)(long)arg;
    struct rl_verdict v;
    for (int i = 0; i < 25000; i++) {
        ratelimit_take(shared, "hot", 3, 50000, 3600, 10, &v);
        limited_seen[id] += v.limited;
    }
    return NULL;
}

TEST(threads_share_one_count)
{
    shared = ratelimit_new(256);
    pthread_t th[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, hammer, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    /* 100,000 takes against a quota of 50,000: exactly half refused */
    CHECK_INT(limited_seen[0] + limited_seen[1] + limited_seen[2] + limited_seen[3], 50000);
    ratelimit_free(shared);
}

UNIT_MAIN(UNIT_CASE(quota_counts_per_window), UNIT_CASE(failures_block_exponentially), UNIT_CASE(memory_is_bounded),
          UNIT_CASE(threads_share_one_count))
