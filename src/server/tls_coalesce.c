/* tls_coalesce.c — see tls_coalesce.h. */
#include "server/tls_coalesce.h"

#include <stdbool.h>
#include <string.h>

void tls_coalesce_expect(struct tls_coalesce *c, const char *body, size_t len)
{
    bool joinable = body && len > 0 && len < TLS_COALESCE_MAX;
    c->body = joinable ? body : NULL;
    c->body_len = joinable ? len : 0;
    c->body_ahead = 0;
}

/* A final reply's head as libmicrohttpd writes it: the head's last line
 * ends it, and it is no interim "HTTP/1.1 100 Continue" (which libmicrohttpd
 * sends only while no reply is queued, i.e. never while a body is
 * announced; refused here all the same). */
static bool is_head(const char *data, size_t size)
{
    return size >= 12 && memcmp(data + size - 4, "\r\n\r\n", 4) == 0 && memcmp(data, "HTTP/1.1 1", 10) != 0;
}

ssize_t tls_coalesce_send(struct tls_coalesce *c, gnutls_session_t session, const void *data, size_t size,
                          tls_send_fn real)
{
    if (!c->body)
        return real(session, data, size);
    if (data == c->body && c->body_ahead) {
        /* the body's own call: what went out with the head is sent */
        size_t n = c->body_ahead < size ? c->body_ahead : size;
        tls_coalesce_expect(c, NULL, 0);
        return (ssize_t)n;
    }
    if (data == c->body || size > TLS_COALESCE_MAX - c->body_len || !is_head(data, size))
        return real(session, data, size);
    /* The joined bytes are rebuilt on a call repeated after GNUTLS_E_AGAIN;
     * GnuTLS then only flushes the record it made the first time. */
    static __thread char joined[TLS_COALESCE_MAX];
    memcpy(joined, data, size);
    memcpy(joined + size, c->body, c->body_len);
    ssize_t n = real(session, joined, size + c->body_len);
    if (n <= (ssize_t)size)
        return n; /* an error, or (a record size the client limited) part of the head */
    c->body_ahead = (size_t)n - size;
    return (ssize_t)size;
}
