/* tls_hooks.c — libmicrohttpd reads and writes every TLS connection through
 * gnutls_record_recv and gnutls_record_send. These definitions, in the
 * parapet program itself, come first in the dynamic linker's symbol lookup,
 * so those calls land here; GnuTLS's own functions are the next definitions
 * (RTLD_NEXT). Reads of a connection the server guards go through
 * tls_conn_recv, its writes through tls_conn_send (tls_conn.h).
 *
 * setsockopt is defined here too, so that libmicrohttpd's TCP_CORK and
 * TCP_NODELAY calls can be answered without the kernel (tcp_push.h).
 *
 * Linked into the program only, not into libparapet.a: the test programs
 * are TLS clients and read and write through GnuTLS directly. */
#include <dlfcn.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <pthread.h>

#include "server/tcp_push.h"
#include "server/tls_conn.h"

static tls_recv_fn gnutls_own_recv;
static tls_send_fn gnutls_own_send;

static void find_gnutls_own(void)
{
    gnutls_own_recv = (tls_recv_fn)dlsym(RTLD_NEXT, "gnutls_record_recv");
    gnutls_own_send = (tls_send_fn)dlsym(RTLD_NEXT, "gnutls_record_send");
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef int (*setsockopt_fn)(int fd, int level, int name, const void *value, socklen_t len);
static setsockopt_fn libc_setsockopt;

static void find_libc_setsockopt(void)
{
    libc_setsockopt = (setsockopt_fn)dlsym(RTLD_NEXT, "setsockopt");
}

int setsockopt(int fd, int level, int name, const void *value, socklen_t len)
{
    static pthread_once_t found = PTHREAD_ONCE_INIT;
    if (tcp_push_skip(fd, level, name, value, len))
        return 0;
    pthread_once(&found, find_libc_setsockopt);
    if (!libc_setsockopt) {
        errno = ENOSYS;
        return -1;
    }
    return libc_setsockopt(fd, level, name, value, len);
}

ssize_t gnutls_record_recv(gnutls_session_t session, void *data, size_t size)
{
    pthread_once(&once, find_gnutls_own);
    if (!gnutls_own_recv)
        return GNUTLS_E_INTERNAL_ERROR;
    struct tls_conn *c = tls_conn_of(session);
    return c ? tls_conn_recv(c, session, data, size, gnutls_own_recv) : gnutls_own_recv(session, data, size);
}

ssize_t gnutls_record_send(gnutls_session_t session, const void *data, size_t size)
{
    pthread_once(&once, find_gnutls_own);
    if (!gnutls_own_send)
        return GNUTLS_E_INTERNAL_ERROR;
    struct tls_conn *c = tls_conn_of(session);
    return c ? tls_conn_send(c, session, data, size, gnutls_own_send) : gnutls_own_send(session, data, size);
}
