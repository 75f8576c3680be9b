/* settings.h — how the webhook worker delivers (the `serve --webhook-*`
 * options): shared by the worker (worker.h) and the sender (send.h). */
#ifndef PARAPET_WEBHOOK_SETTINGS_H
#define PARAPET_WEBHOOK_SETTINGS_H

#include "webhook/backoff.h"
#include "webhook/dest.h"

struct webhook_settings {
    struct webhook_backoff backoff;
    struct webhook_dest_policy dest;
    const char *ca_file; /* certificates to trust (NULL: the system's) */
    long timeout_ms;     /* one attempt, connection included */
    long retention_days; /* finished deliveries are kept this long */
    long batch;          /* deliveries sent together */
    long poll_ms;        /* how often the outbox is looked at when nothing is due */
};

#define WEBHOOK_SETTINGS_DEFAULT                                                                             \
    {                                                                                                        \
        .backoff = WEBHOOK_BACKOFF_DEFAULT, .timeout_ms = 10000, .retention_days = 30, .batch = 16,          \
        .poll_ms = 1000                                                                                      \
    }

#endif
