/* tls_coalesce.h — a reply's head and body in one TLS record.
 *
 * libmicrohttpd 0.9.75 hands a reply to GnuTLS in two calls of
 * gnutls_record_send, the head from its connection buffer and then the body
 * from the response's own buffer (over TLS it never gathers the two, as it
 * does with sendmsg for plain sockets), so a small reply costs two records
 * (two encryptions, 2 x 22-29 bytes of record overhead) and two sendmsg
 * calls. Here the HTTP layer announces the body the next reply carries (a
 * pointer into the response, which libmicrohttpd sends from in place);
 * when the head comes, head and body go to GnuTLS as one record, and the
 * body's own call is then answered as sent without sending anything.
 *
 * Only bodies that libmicrohttpd will send may be announced: not for HEAD,
 * nor for 1xx, 204 or 304 answers (server/http.c decides). Joined sends are
 * at most TLS_COALESCE_MAX bytes; anything else passes through unchanged.
 * Partial sends (a client that limited the record size) and
 * GNUTLS_E_AGAIN are accounted so that libmicrohttpd sees exactly the
 * bytes of its own calls that went out. */
#ifndef PARAPET_TLS_COALESCE_H
#define PARAPET_TLS_COALESCE_H

#include <gnutls/gnutls.h>
#include <stddef.h>
#include <sys/types.h>

enum { TLS_COALESCE_MAX = 16384 }; /* a TLS record's largest plaintext */

typedef ssize_t (*tls_send_fn)(gnutls_session_t session, const void *data, size_t size);

struct tls_coalesce {
    const char *body; /* the announced body, NULL: none */
    size_t body_len;
    size_t body_ahead; /* bytes of it that went out with the head */
};

/* Announces the body the connection's next reply sends (NULL, 0: none,
 * and forgets an announcement not used); one of TLS_COALESCE_MAX bytes or
 * more is not joined. */
void tls_coalesce_expect(struct tls_coalesce *c, const char *body, size_t len);

/* A send for libmicrohttpd through `real` (GnuTLS's own function). */
ssize_t tls_coalesce_send(struct tls_coalesce *c, gnutls_session_t session, const void *data, size_t size,
                          tls_send_fn real);

#endif
