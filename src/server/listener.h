/* listener.h — the listening socket, and a thread that accepts on it and
 * hands each connection to the libmicrohttpd daemon (MHD_add_connection).
 *
 * Why not the daemon's own listening socket: in libmicrohttpd 0.9.75's
 * thread pool every worker polls that one socket and the first to wake
 * accepts a whole burst of connections. Measured under wrk -t2 -c32: all 32
 * keep-alive connections landed on one of the two workers, which then did
 * all the work (the other: 0 CPU ticks), so the server used one core. Added
 * connections are spread over the workers (by descriptor number), and the
 * daemon still applies its connection limits (total, per address) to them.
 *
 * Caveat: microhttpd.h says MHD_USE_NO_LISTEN_SOCKET ignores the thread
 * pool; 0.9.75 (Debian 12) does keep the pool and spreads added connections
 * over it (checked: per-thread CPU under load). Recheck when libmicrohttpd
 * is upgraded. */
#ifndef PARAPET_LISTENER_H
#define PARAPET_LISTENER_H

#include <microhttpd.h>

struct listener;

/* Binds and listens on host:port (an IPv4 or IPv6 address); NULL with a
 * message on stderr on failure. */
struct listener *listener_open(const char *host, int port);
/* Starts accepting for d; while d has max_connections, new connections
 * wait in the kernel's queue. -1 if the thread cannot start. */
int listener_start(struct listener *l, struct MHD_Daemon *d, unsigned max_connections);
/* Stops accepting: new connections fail at once. */
void listener_quiesce(struct listener *l);
/* Quiesces if needed, waits for the thread, closes the socket, frees l. */
void listener_close(struct listener *l);

#endif
