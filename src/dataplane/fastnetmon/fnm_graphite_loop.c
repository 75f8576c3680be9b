/* fnm_graphite_loop.c — see fnm_graphite_loop.h. */
#include "dataplane/fastnetmon/fnm_graphite_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dataplane/fastnetmon/fnm_graphite.h"
#include "dataplane/ingest_batch.h"
#include "store/select/select.h"

enum {
    MAX_CLIENTS = 64,
    LINE_MAX_BYTES = 4096, /* a Graphite line is short; a longer one is dropped */
    IDLE_S = 60,           /* FastNetMon closes after each write; others are cut off */
    UNPROTECTED_S = 300,   /* a host no site protects is not sent again for this long */
    PENDING_MAX = 200000,  /* records kept for a store that keeps failing */
};

struct client {
    int fd;
    int64_t last;
    size_t len;
    bool skipping; /* inside a line too long to keep */
    char buf[LINE_MAX_BYTES];
};

static struct {
    int listen_fd, wake[2], port;
    bool running, stop;
    pthread_t thread;
    const struct store_config *cfg;
    struct client clients[MAX_CLIENTS];
    struct fnm_graphite_agg agg;
    json_t *pending, *pending_ips; /* records (and their hosts) not stored yet */
    json_t *unprotected;           /* host -> until (unix time) */
    long stored, left_out;
} g = {.listen_fd = -1, .wake = {-1, -1}};

static int open_listener(const char *addr)
{
    char host[256];
    const char *colon = strrchr(addr, ':');
    size_t hlen = colon ? (size_t)(colon - addr) : 0;
    char *end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || hlen >= sizeof host || !colon[1] || *end || port < 0 || port > 65535) {
        fprintf(stderr, "parapet: fastnetmon graphite: '%s' is not ADDR:PORT\n", addr);
        return -1;
    }
    memcpy(host, addr, hlen);
    host[hlen] = '\0';
    if (hlen >= 2 && host[0] == '[' && host[hlen - 1] == ']') {
        memmove(host, host + 1, hlen - 2);
        host[hlen - 2] = '\0';
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE};
    struct addrinfo *ai = NULL;
    int fd = -1;
    if (getaddrinfo(host, colon + 1, &hints, &ai) != 0) {
        fprintf(stderr, "parapet: fastnetmon graphite: '%s' is not ADDR:PORT with an IP literal\n", addr);
        return -1;
    }
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
        fprintf(stderr, "parapet: fastnetmon graphite: cannot listen on %s: %s\n", addr, strerror(errno));
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage sa;
    socklen_t salen = sizeof sa;
    if (fd >= 0 && getsockname(fd, (struct sockaddr *)&sa, &salen) == 0)
        g.port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                                : ((struct sockaddr_in *)&sa)->sin_port);
    return fd;
}

static void take_bytes(struct client *c, const char *data, size_t n, int64_t now)
{
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n') {
            if (c->skipping)
                g.agg.stats.malformed++;
            else
                fnm_graphite_add(&g.agg, c->buf, c->len, now);
            c->len = 0;
            c->skipping = false;
        } else if (c->len < sizeof c->buf) {
            c->buf[c->len++] = data[i];
        } else {
            c->skipping = true;
        }
    }
}

static void close_client(struct client *c, int64_t now)
{
    if (c->len && !c->skipping) /* a last line without its newline */
        fnm_graphite_add(&g.agg, c->buf, c->len, now);
    close(c->fd);
    c->fd = -1;
}

static void read_client(struct client *c, int64_t now)
{
    char data[16384];
    for (;;) {
        ssize_t n = read(c->fd, data, sizeof data);
        if (n > 0) {
            c->last = now;
            take_bytes(c, data, (size_t)n, now);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0 && errno == EINTR)
            continue;
        close_client(c, now);
        return;
    }
}

static void accept_clients(int64_t now)
{
    for (;;) {
        int fd = accept4(g.listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        struct client *c = NULL;
        for (int i = 0; i < MAX_CLIENTS && !c; i++)
            if (g.clients[i].fd < 0)
                c = &g.clients[i];
        if (!c) {
            close(fd);
            continue;
        }
        c->fd = fd;
        c->last = now;
        c->len = 0;
        c->skipping = false;
    }
}

/* Moves the hosts the ingest refused into `unprotected`: `sent` holds every
 * record given to dp_ingest_records, `kept` those it did not remove. */
static void note_refused(json_t *sent, json_t *ips, json_t *kept, int64_t now)
{
    size_t j = 0;
    for (size_t i = 0; i < json_array_size(sent); i++) {
        if (j < json_array_size(kept) && json_array_get(kept, j) == json_array_get(sent, i)) {
            j++;
            continue;
        }
        json_object_set_new(g.unprotected, json_string_value(json_array_get(ips, i)),
                            json_integer(now + UNPROTECTED_S));
    }
}

static bool is_unprotected(const char *ip, int64_t now)
{
    json_t *until = json_object_get(g.unprotected, ip);
    if (until && json_integer_value(until) > now)
        return true;
    if (until)
        json_object_del(g.unprotected, ip);
    return false;
}

/* Takes the complete minutes (all of them with `all`) and stores them. */
static void flush(struct store *s, int64_t now, bool all)
{
    json_t *fresh = json_array(), *fresh_ips = json_array();
    fnm_graphite_take(&g.agg, all ? INT64_MAX / 2 : now, fresh, fresh_ips);
    for (size_t i = 0; i < json_array_size(fresh); i++)
        if (!is_unprotected(json_string_value(json_array_get(fresh_ips, i)), now)) {
            json_array_append(g.pending, json_array_get(fresh, i));
            json_array_append(g.pending_ips, json_array_get(fresh_ips, i));
        }
    json_decref(fresh);
    json_decref(fresh_ips);
    if (!s) {
        json_array_clear(g.pending);
        json_array_clear(g.pending_ips);
    }
    if (!json_array_size(g.pending))
        return;
    json_t *sent = json_copy(g.pending);
    long stored = 0, dropped = 0;
    if (dp_ingest_records(s, g.pending, now, "fastnetmon graphite", &stored, &dropped) == 0) {
        note_refused(sent, g.pending_ips, g.pending, now);
        json_array_clear(g.pending);
        json_array_clear(g.pending_ips);
        g.stored += stored;
        g.left_out += dropped;
    } else {
        /* dp_ingest_records may have removed refused records before the store failed */
        note_refused(sent, g.pending_ips, g.pending, now);
        json_array_clear(g.pending_ips);
        for (size_t i = 0; i < json_array_size(g.pending); i++) {
            json_t *r = json_loads(json_string_value(json_array_get(g.pending, i)), 0, NULL);
            json_array_append(g.pending_ips, json_object_get(r, "dst_ip"));
            json_decref(r);
        }
        fprintf(stderr, "parapet: fastnetmon graphite: %zu flow records could not be stored; trying again\n",
                json_array_size(g.pending));
        if (json_array_size(g.pending) > PENDING_MAX) {
            fprintf(stderr, "parapet: fastnetmon graphite: %zu flow records given up\n",
                    json_array_size(g.pending));
            json_array_clear(g.pending);
            json_array_clear(g.pending_ips);
        }
    }
    json_decref(sent);
}

static void *loop(void *arg)
{
    (void)arg;
    struct store *s = store_open(g.cfg);
    if (!s)
        fprintf(stderr, "parapet: fastnetmon graphite: no store connection; lines are read but not stored\n");
    int64_t last_flush = 0;
    while (!__atomic_load_n(&g.stop, __ATOMIC_ACQUIRE)) {
        struct pollfd pf[MAX_CLIENTS + 2];
        struct client *of[MAX_CLIENTS + 2];
        nfds_t n = 0;
        pf[n++] = (struct pollfd){.fd = g.wake[0], .events = POLLIN};
        pf[n++] = (struct pollfd){.fd = g.listen_fd, .events = POLLIN};
        for (int i = 0; i < MAX_CLIENTS; i++)
            if (g.clients[i].fd >= 0) {
                of[n] = &g.clients[i];
                pf[n++] = (struct pollfd){.fd = g.clients[i].fd, .events = POLLIN};
            }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int wait_ms = 1000 - (int)(ts.tv_nsec / 1000000); /* to the next second */
        if (poll(pf, n, wait_ms) < 0 && errno != EINTR)
            break;
        int64_t now = (int64_t)time(NULL);
        for (nfds_t i = 2; i < n; i++)
            if (pf[i].revents)
                read_client(of[i], now);
        if (pf[1].revents & POLLIN)
            accept_clients(now);
        for (int i = 0; i < MAX_CLIENTS; i++)
            if (g.clients[i].fd >= 0 && now - g.clients[i].last > IDLE_S)
                close_client(&g.clients[i], now);
        if (now != last_flush) {
            flush(s, now, false);
            last_flush = now;
        }
    }
    int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < MAX_CLIENTS; i++)
        if (g.clients[i].fd >= 0)
            read_client(&g.clients[i], now); /* what is already sent */
    for (int i = 0; i < MAX_CLIENTS; i++)
        if (g.clients[i].fd >= 0)
            close_client(&g.clients[i], now);
    flush(s, now, true);
    if (s)
        s->ops->close(s);
    return NULL;
}

int fnm_graphite_start(const char *listen_addr, const struct store_config *cfg)
{
    if (g.running)
        return -1;
    g.listen_fd = open_listener(listen_addr);
    if (g.listen_fd < 0)
        return -1;
    if (pipe2(g.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        close(g.listen_fd);
        g.listen_fd = -1;
        return -1;
    }
    for (int i = 0; i < MAX_CLIENTS; i++)
        g.clients[i].fd = -1;
    fnm_graphite_init(&g.agg, FNM_GRAPHITE_GRACE_S);
    g.pending = json_array();
    g.pending_ips = json_array();
    g.unprotected = json_object();
    g.stored = g.left_out = 0;
    g.cfg = cfg;
    g.stop = false;
    if (pthread_create(&g.thread, NULL, loop, NULL) != 0) {
        fnm_graphite_stop();
        return -1;
    }
    g.running = true;
    return 0;
}

int fnm_graphite_port(void)
{
    return g.listen_fd >= 0 ? g.port : 0;
}

void fnm_graphite_stop(void)
{
    if (g.running) {
        __atomic_store_n(&g.stop, true, __ATOMIC_RELEASE);
        if (write(g.wake[1], "x", 1) < 0) {
            /* the pipe is full: the loop is awake already */
        }
        pthread_join(g.thread, NULL);
        g.running = false;
        const struct fnm_graphite_stats *st = &g.agg.stats;
        fprintf(
            stderr,
            "parapet: fastnetmon graphite: stopped; %ld lines (%ld used, %ld malformed, %ld late), %ld flow "
            "records stored, %ld left out\n",
            st->lines, st->used, st->malformed, st->late, g.stored, g.left_out);
    }
    for (int i = 0; i < 2; i++)
        if (g.wake[i] >= 0) {
            close(g.wake[i]);
            g.wake[i] = -1;
        }
    if (g.listen_fd >= 0)
        close(g.listen_fd);
    g.listen_fd = -1;
    g.port = 0;
    fnm_graphite_free(&g.agg);
    json_decref(g.pending);
    json_decref(g.pending_ips);
    json_decref(g.unprotected);
    g.pending = g.pending_ips = g.unprotected = NULL;
}
