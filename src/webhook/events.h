/* events.h — the webhook event types: names as the API and the bodies spell
 * them, and the bits endpoints store (the same bits as 009_webhooks.sql's
 * triggers write). */
#ifndef PARAPET_WEBHOOK_EVENTS_H
#define PARAPET_WEBHOOK_EVENTS_H

#include <jansson.h>

enum {
    WEBHOOK_EV_DDOS_STARTED = 1,
    WEBHOOK_EV_DDOS_UPDATED = 2,
    WEBHOOK_EV_DDOS_STOPPED = 4,
    WEBHOOK_EV_WAF_EVENT = 8,
    WEBHOOK_EV_DEPLOY_FAILED = 16,
    WEBHOOK_EV_ALL = 31,
};

/* The names, in bit order, NULL-terminated (for ONE_OF in routes.def). */
#define WEBHOOK_EVENT_NAMES                                                                                  \
    "ddos.started", "ddos.updated", "ddos.stopped", "waf.event", "dataplane.deploy_failed"
/* The type of the ping an endpoint's owner sends (no bit: never subscribed). */
#define WEBHOOK_PING "webhook.ping"

/* The bits of an array of type names (names the spec has checked); 0 if none. */
unsigned webhook_events_parse(const json_t *names);
/* The names of bits, in bit order (new array). */
json_t *webhook_events_names(unsigned bits);

#endif
