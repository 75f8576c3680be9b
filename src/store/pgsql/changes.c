/* pgsql/changes.c — what one node's writes tell the other nodes over
 * PostgreSQL (pgsql.h): the API path of each committed write, sent with
 * NOTIFY on the channel parapet_changes and heard with LISTEN, so that a
 * data plane beside node A is re-rendered at once when node B stores a
 * change, not at A's next sweep.
 *
 * One thread per process with a connection of its own does both: it sends
 * the paths the dispatcher queued (NOTIFY is cheap and not durable: a lost
 * one only delays until the next sweep) and passes on the paths other
 * processes sent (its own come back too and are skipped by the sender id
 * in front of each payload). After a reconnect it reports the empty path
 * "", since notices sent meanwhile were lost: every deployer should look. */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "store/pgsql/pgsql.h"

enum { QUEUE_MAX = 256, PATH_MAX_LEN = 512 };

static struct {
    pthread_mutex_t mu;
    char queue[QUEUE_MAX][PATH_MAX_LEN]; /* paths to announce */
    int queued;
    bool running, stop;
    pthread_t thread;
    char *conninfo;
    char sender[20]; /* this process, in front of every payload */
    void (*heard)(const char *path);
    int wake[2]; /* a byte here: something was queued (or stop) */
} ch = {.mu = PTHREAD_MUTEX_INITIALIZER, .wake = {-1, -1}};

static PGconn *listen_conn(void)
{
    PGconn *c = PQconnectdb(ch.conninfo);
    PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, "LISTEN parapet_changes") : NULL;
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) {
        PQfinish(c);
        return NULL;
    }
    return c;
}

/* Sends what is queued, one notice a path; false when the connection failed
 * (the path being sent is lost: its deployers still see it at their sweep). */
static bool announce_queued(PGconn *c)
{
    for (;;) {
        char payload[PATH_MAX_LEN + 32];
        pthread_mutex_lock(&ch.mu);
        bool any = ch.queued > 0;
        if (any)
            snprintf(payload, sizeof payload, "%s %.*s", ch.sender, PATH_MAX_LEN - 1, ch.queue[--ch.queued]);
        pthread_mutex_unlock(&ch.mu);
        if (!any)
            return true;
        const char *p[] = {payload};
        PGresult *r = PQexecParams(c, "SELECT pg_notify('parapet_changes', $1)", 1, NULL, p, NULL, NULL, 0);
        bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
        PQclear(r);
        if (!ok)
            return false;
    }
}

/* Passes on what other processes announced; false when the connection failed. */
static bool hear(PGconn *c)
{
    if (!PQconsumeInput(c))
        return false;
    PGnotify *n;
    while ((n = PQnotifies(c))) {
        size_t len = strlen(ch.sender);
        if (strncmp(n->extra, ch.sender, len) != 0 || n->extra[len] != ' ') {
            const char *path = strchr(n->extra, ' ');
            ch.heard(path ? path + 1 : "");
        }
        PQfreemem(n);
    }
    return true;
}

static void *changes_main(void *unused)
{
    (void)unused;
    PGconn *c = NULL;
    bool stop = false;
    while (!stop) {
        if (!c) {
            if (!(c = listen_conn())) {
                sleep(1); /* the database is away: try again */
            } else {
                ch.heard(""); /* what was announced while we were away is lost */
            }
        }
        struct pollfd fds[2] = {{.fd = ch.wake[0], .events = POLLIN}, {.fd = c ? PQsocket(c) : -1, .events = POLLIN}};
        if (poll(fds, c ? 2 : 1, 1000) > 0 && (fds[0].revents & POLLIN)) {
            char drain[64];
            while (read(ch.wake[0], drain, sizeof drain) > 0)
                ;
        }
        pthread_mutex_lock(&ch.mu);
        stop = ch.stop;
        pthread_mutex_unlock(&ch.mu);
        if (c && !(announce_queued(c) && hear(c))) {
            PQfinish(c);
            c = NULL;
        }
    }
    PQfinish(c);
    return NULL;
}

int pgsql_changes_start(const char *conninfo, void (*heard)(const char *path))
{
    if (ch.running)
        return 0;
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    snprintf(ch.sender, sizeof ch.sender, "%x-%lx", (unsigned)getpid(), (long)t.tv_nsec);
    ch.heard = heard;
    ch.conninfo = strdup(conninfo);
    ch.stop = false;
    if (!ch.conninfo || pipe2(ch.wake, O_NONBLOCK | O_CLOEXEC) != 0 || pthread_create(&ch.thread, NULL, changes_main, NULL) != 0) {
        free(ch.conninfo);
        ch.conninfo = NULL;
        return -1;
    }
    ch.running = true;
    return 0;
}

void pgsql_changes_announce(const char *path)
{
    if (!ch.running || strlen(path) >= PATH_MAX_LEN)
        return;
    pthread_mutex_lock(&ch.mu);
    bool known = false; /* a burst of writes to one path is one notice */
    for (int i = 0; i < ch.queued && !known; i++)
        known = strcmp(ch.queue[i], path) == 0;
    if (!known && ch.queued < QUEUE_MAX)
        snprintf(ch.queue[ch.queued++], PATH_MAX_LEN, "%s", path);
    pthread_mutex_unlock(&ch.mu);
    (void)!write(ch.wake[1], "", 1); /* non-blocking: a full pipe has a wake-up in it already */
}

void pgsql_changes_stop(void)
{
    if (!ch.running)
        return;
    pthread_mutex_lock(&ch.mu);
    ch.stop = true;
    pthread_mutex_unlock(&ch.mu);
    (void)!write(ch.wake[1], "", 1);
    pthread_join(ch.thread, NULL);
    close(ch.wake[0]);
    close(ch.wake[1]);
    ch.wake[0] = ch.wake[1] = -1;
    free(ch.conninfo);
    ch.conninfo = NULL;
    ch.running = false;
}
