/* test_deployer.c — the background deployer's thread (deploy/deployer.h)
 * with a pass that only counts: a steady stream of wake-ups (one every
 * 5 ms for 1.5 s, as a burst of API writes makes) leads to a few passes,
 * not one per 50 ms, and the last wake-up is always followed by a pass; a
 * slow pass spaces the passes of a burst further (4 times its length);
 * writes wake only the deployers one of whose path patterns they match
 * ("*" is one segment); passes run niced (background work), the test's
 * own thread is not. */
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "deploy/deployer.h"
#include "unit/scratch_store.h"
#include "unit/unit.h"

static atomic_int passes_a, passes_b;
static atomic_int woken_a; /* wake-ups of a sent so far */
static atomic_int seen_a;  /* wake-ups of a sent when its last pass began */
static atomic_int nice_a;  /* the niceness a's pass ran with */

/* The niceness of the calling thread alone (Linux keeps one per thread). */
static int thread_nice(void)
{
    return getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
}

static int pass_a(struct store *s, void *arg, char *msg, size_t len)
{
    (void)s, (void)arg, (void)len;
    msg[0] = '\0';
    atomic_store(&seen_a, atomic_load(&woken_a));
    atomic_store(&nice_a, thread_nice());
    atomic_fetch_add(&passes_a, 1);
    return 0;
}

static int pass_b(struct store *s, void *arg, char *msg, size_t len)
{
    (void)s, (void)arg, (void)len;
    msg[0] = '\0';
    atomic_fetch_add(&passes_b, 1);
    return 0;
}

static void sleep_ms(long ms)
{
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

/* Waits (at most 10 s) until *counter reaches want; its value then. */
static int wait_for(atomic_int *counter, int want)
{
    for (int i = 0; i < 1000 && atomic_load(counter) < want; i++)
        sleep_ms(10);
    return atomic_load(counter);
}

TEST(bursts_and_paths)
{
    char dir[64], path[160];
    struct store *db = scratch_open(dir, (struct customer){0});
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    struct store_config cfg = {.backend = "sqlite", .path = path};
    struct deployer a = {.name = "a", .paths = {"/api/spe/customer/*/op/", "/ingest/", NULL}, .pass = pass_a,
                         .interval_s = 600};
    struct deployer b = {.name = "b", .paths = {"/api/spe/customer/*/ap/", NULL}, .pass = pass_b, .interval_s = 600};
    CHECK_INT(deployer_start(&a, &cfg), 0);
    CHECK_INT(deployer_start(&b, &cfg), 0);
    CHECK_INT(wait_for(&passes_a, 1), 1); /* the pass at start */
    CHECK_INT(atomic_load(&nice_a), thread_nice() + 5); /* a pass is background work; the starting
                                                           thread keeps its own niceness */
    CHECK_INT(wait_for(&passes_b, 1), 1);

    /* 300 writes under a's pattern, 5 ms apart: passes come at most once a
     * second while they keep coming (~2), never one per write or per 50 ms
     * (~30); b is not woken */
    for (int i = 0; i < 300; i++) {
        atomic_fetch_add(&woken_a, 1);
        deployers_wake_path("/api/spe/customer/00000000000000c1/op/site/1234/network");
        sleep_ms(5);
    }
    /* the last wake-up is followed by a pass that began after it */
    for (int i = 0; i < 1000 && atomic_load(&seen_a) < 300; i++)
        sleep_ms(10);
    CHECK_INT(atomic_load(&seen_a), 300);
    int burst = atomic_load(&passes_a) - 1;
    CHECK(burst >= 1 && burst <= 5);
    if (burst < 1 || burst > 5)
        fprintf(stderr, "  %d passes for 300 wake-ups over 1.5 s\n", burst);
    CHECK_INT(atomic_load(&passes_b), 1);

    /* one segment only: paths without the customer's id wake neither */
    int before = atomic_load(&passes_a);
    deployers_wake_path("/api/spe/customer/op/site");
    deployers_wake_path("/api/spe/customers");
    deployers_wake_path("/api/spe/customer/00000000000000c1/webhook");
    sleep_ms(300);
    CHECK_INT(atomic_load(&passes_a), before);
    CHECK_INT(atomic_load(&passes_b), 1);
    /* the other family's tree wakes the other deployer; a's second pattern a */
    deployers_wake_path("/api/spe/customer/00000000000000c1/ap/site");
    CHECK_INT(wait_for(&passes_b, 2), 2);
    deployers_wake_path("/ingest/v1/events");
    CHECK_INT(wait_for(&passes_a, before + 1), before + 1);

    deployer_stop(&a);
    deployer_stop(&b);
    scratch_close(db, dir);
}

static atomic_int passes_slow, woken_slow, seen_slow;

static int pass_slow(struct store *s, void *arg, char *msg, size_t len)
{
    (void)s, (void)arg, (void)len;
    msg[0] = '\0';
    atomic_store(&seen_slow, atomic_load(&woken_slow));
    sleep_ms(500);
    atomic_fetch_add(&passes_slow, 1);
    return 0;
}

TEST(slow_passes_are_spaced_further)
{
    char dir[64], path[160];
    struct store *db = scratch_open(dir, (struct customer){0});
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    struct store_config cfg = {.backend = "sqlite", .path = path};
    struct deployer c = {.name = "c", .paths = {"/api/spe/customer/*/cp/", NULL}, .pass = pass_slow,
                         .interval_s = 600};
    CHECK_INT(deployer_start(&c, &cfg), 0);
    CHECK_INT(wait_for(&passes_slow, 1), 1); /* the pass at start: 500 ms */
    /* 4 s of wake-ups: a pass 2 s (4 x 500 ms) after the first, then one
     * after the last; one a second would make 3 or 4. On a loaded machine
     * the 800 sleeps take longer: one more pass allowed per 2 s beyond 4. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < 800; i++) {
        atomic_fetch_add(&woken_slow, 1);
        deployers_wake_path("/api/spe/customer/00000000000000c1/cp/site");
        sleep_ms(5);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    int most = secs <= 4.5 ? 2 : (int)(secs / 2.0 + 0.999);
    for (int i = 0; i < 1000 && atomic_load(&seen_slow) < 800; i++)
        sleep_ms(10);
    CHECK_INT(atomic_load(&seen_slow), 800);
    sleep_ms(700); /* that pass ends */
    int burst = atomic_load(&passes_slow) - 1;
    CHECK(burst >= 1 && burst <= most);
    if (burst < 1 || burst > most)
        fprintf(stderr, "  %d slow passes for 800 wake-ups over %.1f s\n", burst, secs);
    deployer_stop(&c);
    scratch_close(db, dir);
}

UNIT_MAIN(UNIT_CASE(bursts_and_paths), UNIT_CASE(slow_passes_are_spaced_further))
