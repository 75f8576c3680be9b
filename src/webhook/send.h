/* send.h — one round of webhook attempts over HTTPS (libcurl multi): every
 * claimed delivery is sent at once, signed, each with its own time limit,
 * and each outcome is filled in. The multi handle outlives the round: its
 * connection cache keeps receivers' TLS connections open for the next
 * rounds (a handshake, and loading the trusted certificates, costs far more
 * CPU than a delivery). */
#ifndef PARAPET_WEBHOOK_SEND_H
#define PARAPET_WEBHOOK_SEND_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/webhooks.h"
#include "webhook/settings.h"

struct webhook_outcome {
    int64_t at_ms, duration_ms;
    int status;                               /* HTTP status, 0 when none came */
    char error[256];                          /* "" when the exchange completed */
    char response[WEBHOOK_RESPONSE_KEPT + 1]; /* the start of the body, printable ASCII */
};

/* The body of a delivery: {"id","type","created_at","customer_id","data"}
 * from a claimed row (store_ops.webhook_claim); malloc'd text. */
char *webhook_body(const json_t *row);

/* The connections kept between rounds (a libcurl multi handle), or NULL. */
void *webhook_sender_new(void);
void webhook_sender_free(void *sender);

/* Sends the n claimed rows over `sender`'s connections; out[i] gets row i's
 * outcome. Returns early (outcomes of unfinished ones say "stopped") when
 * *stop becomes true. */
void webhook_send_round(void *sender, const struct webhook_settings *w, json_t *rows,
                        struct webhook_outcome *out, const atomic_bool *stop);

#endif
