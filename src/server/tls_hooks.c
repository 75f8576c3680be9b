/* recv_hook.c — libmicrohttpd reads every TLS connection through
 * gnutls_record_recv. This definition, in the parapet program itself, comes
 * first in the dynamic linker's symbol lookup, so those calls land here;
 * GnuTLS's own function is the next definition (RTLD_NEXT). Reads of a
 * connection the server guards go through tls_conn_recv (tls_conn.h).
 *
 * Linked into the program only, not into libparapet.a: the test programs
 * are TLS clients and read through GnuTLS directly. */
#include <dlfcn.h>
#include <gnutls/gnutls.h>
#include <pthread.h>

#include "server/http.h"
#include "server/tls_conn.h"

static tls_recv_fn gnutls_own;

static void find_gnutls_own(void)
{
    gnutls_own = (tls_recv_fn)dlsym(RTLD_NEXT, "gnutls_record_recv");
}

ssize_t gnutls_record_recv(gnutls_session_t session, void *data, size_t size)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_gnutls_own);
    if (!gnutls_own)
        return GNUTLS_E_INTERNAL_ERROR;
    struct tls_conn *c = http_tls_conn_of(session);
    return c ? tls_conn_recv(c, session, data, size, gnutls_own) : gnutls_own(session, data, size);
}
