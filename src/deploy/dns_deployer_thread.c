/* dns_deployer_thread.c — the background deployer of `parapet serve`: runs
 * a pass at start, shortly after each change (a short pause gathers a burst
 * of changes into one pass) and every interval_s, with its own store
 * connection. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "deploy/dns_deployer.h"

static struct {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool running, wake, stop;
    const struct dns_deploy_config *cfg;
    const struct store_config *store_cfg;
} d = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

enum { GATHER_MS = 50 };

static void report(const struct dns_deploy_result *res, int rc)
{
    if (rc != 0)
        fprintf(stderr, "parapet: dns deploy: %s\n", res->error);
    else if (res->installed || res->deployed || res->failed)
        fprintf(stderr, "parapet: dns deploy: %d zones; %d deployed, %d failed%s\n", res->zones,
                res->deployed, res->failed, res->installed ? "; new configuration installed" : "");
}

static void *loop(void *arg)
{
    (void)arg;
    struct store *s = store_open(d.store_cfg);
    if (!s) {
        fprintf(stderr, "parapet: dns deploy: no store connection; the deployer is off\n");
        return NULL;
    }
    pthread_mutex_lock(&d.mu);
    while (!d.stop) {
        d.wake = false;
        pthread_mutex_unlock(&d.mu);
        struct dns_deploy_result res;
        report(&res, dns_deploy_run(s, d.cfg, &res));
        pthread_mutex_lock(&d.mu);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += d.cfg->interval_s;
        while (!d.wake && !d.stop && pthread_cond_timedwait(&d.cv, &d.mu, &until) == 0)
            ;
        if (d.wake && !d.stop) {
            pthread_mutex_unlock(&d.mu);
            nanosleep(&(struct timespec){0, GATHER_MS * 1000000L}, NULL);
            pthread_mutex_lock(&d.mu);
        }
    }
    pthread_mutex_unlock(&d.mu);
    s->ops->close(s);
    return NULL;
}

int dns_deployer_start(const struct dns_deploy_config *cfg, const struct store_config *store_cfg)
{
    d.cfg = cfg;
    d.store_cfg = store_cfg;
    d.stop = false;
    if (pthread_create(&d.thread, NULL, loop, NULL) != 0)
        return -1;
    d.running = true;
    return 0;
}

void dns_deployer_wake(void)
{
    pthread_mutex_lock(&d.mu);
    d.wake = true;
    pthread_cond_signal(&d.cv);
    pthread_mutex_unlock(&d.mu);
}

void dns_deployer_stop(void)
{
    if (!d.running)
        return;
    pthread_mutex_lock(&d.mu);
    d.stop = true;
    pthread_cond_signal(&d.cv);
    pthread_mutex_unlock(&d.mu);
    pthread_join(d.thread, NULL);
    d.running = false;
}
