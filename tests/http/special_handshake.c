/* special_handshake.c — a TLS handshake left waiting (a ClientHello, then
 * silence) costs the server nothing while it waits. libmicrohttpd 0.9.75's
 * epoll loop spun on such a connection until its timeout: two of them burnt
 * 3.5 s of CPU in 5 s, a denial of service from two sockets. The server
 * runs libmicrohttpd's poll loop (docs/decisions.md). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "http/harness.h"
#include "http/rawconn.h"
#include "http/special.h"

#define FAIL(...) (check_fail(__func__, __VA_ARGS__), 1)

enum { STALLED = 2, WATCH_S = 3 };

/* The server's CPU time so far, in clock ticks (utime + stime). */
static long cpu_ticks(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    long utime = -1, stime = -1;
    if (fgets(line, sizeof line, f)) {
        char *p = strrchr(line, ')'); /* the command may hold spaces */
        if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &utime, &stime) != 2)
            utime = stime = -1;
    }
    fclose(f);
    return utime < 0 ? -1 : utime + stime;
}

/* A client that sends its ClientHello and then stops reading. */
static gnutls_session_t stall(int port, gnutls_certificate_credentials_t cred)
{
    int fd = tcp_connect(port);
    gnutls_session_t s;
    if (fd < 0 || gnutls_init(&s, GNUTLS_CLIENT | GNUTLS_NONBLOCK) != GNUTLS_E_SUCCESS) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    gnutls_set_default_priority(s);
    gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, cred);
    gnutls_transport_set_int(s, fd);
    int rc = gnutls_handshake(s); /* sends the hello; the answer is left unread */
    if (rc != GNUTLS_E_AGAIN && rc != GNUTLS_E_SUCCESS) {
        gnutls_deinit(s);
        close(fd);
        return NULL;
    }
    return s;
}

int stalled_handshakes(struct fixture *fx)
{
    gnutls_certificate_credentials_t cred;
    if (gnutls_certificate_allocate_credentials(&cred) != GNUTLS_E_SUCCESS)
        return FAIL("no GnuTLS credentials");
    gnutls_session_t s[STALLED] = {0};
    int bad = 0;
    for (int i = 0; i < STALLED && !bad; i++)
        if (!(s[i] = stall(fx->main_port, cred)))
            bad |= FAIL("stalled handshake %d: no connection", i + 1);
    sleep(1); /* the server has read the hellos */
    long before = cpu_ticks(fx->main_pid);
    sleep(WATCH_S);
    long after = cpu_ticks(fx->main_pid), hz = sysconf(_SC_CLK_TCK);
    if (!bad && (before < 0 || after < 0))
        bad |= FAIL("cannot read the server's CPU time");
    /* waiting costs next to nothing (an idle server: well under 0.3 s);
     * the spin took about as much CPU as the time it ran */
    if (!bad && after - before > hz * WATCH_S / 3)
        bad |= FAIL("%d stalled TLS handshakes cost the server %.2f s of CPU in %d s", STALLED,
                    (double)(after - before) / (double)hz, WATCH_S);
    for (int i = 0; i < STALLED; i++)
        if (s[i]) {
            int fd = gnutls_transport_get_int(s[i]);
            gnutls_deinit(s[i]);
            close(fd);
        }
    gnutls_certificate_free_credentials(cred);
    return bad;
}
