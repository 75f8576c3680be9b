/* receiver.h — a webhook receiver for the tests: an HTTPS server on
 * loopback (libmicrohttpd with the fixture's certificate) that keeps every
 * POST it gets (path, the X-Parapet-* headers, body, the status it
 * answered). A path starting "/flaky" answers 500 to its first
 * `flaky_failures` requests, then 200; every other path answers 200. */
#ifndef PARAPET_TEST_RECEIVER_H
#define PARAPET_TEST_RECEIVER_H

#include <stddef.h>

enum { RECEIVED_MAX = 256 };

struct received {
    char path[64];
    char event[64], delivery[32], signature[128];
    char *body;
    int status; /* what the receiver answered */
};

/* Starts it on a free port (returned), or -1. */
int receiver_start(const char *cert_file, const char *key_file, int flaky_failures);
void receiver_stop(void);
/* A copy of what was received so far, in arrival order; *n of them. The
 * bodies stay owned by the receiver. */
size_t receiver_snapshot(struct received *out, size_t max);
/* How many connections it accepted so far. */
size_t receiver_connections(void);

#endif
