/* deployer.c — the thread of a background deployer (deployer.h). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/metrics.h"
#include "deploy/deployer.h"
#include "store/select/select.h"

/* A wake-up starts a pass once no other came for QUIET_MS, or MAX_DELAY_MS
 * after it while writes keep coming: a burst of writes makes one pass a
 * second, whatever its rate (docs/dataplane.md). A pass that took longer
 * than MAX_DELAY_MS / PACE stretches that delay to PACE times its own length
 * (at most PACED_MAX_MS), so that passes take at most a fifth of the time
 * during a long burst: a FastNetMon check of a site of 300 hosts costs
 * ~200 ms of CPU, and one a second took a fifth of a 2-core machine from the
 * writes that made it. */
enum { QUIET_MS = 50, MAX_DELAY_MS = 1000, PACE = 4, PACED_MAX_MS = 10000 };

static struct {
    pthread_mutex_t mu;
    struct deployer *running[DEPLOYER_MAX];
} registry = {.mu = PTHREAD_MUTEX_INITIALIZER};

static char lock_dir[4096]; /* "" until deployers_lock_dir */

void deployers_lock_dir(const char *dir)
{
    snprintf(lock_dir, sizeof lock_dir, "%s", dir);
}

/* Whether d may run a pass: it holds its lock, or takes it now. */
static bool holds_lock(struct deployer *d, bool *standing_by)
{
    if (!lock_dir[0] || d->lock_fd >= 0)
        return true;
    char path[4200], name[64];
    snprintf(name, sizeof name, "%s", d->name);
    for (char *c = name; *c; c++)
        if (*c == ' ' || *c == '/')
            *c = '-';
    snprintf(path, sizeof path, "%s/.deploy-%s.lock", lock_dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) {
        d->lock_fd = fd;
        if (*standing_by)
            fprintf(stderr, "parapet: %s deploy: the other process has stopped; this one deploys now\n", d->name);
        *standing_by = false;
        return true;
    }
    if (fd >= 0)
        close(fd);
    if (!*standing_by)
        fprintf(stderr, "parapet: %s deploy: another process deploys from %s (it holds %s); this one stands by\n",
                d->name, lock_dir, path);
    *standing_by = true;
    return false;
}

static long ms_between(struct timespec a, struct timespec b)
{
    return (b.tv_sec - a.tv_sec) * 1000L + (b.tv_nsec - a.tv_nsec) / 1000000L;
}

static void run_pass(struct deployer *d, struct store *s)
{
    char msg[1024] = "";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = d->pass(s, d->arg, msg, sizeof msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    d->pass_ms = ms_between(t0, t1);
    metrics_deploy_pass(d->name, rc == 0);
    if (rc != 0 || msg[0])
        fprintf(stderr, "parapet: %s deploy: %s\n", d->name, msg[0] ? msg : "the pass failed");
}

static struct timespec after_ms(struct timespec t, long ms)
{
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static bool before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/* With d->mu held and d->wake set: waits until the wake-ups stop for
 * QUIET_MS, or MAX_DELAY_MS (paced: PACE times the last pass) have gone
 * by, or d is stopped. The writers only count their wake-ups meanwhile (no
 * signal: one per write cost a futex call and a switch to this thread). */
static void gather(struct deployer *d)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    long delay = PACE * d->pass_ms > MAX_DELAY_MS ? PACE * d->pass_ms : MAX_DELAY_MS;
    struct timespec last = after_ms(now, delay < PACED_MAX_MS ? delay : PACED_MAX_MS);
    while (!d->stop && before(now, last)) {
        unsigned long seen = d->wakes;
        struct timespec until = after_ms(now, QUIET_MS);
        if (before(last, until))
            until = last;
        while (!d->stop && pthread_cond_timedwait(&d->cv, &d->mu, &until) == 0)
            ;
        if (d->wakes == seen)
            break;
        clock_gettime(CLOCK_REALTIME, &now);
    }
}

/* A pass is background work: on a busy machine it yields the CPU to the
 * requests (the write lane, server/write_lane.h), and the programs it runs
 * (fastnetmon --configuration_check, birdc, nginx -t) inherit that. Under
 * host create/delete at ~5k/s the DDoS deployer's thread used ~15% as much
 * CPU as the lane, at the same priority, and the lane's share of the two
 * cores bounds the writes a second. On an idle machine it changes nothing. */
enum { DEPLOY_NICE = 5 }; /* added to the server's niceness */

static void *loop(void *arg)
{
    struct deployer *d = arg;
    id_t self = (id_t)syscall(SYS_gettid); /* this thread only */
    setpriority(PRIO_PROCESS, self, getpriority(PRIO_PROCESS, self) + DEPLOY_NICE);
    struct store *s = store_open(d->store_cfg);
    if (!s) {
        fprintf(stderr, "parapet: %s deploy: no store connection; the deployer is off\n", d->name);
        return NULL;
    }
    bool standing_by = false;
    pthread_mutex_lock(&d->mu);
    while (!d->stop) {
        d->wake = false;
        pthread_mutex_unlock(&d->mu);
        if (holds_lock(d, &standing_by))
            run_pass(d, s);
        pthread_mutex_lock(&d->mu);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += d->interval_s ? d->interval_s : 60;
        d->idle = true;
        while (!d->wake && !d->stop && pthread_cond_timedwait(&d->cv, &d->mu, &until) == 0)
            ;
        d->idle = false;
        if (d->wake)
            gather(d);
    }
    pthread_mutex_unlock(&d->mu);
    s->ops->close(s);
    if (d->lock_fd >= 0) { /* released: a process standing by takes over */
        close(d->lock_fd);
        d->lock_fd = -1;
    }
    return NULL;
}

int deployer_start(struct deployer *d, const struct store_config *store_cfg)
{
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
    d->store_cfg = store_cfg;
    d->stop = d->wake = d->idle = false;
    d->pass_ms = 0;
    d->wakes = 0;
    d->lock_fd = -1;
    pthread_mutex_lock(&registry.mu);
    int slot = -1;
    for (int i = 0; i < DEPLOYER_MAX && slot < 0; i++)
        if (!registry.running[i])
            slot = i;
    if (slot < 0 || pthread_create(&d->thread, NULL, loop, d) != 0) {
        pthread_mutex_unlock(&registry.mu);
        return -1;
    }
    d->running = true;
    registry.running[slot] = d;
    pthread_mutex_unlock(&registry.mu);
    return 0;
}

void deployer_wake(struct deployer *d)
{
    pthread_mutex_lock(&d->mu);
    d->wake = true;
    d->wakes++;
    if (d->idle) /* gathering or in a pass, it sees the flag and the count */
        pthread_cond_signal(&d->cv);
    pthread_mutex_unlock(&d->mu);
}

/* Whether path begins with pattern, a '*' of which stands for one segment. */
static bool begins_with(const char *path, const char *pattern)
{
    for (const char *p = pattern; *p; p++) {
        if (*p == '*') {
            size_t segment = strcspn(path, "/");
            if (!segment)
                return false;
            path += segment;
        } else if (*path++ != *p) {
            return false;
        }
    }
    return true;
}

static bool wants(const struct deployer *d, const char *path)
{
    for (int i = 0; i < DEPLOYER_PATHS_MAX && d->paths[i]; i++)
        if (begins_with(path, d->paths[i]))
            return true;
    return false;
}

void deployers_wake_local(const char *path)
{
    pthread_mutex_lock(&registry.mu);
    for (int i = 0; i < DEPLOYER_MAX; i++)
        if (registry.running[i] && (!*path || wants(registry.running[i], path)))
            deployer_wake(registry.running[i]);
    pthread_mutex_unlock(&registry.mu);
}

static void (*_Atomic announcer)(const char *path);

void deployers_set_announcer(void (*announce)(const char *path))
{
    announcer = announce;
}

void deployers_wake_path(const char *path)
{
    deployers_wake_local(path);
    /* the paths deployers follow are the API's and ingest's (token
     * issuance, say, concerns no data plane) */
    void (*announce)(const char *path) = announcer;
    if (announce && (strncmp(path, "/api/", 5) == 0 || strncmp(path, "/ingest/", 8) == 0))
        announce(path);
}

void deployer_stop(struct deployer *d)
{
    if (!d->running)
        return;
    pthread_mutex_lock(&registry.mu);
    for (int i = 0; i < DEPLOYER_MAX; i++)
        if (registry.running[i] == d)
            registry.running[i] = NULL;
    pthread_mutex_unlock(&registry.mu);
    pthread_mutex_lock(&d->mu);
    d->stop = true;
    pthread_cond_signal(&d->cv);
    pthread_mutex_unlock(&d->mu);
    pthread_join(d->thread, NULL);
    d->running = false;
}
