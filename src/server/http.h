/* http.h — the HTTP(S) layer: libmicrohttpd with its internal poll thread
 * pool, TLS through GnuTLS, limits, and the adapter that turns each request
 * into a `struct req` for the dispatcher. */
#ifndef PARAPET_HTTP_H
#define PARAPET_HTTP_H

#include <gnutls/gnutls.h>

#include "core/config.h"

struct http_server;

/* Starts serving; cert/key are PEM texts (ignored with plain_http). */
struct http_server *http_start(const struct server_config *cfg, const char *cert_pem, const char *key_pem);
/* Stops accepting new connections; requests in flight go on. */
void http_quiesce(struct http_server *h);
/* Requests received but not yet completed. */
unsigned http_in_flight(struct http_server *h);
void http_stop(struct http_server *h);

/* The default TLS priority string (--tls-priority): TLS 1.2 and 1.3, AEAD
 * ciphers, forward secrecy. */
extern const char http_tls_priorities[];

#endif
