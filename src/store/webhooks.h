/* webhooks.h — what the store keeps for webhooks (009_webhooks.sql,
 * src/webhook/): endpoints, the outbox of events (written by triggers in the
 * transaction of the write they tell of), deliveries and their attempts. */
#ifndef PARAPET_STORE_WEBHOOKS_H
#define PARAPET_STORE_WEBHOOKS_H

#include <stdbool.h>
#include <stdint.h>

enum {
    WEBHOOK_ID_LEN = 16,
    WEBHOOK_URL_MAX = 2048,
    WEBHOOK_SECRET_MAX = 256,
    WEBHOOK_DESC_MAX = 256,
    WEBHOOK_RESPONSE_KEPT = 2048, /* bytes of a response body kept with its attempt */
};

/* One endpoint; the secret is only read by the delivery worker. */
struct webhook {
    char id[WEBHOOK_ID_LEN + 1];
    char customer_id[WEBHOOK_ID_LEN + 1];
    char url[WEBHOOK_URL_MAX + 1];
    char secret[WEBHOOK_SECRET_MAX + 1];
    unsigned events;                            /* WEBHOOK_EV_* bits (webhook/events.h) */
    char description[WEBHOOK_DESC_MAX * 4 + 1]; /* characters, up to 4 bytes each */
    bool enabled;
    int64_t created_at, updated_at;
};

/* A page of an endpoint's deliveries, newest first; state NULL: any. */
struct webhook_delivery_query {
    const char *state;
    long offset, limit;
};

/* What one attempt came to, and what the delivery becomes: state
 * "pending" (tried again at next_at_ms), "delivered" or "failed". */
struct webhook_attempt {
    int64_t delivery_seq;
    int64_t at_ms;
    int64_t duration_ms;
    int status;           /* HTTP status, 0 when none came */
    const char *error;    /* "" when the exchange completed */
    const char *response; /* the start of the response body */
    const char *state;
    int64_t next_at_ms;
};

#endif
