/* tls_conn.c — see tls_conn.h. */
#include "server/tls_conn.h"

#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/req.h"
#include "server/tcp_push.h"

/* What a refused client may still send before the connection is cut. */
enum { LINGER_MAX_BYTES = 1 << 20 };

struct tls_conn {
    const struct head_limits *limits;
    struct head_guard guard;
    struct tls_coalesce coalesce;
    int fd;
    bool log;
    bool refused;
    size_t dropped;
};

typedef struct tls_conn *tls_conn_finder(gnutls_session_t session);
static tls_conn_finder *_Atomic finder;

void tls_conn_find_with(tls_conn_finder *find)
{
    atomic_store(&finder, find);
}

struct tls_conn *tls_conn_of(gnutls_session_t session)
{
    tls_conn_finder *find = atomic_load_explicit(&finder, memory_order_relaxed);
    return find ? find(session) : NULL;
}

struct tls_conn *tls_conn_attach(int fd, const struct head_limits *limits, bool log)
{
    struct tls_conn *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->limits = limits;
    head_guard_init(&c->guard);
    tls_coalesce_expect(&c->coalesce, NULL, 0);
    c->fd = fd;
    tcp_push_attach(fd);
    c->log = log;
    c->refused = false;
    c->dropped = 0;
    return c;
}

void tls_conn_free(struct tls_conn *c)
{
    if (c)
        tcp_push_detach(c->fd);
    free(c);
}

/* The envelope error for a verdict, as reply_error writes it. */
static void refusal_reply(const struct tls_conn *c, enum head_verdict v, struct req *r)
{
    const struct head_limits *l = c->limits;
    switch (v) {
    case HEAD_URI_TOO_LONG: /* as on_uri says it (http.c) */
        reply_error(r, E_URI_TOO_LONG, "the request URI is longer than %zu bytes", l->max_uri_bytes);
        break;
    case HEAD_TOO_LARGE:
        reply_error(r, E_HEADERS_TOO_LARGE, "the request head is larger than %zu bytes (cookies count twice)",
                    l->max_head_bytes);
        break;
    case HEAD_TOO_MANY_FIELDS:
        reply_error(r, E_HEADERS_TOO_LARGE, "more than %u header fields and cookies", l->max_fields);
        break;
    case HEAD_OK: break;
    }
}

/* Answers the refused head and closes the write side. Nothing of this
 * request has been answered yet (libmicrohttpd answers only complete
 * heads), so these are the next bytes the client reads. */
static void refuse(struct tls_conn *c, gnutls_session_t session, enum head_verdict v)
{
    struct req r;
    memset(&r, 0, sizeof r);
    refusal_reply(c, v, &r);
    if (!r.reply_body)
        return;
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                     r.status, MHD_get_reason_phrase_for((unsigned)r.status), r.reply_len);
    /* one record; a socket that cannot take ~300 bytes gets no answer */
    size_t len = (size_t)n + r.reply_len;
    char *msg = malloc(len);
    if (msg) {
        memcpy(msg, head, (size_t)n);
        memcpy(msg + n, r.reply_body, r.reply_len);
        gnutls_record_send(session, msg, len);
        free(msg);
    }
    gnutls_bye(session, GNUTLS_SHUT_WR);
    shutdown(c->fd, SHUT_WR);
    if (c->log)
        fprintf(stderr, "- (request head) %d %ld\n", r.status, r.code);
    free(r.reply_body);
}

/* After a refusal: reads and drops until the client closes, the socket is
 * empty (libmicrohttpd waits for more), or too much came. */
static ssize_t drop_rest(struct tls_conn *c, gnutls_session_t session, tls_recv_fn real)
{
    char scratch[4096];
    for (;;) {
        ssize_t n = real(session, scratch, sizeof scratch);
        if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED)
            return n;
        if (n <= 0 || (c->dropped += (size_t)n) > LINGER_MAX_BYTES)
            return 0; /* the end of the stream, for libmicrohttpd: it closes quietly */
    }
}

ssize_t tls_conn_recv(struct tls_conn *c, gnutls_session_t session, void *data, size_t size, tls_recv_fn real)
{
    if (c->refused)
        return drop_rest(c, session, real);
    ssize_t n = real(session, data, size);
    if (n <= 0)
        return n;
    enum head_verdict v = head_guard_feed(&c->guard, c->limits, data, (size_t)n);
    if (v == HEAD_OK)
        return n;
    c->refused = true;
    refuse(c, session, v);
    return drop_rest(c, session, real);
}

void tls_conn_expect_body(struct tls_conn *c, const char *body, size_t len)
{
    tls_coalesce_expect(&c->coalesce, body, len);
}

ssize_t tls_conn_send(struct tls_conn *c, gnutls_session_t session, const void *data, size_t size,
                      tls_send_fn real)
{
    return tls_coalesce_send(&c->coalesce, session, data, size, real);
}
