/* pgsql/version_watch.c — see version_watch.h. */
#include "store/pgsql/version_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

static struct {
    pthread_mutex_t mu; /* start and stop */
    bool running;
    pthread_t thread;
    char *conninfo;
    int stop[2]; /* a byte here: stop */
    uint64_t known;       /* atomic: the highest value heard or read */
    int64_t fresh_until;  /* atomic: monotonic ns; 0 not fresh */
} w = {.mu = PTHREAD_MUTEX_INITIALIZER, .stop = {-1, -1}};

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void pg_version_saw(uint64_t version)
{
    uint64_t old = __atomic_load_n(&w.known, __ATOMIC_RELAXED);
    while (version > old &&
           !__atomic_compare_exchange_n(&w.known, &old, version, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
}

bool pg_version_known(uint64_t *version)
{
    if (now_ns() >= __atomic_load_n(&w.fresh_until, __ATOMIC_ACQUIRE))
        return false;
    *version = __atomic_load_n(&w.known, __ATOMIC_ACQUIRE);
    return *version != 0;
}

/* Waits up to ms for the connection or the stop pipe: -1 stop, 0 timeout,
 * 1 the connection has something. */
static int wait_for(PGconn *c, int ms)
{
    struct pollfd fds[2] = {{.fd = w.stop[0], .events = POLLIN}, {.fd = PQsocket(c), .events = POLLIN}};
    int n = poll(fds, 2, ms < 0 ? 0 : ms);
    if (n > 0 && (fds[0].revents & POLLIN))
        return -1;
    return n > 0;
}

/* Takes the notices that arrived; false when the connection failed. */
static bool hear(PGconn *c)
{
    if (!PQconsumeInput(c))
        return false;
    PGnotify *n;
    while ((n = PQnotifies(c))) {
        pg_version_saw(strtoull(n->extra, NULL, 10) + 1); /* nextval's value v reads as v + 1 */
        PQfreemem(n);
    }
    return true;
}

/* One read of the counter, sent at `sent`: 0 done, -1 failed, 1 stop. */
static int beat(PGconn *c)
{
    int64_t sent = now_ns();
    if (!PQsendQuery(c, "SELECT last_value + 1 FROM data_version"))
        return -1;
    int64_t deadline = sent + (int64_t)PG_WATCH_FRESH_MS * 1000000;
    uint64_t value = 0;
    bool done = false, ok = false;
    while (!done) {
        while (!PQisBusy(c)) {
            PGresult *r = PQgetResult(c);
            if (!r) {
                done = true;
                break;
            }
            if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
                value = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
                ok = true;
            }
            PQclear(r);
        }
        if (done)
            break;
        int64_t left = deadline - now_ns();
        int got = left > 0 ? wait_for(c, (int)(left / 1000000) + 1) : 0;
        if (got < 0)
            return 1;
        if (got == 0 && now_ns() >= deadline)
            return -1; /* too slow to be trusted: stale until the connection is made again */
        if (!PQconsumeInput(c))
            return -1;
    }
    if (!ok || !hear(c))
        return -1;
    pg_version_saw(value);
    __atomic_store_n(&w.fresh_until, sent + (int64_t)PG_WATCH_FRESH_MS * 1000000, __ATOMIC_RELEASE);
    return 0;
}

static PGconn *listen_conn(void)
{
    PGconn *c = PQconnectdb(w.conninfo);
    PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, "LISTEN parapet_version") : NULL;
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) {
        PQfinish(c);
        return NULL;
    }
    return c;
}

static void *watch_main(void *unused)
{
    (void)unused;
    PGconn *c = NULL;
    for (;;) {
        if (!c && !(c = listen_conn())) {
            struct pollfd fd = {.fd = w.stop[0], .events = POLLIN};
            if (poll(&fd, 1, 200) > 0)
                break;
            continue;
        }
        int64_t next = now_ns() + (int64_t)PG_WATCH_BEAT_MS * 1000000;
        int rc = beat(c);
        if (rc > 0)
            break;
        /* notices until the next beat */
        for (int got = 0; rc == 0 && got >= 0 && now_ns() < next;) {
            got = wait_for(c, (int)((next - now_ns()) / 1000000) + 1);
            if (got > 0 && !hear(c))
                rc = -1;
            if (got < 0)
                rc = 1;
        }
        if (rc > 0)
            break;
        if (rc < 0) {
            __atomic_store_n(&w.fresh_until, 0, __ATOMIC_RELEASE);
            PQfinish(c);
            c = NULL;
        }
    }
    __atomic_store_n(&w.fresh_until, 0, __ATOMIC_RELEASE);
    PQfinish(c);
    return NULL;
}

int pg_version_watch_start(const char *conninfo)
{
    if (__atomic_load_n(&w.running, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&w.mu);
    int rc = 0;
    if (!w.running) {
        w.conninfo = strdup(conninfo);
        if (!w.conninfo || pipe2(w.stop, O_NONBLOCK | O_CLOEXEC) != 0 ||
            pthread_create(&w.thread, NULL, watch_main, NULL) != 0) {
            free(w.conninfo);
            w.conninfo = NULL;
            rc = -1;
        } else {
            __atomic_store_n(&w.running, true, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&w.mu);
    return rc;
}

void pg_version_watch_stop(void)
{
    pthread_mutex_lock(&w.mu);
    if (w.running) {
        (void)!write(w.stop[1], "", 1);
        pthread_join(w.thread, NULL);
        close(w.stop[0]);
        close(w.stop[1]);
        w.stop[0] = w.stop[1] = -1;
        free(w.conninfo);
        w.conninfo = NULL;
        __atomic_store_n(&w.running, false, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&w.mu);
}
