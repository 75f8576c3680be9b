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
#include "webhook/settings.h"

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
