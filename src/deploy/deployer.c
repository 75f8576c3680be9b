/* deployer.c — the thread of a background deployer (deployer.h). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "core/metrics.h"
#include "deploy/deployer.h"

enum { GATHER_MS = 50 };

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

static void run_pass(struct deployer *d, struct store *s)
{
    char msg[1024] = "";
    int rc = d->pass(s, d->arg, msg, sizeof msg);
    metrics_deploy_pass(d->name, rc == 0);
    if (rc != 0 || msg[0])
        fprintf(stderr, "parapet: %s deploy: %s\n", d->name, msg[0] ? msg : "the pass failed");
}

static void *loop(void *arg)
{
    struct deployer *d = arg;
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
        while (!d->wake && !d->stop && pthread_cond_timedwait(&d->cv, &d->mu, &until) == 0)
            ;
        if (d->wake && !d->stop) {
            pthread_mutex_unlock(&d->mu);
            nanosleep(&(struct timespec){0, GATHER_MS * 1000000L}, NULL);
            pthread_mutex_lock(&d->mu);
        }
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
    d->stop = d->wake = false;
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
    pthread_cond_signal(&d->cv);
    pthread_mutex_unlock(&d->mu);
}

static bool wants(const struct deployer *d, const char *path)
{
    for (int i = 0; i < DEPLOYER_PATHS_MAX && d->paths[i]; i++)
        if (strncmp(path, d->paths[i], strlen(d->paths[i])) == 0)
            return true;
    return false;
}

void deployers_wake_path(const char *path)
{
    pthread_mutex_lock(&registry.mu);
    for (int i = 0; i < DEPLOYER_MAX; i++)
        if (registry.running[i] && wants(registry.running[i], path))
            deployer_wake(registry.running[i]);
    pthread_mutex_unlock(&registry.mu);
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
