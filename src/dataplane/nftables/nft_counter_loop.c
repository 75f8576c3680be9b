/* nft_counter_loop.c — see nft_counter_loop.h. */
#include "dataplane/nftables/nft_counter_loop.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dataplane/ingest_batch.h"
#include "dataplane/nftables/nft_counters.h"
#include "store/select/select.h"

enum { PENDING_MAX = 100000 };

static struct {
    const struct nft_plane_config *cfg;
    const struct store_config *store_cfg;
    unsigned interval;
    int wake[2];
    bool running, stop;
    pthread_t thread;
    json_t *pending;
    long stored, left_out;
} g = {.wake = {-1, -1}};

/* A reading, and the records of everything read since `from`. */
static void read_counters(int64_t from)
{
    char why[512];
    if (nft_plane_collect(g.cfg, why, sizeof why) < 0)
        fprintf(stderr, "parapet: nftables counters: %s\n", why);
    json_t *sums = nft_counters_take();
    json_t *records = nft_counter_records(sums, from);
    json_array_extend(g.pending, records);
    json_decref(records);
    json_decref(sums);
}

static void store(struct store *s, int64_t now)
{
    if (!json_array_size(g.pending))
        return;
    long stored = 0, dropped = 0;
    if (s && dp_ingest_records(s, g.pending, now, "nftables counters", &stored, &dropped) == 0) {
        json_array_clear(g.pending);
        g.stored += stored;
        g.left_out += dropped;
        return;
    }
    if (json_array_size(g.pending) > PENDING_MAX) {
        fprintf(stderr, "parapet: nftables counters: %zu records given up (the store keeps failing)\n",
                json_array_size(g.pending));
        json_array_clear(g.pending);
    }
}

static void *loop(void *arg)
{
    (void)arg;
    struct store *s = store_open(g.store_cfg);
    if (!s)
        fprintf(stderr, "parapet: nftables counters: no store connection; counters are read but not stored\n");
    int64_t from = (int64_t)time(NULL);
    int64_t next = (from / g.interval + 1) * g.interval;
    while (!__atomic_load_n(&g.stop, __ATOMIC_ACQUIRE)) {
        struct pollfd pf = {.fd = g.wake[0], .events = POLLIN};
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        poll(&pf, 1, 1000 - (int)(ts.tv_nsec / 1000000)); /* to the next second */
        int64_t now = (int64_t)time(NULL);
        if (now >= next) {
            read_counters(from);
            from = next;
            next = (now / g.interval + 1) * g.interval;
        }
        store(s, now);
    }
    read_counters(from);
    store(s, (int64_t)time(NULL));
    if (s)
        s->ops->close(s);
    return NULL;
}

int nft_counter_loop_start(const struct nft_plane_config *cfg, unsigned interval_s,
                           const struct store_config *store_cfg)
{
    if (g.running || interval_s < 1)
        return -1;
    if (pipe2(g.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        perror("parapet: nftables counters");
        return -1;
    }
    g.cfg = cfg;
    g.store_cfg = store_cfg;
    g.interval = interval_s;
    g.pending = json_array();
    g.stored = g.left_out = 0;
    g.stop = false;
    if (pthread_create(&g.thread, NULL, loop, NULL) != 0) {
        fprintf(stderr, "parapet: nftables counters: cannot start a thread\n");
        nft_counter_loop_stop();
        return -1;
    }
    g.running = true;
    return 0;
}

void nft_counter_loop_stop(void)
{
    if (g.running) {
        __atomic_store_n(&g.stop, true, __ATOMIC_RELEASE);
        if (write(g.wake[1], "x", 1) < 0) {
            /* the pipe is full: the loop is awake already */
        }
        pthread_join(g.thread, NULL);
        g.running = false;
        fprintf(stderr, "parapet: nftables counters: stopped; %ld records stored, %ld left out\n", g.stored,
                g.left_out);
    }
    for (int i = 0; i < 2; i++)
        if (g.wake[i] >= 0) {
            close(g.wake[i]);
            g.wake[i] = -1;
        }
    json_decref(g.pending);
    g.pending = NULL;
}
