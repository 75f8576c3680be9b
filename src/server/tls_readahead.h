/* tls_readahead.h — GnuTLS reads each TLS record with two recv() calls: its
 * 5-byte header, then the rest. Installed as a session's pull function, this
 * takes what the socket holds (up to READAHEAD_BYTES) with one recv() and
 * hands it out from memory: one recv() per small request instead of two.
 *
 * libmicrohttpd waits on edge-triggered epoll and keeps reading a connection
 * until a read says EAGAIN. Bytes held here are like bytes still in the
 * kernel's buffer, and the pull function reports EAGAIN only when it holds
 * none and recv() said EAGAIN, so no request can wait in the buffer unseen. */
#ifndef PARAPET_TLS_READAHEAD_H
#define PARAPET_TLS_READAHEAD_H

#include <gnutls/gnutls.h>

struct tls_readahead;

/* Makes the session read socket fd through a new buffer; NULL (and the
 * session untouched) when out of memory. */
struct tls_readahead *tls_readahead_attach(gnutls_session_t session, int fd);
/* Only once the session is deinitialised. */
void tls_readahead_free(struct tls_readahead *ra);

#endif
