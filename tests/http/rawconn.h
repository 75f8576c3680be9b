/* rawconn.h — connections below libcurl, for tests that need to send
 * exactly what they want (oversized or malformed heads, pipelining) or see
 * exactly when the server answers or closes. */
#ifndef PARAPET_TEST_RAWCONN_H
#define PARAPET_TEST_RAWCONN_H

#include <gnutls/gnutls.h>
#include <stdbool.h>
#include <stddef.h>

/* A TCP connection to 127.0.0.1:port, or -1. */
int tcp_connect(int port);
/* Has the peer not closed this connection (nothing to read yet)? */
bool still_open(int fd);
/* A client session with the given priorities on a new connection to port
 * (blocking, 5 s receive timeout); NULL if the handshake fails. */
gnutls_session_t tls_client(int port, const char *prio, gnutls_certificate_credentials_t cred);
void tls_client_close(gnutls_session_t s);
/* Sends text on a new TLS connection, reads the answer until the server
 * closes or wait_ms pass without data. Returns bytes read or -1; *ms is the
 * time it took. */
int tls_exchange(int port, const char *text, size_t len, char *buf, size_t size, int wait_ms, double *ms);

#endif
