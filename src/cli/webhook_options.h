/* webhook_options.h — the webhook delivery options of `parapet serve`
 * (webhook/worker.h), and the settings they make. */
#ifndef PARAPET_CLI_WEBHOOK_OPTIONS_H
#define PARAPET_CLI_WEBHOOK_OPTIONS_H

#include <jansson.h>
#include <stdbool.h>

/* Entries of a `struct opt` table (args.h), with their documentation. */
#define WEBHOOK_OPTS                                                                                         \
    {.name = "no-webhooks", .flag = true,                                                                    \
     .help = "no webhook delivery worker on this node (another node sends them)"},                          \
        {.name = "webhook-ca", .arg = "PEM", .dflt = "the system's",                                         \
         .help = "certificates webhook receivers are checked against"},                                      \
        {.name = "webhook-allow", .repeatable = true, .arg = "CIDR",                                         \
         .help = "let webhooks reach this private/loopback block (repeatable; labs, tests)"},                \
        {.name = "webhook-timeout", .arg = "MS", .dflt = "10000", .help = "time limit of one delivery attempt"}, \
        {.name = "webhook-retry-base", .arg = "MS", .dflt = "30000",                                         \
         .help = "wait after the first failed attempt; doubles each time"},                                  \
        {.name = "webhook-retry-max", .arg = "MS", .dflt = "3600000", .help = "longest wait between attempts"}, \
        {.name = "webhook-retry-for", .arg = "S", .dflt = "86400",                                           \
         .help = "give a delivery up this long after it was due"},                                           \
        {.name = "webhook-days", .arg = "D", .dflt = "30",                                                   \
         .help = "keep finished deliveries and their attempts D days"}

/* Configures webhook/worker.h from the parsed options; *off when
 * --no-webhooks. Returns 0, or -1 after a message on stderr. */
int webhook_options_configure(json_t *args, bool *off);

#endif
