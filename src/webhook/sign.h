/* sign.h — the signature of a webhook delivery (docs/decisions.md,
 * "Webhooks"): the header
 *
 *   X-Parapet-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
 *
 * A receiver recomputes v1 over the timestamp, a dot and the raw body with
 * the endpoint's secret, compares in constant time, and refuses timestamps
 * far from its clock (replays). */
#ifndef PARAPET_WEBHOOK_SIGN_H
#define PARAPET_WEBHOOK_SIGN_H

#include <stddef.h>
#include <stdint.h>

#define WEBHOOK_SIGNATURE_HEADER "X-Parapet-Signature"

enum { WEBHOOK_SIGNATURE_MAX = 96 }; /* "t=" 20 digits ",v1=" 64 hex, NUL */

/* The header's value for body[len] sent at unix time t: 0, or -1 (HMAC failed). */
int webhook_sign(const char *secret, int64_t t, const char *body, size_t len,
                 char out[WEBHOOK_SIGNATURE_MAX]);

#endif
