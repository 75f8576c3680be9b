/* abuse.h — the server's abuse limits (ratelimit.h holds the counters):
 *   - each app's request quota (--rate-limit per --rate-window): every
 *     request made with one of its access tokens, and every token request
 *     with its valid credentials; over it, 429 with Retry-After. Once half
 *     the quota of a window is spent, answers carry RateLimit-Policy and
 *     RateLimit (IETF httpapi ratelimit-headers).
 *   - failed attempts on the token endpoints (a 401, or a 403 for an
 *     installation that does not match): after --auth-failures of them for
 *     one app from one source address (four times as many from one address
 *     for any apps), further attempts are refused with 429 and Retry-After
 *     for 1 s, 2 s, 4 s, ... up to --auth-block-max, before any secret is
 *     checked. A success forgives the app's failures from that address. */
#ifndef PARAPET_ABUSE_H
#define PARAPET_ABUSE_H

#include "core/req.h"

int abuse_init(void);
void abuse_shutdown(void);

/* Counts a request against the app's quota. 0, or -1 after replying 429. */
int abuse_app_request(struct req *r, const char *app_id);

/* Token endpoints, before the handler (the app_id field is checked).
 * 0, or -1 after replying 429. */
int abuse_guard_check(struct req *r);
/* Token endpoints, after the handler: counts a failure or forgives. */
void abuse_guard_record(struct req *r);

#endif
