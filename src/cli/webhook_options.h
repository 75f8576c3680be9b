/* webhook_options.h — the webhook delivery options of `parapet serve`
 * (webhook/worker.h), and the settings they make. */
#ifndef PARAPET_CLI_WEBHOOK_OPTIONS_H
#define PARAPET_CLI_WEBHOOK_OPTIONS_H

#include <jansson.h>
#include <stdbool.h>

/* Entries of a `struct opt` table (args.h). */
#define WEBHOOK_OPTS                                                                                         \
    {.name = "no-webhooks", .flag = true}, {.name = "webhook-ca"}, {.name = "webhook-allow", .repeatable = true}, \
        {.name = "webhook-timeout"}, {.name = "webhook-retry-base"}, {.name = "webhook-retry-max"},           \
        {.name = "webhook-retry-for"}, {.name = "webhook-days"}

#define WEBHOOK_USAGE                                                                                        \
    "  --no-webhooks              no webhook delivery worker on this node (another node sends them)\n"     \
    "  --webhook-ca PEM           certificates webhook receivers are checked against (default: the system's)\n" \
    "  --webhook-allow CIDR       let webhooks reach this private/loopback block (repeatable; labs, tests)\n" \
    "  --webhook-timeout MS       time limit of one delivery attempt (10000)\n"                             \
    "  --webhook-retry-base MS    wait after the first failed attempt; doubles each time (30000)\n"        \
    "  --webhook-retry-max MS     longest wait between attempts (3600000)\n"                                \
    "  --webhook-retry-for S      give a delivery up this long after it was due (86400)\n"                 \
    "  --webhook-days D           keep finished deliveries and their attempts D days (30)\n"

/* Configures webhook/worker.h from the parsed options; *off when
 * --no-webhooks. Returns 0, or -1 after a message on stderr. */
int webhook_options_configure(json_t *args, bool *off);

#endif
