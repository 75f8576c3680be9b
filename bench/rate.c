/* bench/rate.c — an open-loop HTTPS load generator: GETs one URL at a fixed
 * rate over keep-alive connections and prints the latency percentiles.
 *
 *   bench-rate -r RATE [-c CONNECTIONS] [-t THREADS] [-d SECONDS] [-w WARMUP] https://HOST:PORT/PATH
 *
 * prints one line: target req/s, achieved req/s, p50, p90, p99, p99.9 and
 * max latency in ms, then the counts of non-2xx answers, requests still
 * unanswered at the end, and connection errors.
 *
 * Coordinated omission. A closed-loop tool (wrk) sends a connection's next
 * request only after the previous answer; a server that stalls for 100 ms
 * is then asked less during the stall, and the requests that would have
 * waited are never measured. Here request k of a thread is due at
 * t0 + k / (RATE / THREADS), whatever happened before; it is sent on an
 * idle connection as soon as one is free (at once when the server keeps
 * up), and its latency is counted from the time it was due, not from the
 * time it could be sent. A stall therefore shows in every request due
 * during it, as it would for clients arriving independently (wrk2 counts
 * the same way). What remains: HTTP/1.1 without pipelining allows one
 * request in flight per connection, so with all CONNECTIONS busy the
 * queue is on this side rather than in the server's; the latencies are the
 * same, the server's view of its load is not. Use enough connections.
 *
 * The certificate is not verified (a benchmark against a local,
 * self-signed server). Answers must carry Content-Length. */
#include <errno.h>
#include <fcntl.h>
#include <gnutls/gnutls.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum { GRACE_S = 2 }; /* how long answers may still come after the last request was due */

struct conn {
    int fd;
    gnutls_session_t tls;
    bool busy, dead;
    uint64_t due; /* when the request in flight was due (ns, CLOCK_MONOTONIC) */
    char *buf;
    size_t len, cap;
};

struct worker {
    pthread_t thread;
    struct conn *conns;
    int nconns;
    uint64_t t0, interval, record_from, end; /* ns */
    uint64_t total;                          /* requests due in [t0, end) */
    uint64_t *lat;                           /* ns, of requests due from record_from */
    size_t nlat, cap;
    uint64_t non2xx, errors, unfinished;
};

static const char *host, *port;
static char path[2048];
static char request[4096];
static size_t request_len;
static gnutls_certificate_credentials_t creds;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "bench-rate: %s\n", what);
    exit(2);
}

static int connect_to(void)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    if (getaddrinfo(host, port, &hints, &ai) != 0)
        die("cannot resolve the host");
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) != 0)
        die("cannot connect");
    freeaddrinfo(ai);
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    return fd;
}

/* Connects and shakes hands (blocking), then makes the socket non-blocking. */
static void conn_open(struct conn *c)
{
    memset(c, 0, sizeof *c);
    c->fd = connect_to();
    if (gnutls_init(&c->tls, GNUTLS_CLIENT | GNUTLS_NONBLOCK) != 0 ||
        gnutls_set_default_priority(c->tls) != 0 ||
        gnutls_credentials_set(c->tls, GNUTLS_CRD_CERTIFICATE, creds) != 0)
        die("cannot set up a TLS session");
    gnutls_transport_set_int(c->tls, c->fd);
    int rc;
    do
        rc = gnutls_handshake(c->tls);
    while (rc < 0 && !gnutls_error_is_fatal(rc));
    if (rc < 0)
        die(gnutls_strerror(rc));
    fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
    c->cap = 16384;
    c->buf = malloc(c->cap);
    if (!c->buf)
        die("out of memory");
}

static void conn_fail(struct worker *w, struct conn *c)
{
    if (c->dead)
        return;
    c->dead = true;
    c->busy = false;
    w->errors++;
    close(c->fd);
}

static void send_request(struct worker *w, struct conn *c, uint64_t due)
{
    ssize_t n;
    while ((n = gnutls_record_send(c->tls, request, request_len)) == GNUTLS_E_AGAIN ||
           n == GNUTLS_E_INTERRUPTED) {
        struct pollfd p = {.fd = c->fd, .events = POLLOUT};
        poll(&p, 1, 100);
    }
    if (n != (ssize_t)request_len) {
        conn_fail(w, c);
        return;
    }
    c->busy = true;
    c->due = due;
}

/* The length of a complete answer at the start of c->buf, 0 while it is
 * incomplete, -1 when it cannot be read; *status its status code. */
static long answer_length(const struct conn *c, int *status)
{
    const char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
    if (!end)
        return c->len > 65536 ? -1 : 0;
    size_t head = (size_t)(end - c->buf) + 4;
    if (c->len < 12 || memcmp(c->buf, "HTTP/1.", 7) != 0)
        return -1;
    *status = atoi(c->buf + 9);
    for (const char *line = memchr(c->buf, '\n', head); line && line < end;
         line = memchr(line + 1, '\n', (size_t)(end - line))) {
        if (strncasecmp(line + 1, "Content-Length:", 15) != 0)
            continue;
        size_t body = strtoul(line + 16, NULL, 10);
        return c->len >= head + body ? (long)(head + body) : 0;
    }
    return -1;
}

static void record(struct worker *w, uint64_t due, uint64_t done)
{
    if (due < w->record_from)
        return;
    if (w->nlat == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 65536;
        w->lat = realloc(w->lat, w->cap * sizeof *w->lat);
        if (!w->lat)
            die("out of memory");
    }
    w->lat[w->nlat++] = done - due;
}

/* Reads what the connection has; true when an answer completed. */
static bool conn_read(struct worker *w, struct conn *c)
{
    bool done = false;
    for (;;) {
        if (c->len == c->cap) {
            c->cap *= 2;
            c->buf = realloc(c->buf, c->cap);
            if (!c->buf)
                die("out of memory");
        }
        ssize_t n = gnutls_record_recv(c->tls, c->buf + c->len, c->cap - c->len);
        if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED)
            return done;
        if (n <= 0 || !c->busy) {
            conn_fail(w, c);
            return false;
        }
        c->len += (size_t)n;
        int status = 0;
        long len = answer_length(c, &status);
        if (len < 0) {
            conn_fail(w, c);
            return false;
        }
        if (len == 0)
            continue;
        record(w, c->due, now_ns());
        if (c->due >= w->record_from && (status < 200 || status > 299))
            w->non2xx++;
        memmove(c->buf, c->buf + len, c->len - (size_t)len);
        c->len -= (size_t)len;
        c->busy = false;
        done = true;
    }
}

static struct conn *idle_conn(struct worker *w, int *next)
{
    for (int i = 0; i < w->nconns; i++) {
        struct conn *c = &w->conns[(*next + i) % w->nconns];
        if (!c->busy && !c->dead) {
            *next = (*next + i + 1) % w->nconns;
            return c;
        }
    }
    return NULL;
}

/* Sets the timer to `at` unless it is set there already (*armed): one
 * system call less per answer, CPU the server under test may use. */
static void arm(int tfd, uint64_t at, uint64_t *armed)
{
    if (at == *armed)
        return;
    *armed = at;
    struct itimerspec t = {
        .it_value = {.tv_sec = (time_t)(at / 1000000000u), .tv_nsec = (long)(at % 1000000000u)}};
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &t, NULL);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (ep < 0 || tfd < 0)
        die("cannot create the event loop");
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
    for (int i = 0; i < w->nconns; i++) {
        ev.data.ptr = &w->conns[i];
        epoll_ctl(ep, EPOLL_CTL_ADD, w->conns[i].fd, &ev);
    }
    uint64_t sent = 0; /* requests handed to a connection so far */
    uint64_t armed = 0;
    int next = 0;
    for (;;) {
        uint64_t now = now_ns();
        struct conn *c;
        while (sent < w->total && w->t0 + sent * w->interval <= now && (c = idle_conn(w, &next))) {
            send_request(w, c, w->t0 + sent * w->interval);
            sent++;
        }
        int busy = 0, alive = 0;
        for (int i = 0; i < w->nconns; i++) {
            busy += w->conns[i].busy;
            alive += !w->conns[i].dead;
        }
        if (!alive || now >= w->end + GRACE_S * 1000000000ull || (sent == w->total && !busy))
            break;
        if (sent < w->total && busy < alive)
            arm(tfd, w->t0 + sent * w->interval, &armed);
        else
            arm(tfd, w->end + GRACE_S * 1000000000ull, &armed);
        struct epoll_event evs[64];
        int n = epoll_wait(ep, evs, 64, -1);
        for (int i = 0; i < n; i++) {
            if (!evs[i].data.ptr) {
                uint64_t ticks;
                if (read(tfd, &ticks, sizeof ticks) < 0 && errno != EAGAIN)
                    die("timer");
                continue;
            }
            c = evs[i].data.ptr;
            if (!c->dead)
                conn_read(w, c);
        }
    }
    for (int i = 0; i < w->nconns; i++) {
        struct conn *k = &w->conns[i];
        if (k->busy && k->due >= w->record_from)
            w->unfinished++;
    }
    /* requests due but never sent (every connection busy or dead) */
    for (uint64_t k = sent; k < w->total; k++)
        if (w->t0 + k * w->interval >= w->record_from)
            w->unfinished++;
    close(tfd);
    close(ep);
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest latency with at least p of the samples at or below it. */
static double pct_ms(const uint64_t *v, size_t n, double p)
{
    if (n == 0)
        return 0;
    size_t rank = (size_t)(p * (double)n + 0.999999);
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return (double)v[rank - 1] / 1e6;
}

/* https://HOST:PORT/PATH, HOST a name or an IPv4 address */
static void parse_url(char *url)
{
    if (strncmp(url, "https://", 8) != 0)
        die("the URL must start with https://");
    host = url + 8;
    char *slash = strchr(host, '/');
    if (snprintf(path, sizeof path, "%s", slash ? slash : "/") >= (int)sizeof path)
        die("the URL is too long");
    if (slash)
        *slash = '\0';
    char *colon = strrchr(host, ':');
    port = "443";
    if (colon) {
        *colon = '\0';
        port = colon + 1;
    }
    int n = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s:%s\r\n\r\n", path, host, port);
    if (n < 0 || (size_t)n >= sizeof request)
        die("the URL is too long");
    request_len = (size_t)n;
}

static void usage(void)
{
    die("usage: bench-rate -r RATE [-c CONNECTIONS] [-t THREADS] [-d SECONDS] [-w WARMUP_SECONDS] "
        "https://HOST:PORT/PATH");
}

int main(int argc, char **argv)
{
    double rate = 0, secs = 10, warm = 1;
    int nconns = 32, nthreads = 1, opt;
    while ((opt = getopt(argc, argv, "r:c:t:d:w:")) != -1) {
        switch (opt) {
        case 'r': rate = atof(optarg); break;
        case 'c': nconns = atoi(optarg); break;
        case 't': nthreads = atoi(optarg); break;
        case 'd': secs = atof(optarg); break;
        case 'w': warm = atof(optarg); break;
        default: usage();
        }
    }
    if (optind != argc - 1 || rate <= 0 || secs <= 0 || warm < 0 || nthreads < 1 || nconns < nthreads)
        usage();
    parse_url(argv[optind]);
    if (gnutls_global_init() != 0 || gnutls_certificate_allocate_credentials(&creds) != 0)
        die("cannot initialise GnuTLS");

    struct worker *ws = calloc((size_t)nthreads, sizeof *ws);
    struct conn *conns = calloc((size_t)nconns, sizeof *conns);
    if (!ws || !conns)
        die("out of memory");
    for (int i = 0; i < nconns; i++)
        conn_open(&conns[i]);
    uint64_t interval = (uint64_t)(1e9 * nthreads / rate);
    uint64_t start = now_ns() + 10000000u;
    for (int t = 0, first = 0; t < nthreads; t++) {
        struct worker *w = &ws[t];
        w->conns = conns + first;
        w->nconns = nconns / nthreads + (t < nconns % nthreads);
        first += w->nconns;
        w->interval = interval;
        w->t0 = start + (uint64_t)t * interval / (uint64_t)nthreads; /* the threads' requests interleave */
        w->record_from = start + (uint64_t)(warm * 1e9);
        w->end = start + (uint64_t)((warm + secs) * 1e9);
        w->total = (w->end - w->t0 + interval - 1) / interval;
        if (pthread_create(&w->thread, NULL, work, w) != 0)
            die("cannot start a thread");
    }
    size_t n = 0;
    uint64_t non2xx = 0, errors = 0, unfinished = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(ws[t].thread, NULL);
        n += ws[t].nlat;
        non2xx += ws[t].non2xx;
        errors += ws[t].errors;
        unfinished += ws[t].unfinished;
    }
    uint64_t *all = malloc((n ? n : 1) * sizeof *all);
    if (!all)
        die("out of memory");
    for (int t = 0, at = 0; t < nthreads; t++) {
        memcpy(all + at, ws[t].lat, ws[t].nlat * sizeof *all);
        at += (int)ws[t].nlat;
        free(ws[t].lat);
    }
    qsort(all, n, sizeof *all, cmp_u64);
    printf("%.0f %.0f %.3f %.3f %.3f %.3f %.3f %llu %llu %llu\n", rate, (double)n / secs,
           pct_ms(all, n, 0.50), pct_ms(all, n, 0.90), pct_ms(all, n, 0.99), pct_ms(all, n, 0.999),
           n ? (double)all[n - 1] / 1e6 : 0, (unsigned long long)non2xx, (unsigned long long)unfinished,
           (unsigned long long)errors);
    for (int i = 0; i < nconns; i++) {
        if (!conns[i].dead)
            close(conns[i].fd);
        gnutls_deinit(conns[i].tls);
        free(conns[i].buf);
    }
    free(all);
    free(conns);
    free(ws);
    gnutls_certificate_free_credentials(creds);
    gnutls_global_deinit();
    return 0; /* the counts say what went wrong; a benchmark asserts nothing */
}
