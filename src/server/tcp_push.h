/* tcp_push.h — TCP_CORK and TCP_NODELAY on the server's TLS connections.
 * libmicrohttpd corks a connection before each reply and sets TCP_NODELAY
 * after it, to push out what the cork held: one setsockopt call per reply
 * (two on a connection's first), ~1.5 us each in the kernel, some 7% of a
 * small cached GET. A parapet reply already leaves as one TLS record per
 * send (tls_coalesce.h), so there is nothing to cork: a guarded connection
 * gets TCP_NODELAY once, when it is set up, and its cork requests and
 * repeated TCP_NODELAY=1 are answered without a system call. The parapet
 * program defines setsockopt (server/tls_hooks.c) and asks here first. */
#ifndef PARAPET_TCP_PUSH_H
#define PARAPET_TCP_PUSH_H

#include <stdbool.h>
#include <sys/socket.h>

/* A TLS connection's socket from its set-up to its end (tls_conn.h). */
void tcp_push_attach(int fd);
void tcp_push_detach(int fd);
/* Whether a setsockopt call may be answered 0 without the system call;
 * keeps track of TCP_NODELAY for the calls it lets through. */
bool tcp_push_skip(int fd, int level, int name, const void *value, socklen_t len);

#endif
