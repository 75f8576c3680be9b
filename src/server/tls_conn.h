/* tls_conn.h — what the server keeps per TLS connection: the head guard
 * (head_guard.h), with the refusal the guard's verdict leads to, and the
 * joining of a reply's head and body into one record (tls_coalesce.h).
 * GnuTLS reads the socket itself: bytes read ahead of libmicrohttpd would
 * wait unseen by its poll loop (docs/decisions.md).
 *
 * The guard must see a request's bytes before libmicrohttpd stores them,
 * and the only place both TLS and plaintext meet is gnutls_record_recv,
 * which libmicrohttpd calls for every read (and gnutls_record_send for
 * every write). The parapet program defines both functions
 * (server/tls_hooks.c): libmicrohttpd's calls land there and come here with
 * GnuTLS's own function to read or write with. */
#ifndef PARAPET_TLS_CONN_H
#define PARAPET_TLS_CONN_H

#include <gnutls/gnutls.h>
#include <stdbool.h>
#include <sys/types.h>

#include "server/head_guard.h"
#include "server/tls_coalesce.h"

struct tls_conn;

typedef ssize_t (*tls_recv_fn)(gnutls_session_t session, void *data, size_t size);

/* The context of a TLS session of the running server, or NULL for any
 * other session. The server says how to find it (tls_conn_find_with, when it
 * starts guarding) and the hooks ask (tls_conn_of), so that the server and
 * the hooks do not call each other. */
void tls_conn_find_with(struct tls_conn *(*find)(gnutls_session_t session));
struct tls_conn *tls_conn_of(gnutls_session_t session);

/* Sets up the context of a connection on socket fd; NULL when out of
 * memory (the session then reads as GnuTLS would, unguarded).
 * limits must outlive the connection; log: one line per refusal. */
struct tls_conn *tls_conn_attach(int fd, const struct head_limits *limits, bool log);
void tls_conn_free(struct tls_conn *c);

/* A read for libmicrohttpd: bytes read by `real`, once the guard has seen
 * them. A head that breaks a limit is answered here with an envelope error
 * and a closed write side; what the client still sends is read and dropped
 * (so that its TCP stack does not reset the answer away), and the read
 * reports the end of the stream once the client closes. */
ssize_t tls_conn_recv(struct tls_conn *c, gnutls_session_t session, void *data, size_t size, tls_recv_fn real);

/* The body of the reply libmicrohttpd sends next on this connection, to go
 * out in one record with its head (NULL, 0: none); see tls_coalesce.h for
 * which bodies may be announced. */
void tls_conn_expect_body(struct tls_conn *c, const char *body, size_t len);
/* A write for libmicrohttpd, through `real`. */
ssize_t tls_conn_send(struct tls_conn *c, gnutls_session_t session, const void *data, size_t size,
                      tls_send_fn real);

#endif
