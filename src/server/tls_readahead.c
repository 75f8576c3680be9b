/* tls_readahead.c — see tls_readahead.h. */
#include "server/tls_readahead.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* One request with its headers fits: API requests are a few hundred bytes.
 * Larger reads (body records) go straight to GnuTLS's buffer. */
enum { READAHEAD_BYTES = 4096 };

struct tls_readahead {
    int fd;
    size_t pos, len; /* unread bytes are buf[pos, len) */
    unsigned char buf[READAHEAD_BYTES];
};

static ssize_t pull(gnutls_transport_ptr_t ptr, void *data, size_t size)
{
    struct tls_readahead *ra = ptr;
    if (ra->pos == ra->len) {
        if (size >= sizeof ra->buf) /* as much as we would buffer: no copy */
            return recv(ra->fd, data, size, 0);
        ssize_t n = recv(ra->fd, ra->buf, sizeof ra->buf, 0);
        if (n <= 0)
            return n; /* 0: end of stream; -1: errno (EAGAIN…) is what GnuTLS reads */
        ra->pos = 0;
        ra->len = (size_t)n;
    }
    size_t n = ra->len - ra->pos < size ? ra->len - ra->pos : size;
    memcpy(data, ra->buf + ra->pos, n);
    ra->pos += n;
    return (ssize_t)n;
}

/* GnuTLS asks this only when it may wait (never on libmicrohttpd's
 * non-blocking sessions); it must agree with pull about held bytes. */
static int pull_timeout(gnutls_transport_ptr_t ptr, unsigned int ms)
{
    struct tls_readahead *ra = ptr;
    if (ra->pos < ra->len)
        return 1;
    struct pollfd p = {.fd = ra->fd, .events = POLLIN};
    int rc = poll(&p, 1, ms == GNUTLS_INDEFINITE_TIMEOUT ? -1 : (int)ms);
    return rc < 0 ? -1 : rc;
}

struct tls_readahead *tls_readahead_attach(gnutls_session_t session, int fd)
{
    struct tls_readahead *ra = malloc(sizeof *ra);
    if (!ra)
        return NULL;
    ra->fd = fd;
    ra->pos = ra->len = 0;
    /* The send side keeps GnuTLS's own push function on the socket. */
    gnutls_transport_set_ptr2(session, ra, (gnutls_transport_ptr_t)(long)fd);
    gnutls_transport_set_pull_function(session, pull);
    gnutls_transport_set_pull_timeout_function(session, pull_timeout);
    return ra;
}

void tls_readahead_free(struct tls_readahead *ra)
{
    free(ra);
}
