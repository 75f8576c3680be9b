/* rawconn.c — see rawconn.h. */
#include "http/rawconn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int tcp_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {
        .sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Has the peer not closed this connection (nothing to read yet)? */
bool still_open(int fd)
{
    char byte;
    return fd >= 0 && recv(fd, &byte, 1, MSG_DONTWAIT | MSG_PEEK) < 0 && errno == EAGAIN;
}

/* A client session with the given priorities on a new connection to port
 * (blocking, with a 5 s receive timeout so that a missing answer fails
 * instead of hanging); NULL if the handshake fails. */
gnutls_session_t tls_client(int port, const char *prio, gnutls_certificate_credentials_t cred)
{
    int fd = tcp_connect(port);
    if (fd < 0)
        return NULL;
    struct timeval tv = {.tv_sec = 5};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    gnutls_session_t s;
    gnutls_init(&s, GNUTLS_CLIENT);
    gnutls_priority_set_direct(s, prio, NULL);
    gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, cred);
    gnutls_transport_set_int(s, fd);
    gnutls_handshake_set_timeout(s, 5000);
    int rc;
    do {
        rc = gnutls_handshake(s);
    } while (rc < 0 && !gnutls_error_is_fatal(rc));
    if (rc != 0) {
        gnutls_deinit(s);
        close(fd);
        return NULL;
    }
    return s;
}

void tls_client_close(gnutls_session_t s)
{
    int fd = gnutls_transport_get_int(s);
    gnutls_deinit(s);
    close(fd);
}

/* Sends `text` on a new TLS connection and reads until the server closes or
 * `wait_ms` pass without data; the answer goes to buf (NUL-terminated).
 * Returns the bytes read, or -1 if no connection. *ms gets the time taken. */
int tls_exchange(int port, const char *text, size_t len, char *buf, size_t size, int wait_ms, double *ms)
{
    gnutls_certificate_credentials_t cred;
    gnutls_certificate_allocate_credentials(&cred);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gnutls_session_t s = tls_client(port, "NORMAL", cred);
    size_t got = 0;
    if (s) {
        int fd = gnutls_transport_get_int(s);
        struct timeval tv = {.tv_sec = wait_ms / 1000, .tv_usec = (wait_ms % 1000) * 1000};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        for (size_t off = 0; off < len;) {
            ssize_t n = gnutls_record_send(s, text + off, len - off > 8192 ? 8192 : len - off);
            if (n <= 0)
                break;
            off += (size_t)n;
        }
        while (got < size - 1) {
            ssize_t n = gnutls_record_recv(s, buf + got, size - 1 - got);
            if (n == GNUTLS_E_INTERRUPTED)
                continue;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        tls_client_close(s);
    }
    buf[got] = '\0';
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    gnutls_certificate_free_credentials(cred);
    return s ? (int)got : -1;
}
