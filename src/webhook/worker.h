/* worker.h — the webhook delivery worker of `parapet serve`: a thread with
 * its own store connection that takes due deliveries from the store (the
 * outbox the triggers of 009_webhooks.sql fill in the writes' own
 * transactions), sends them signed over HTTPS with libcurl (a batch at a
 * time, concurrently), and records every attempt and the delivery's next
 * state (delivered; pending again after a backoff; failed after a day). A
 * request never waits for a delivery. Several nodes may each run one: a
 * claimed delivery is leased to its node for the attempt. */
#ifndef PARAPET_WEBHOOK_WORKER_H
#define PARAPET_WEBHOOK_WORKER_H

#include "store/store.h"
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

/* The settings in force (the handlers check URLs against its policy). */
const struct webhook_settings *webhook_settings(void);
/* Sets them (before the worker starts); copied. */
void webhook_configure(const struct webhook_settings *w);

/* Starts the worker; -1 on failure. */
int webhook_worker_start(const struct store_config *cfg);
/* Makes it look at the outbox now (after a commit that queued a delivery). */
void webhook_worker_wake(void);
/* Stops it (in-flight attempts are abandoned: their leases run out and they are tried again). */
void webhook_worker_stop(void);

#endif
