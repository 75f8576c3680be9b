/* webhook_options.c — see webhook_options.h. */
#include "cli/webhook_options.h"

#include <stdio.h>

#include "cli/args.h"
#include "webhook/worker.h"

int webhook_options_configure(json_t *a, bool *off)
{
    struct webhook_settings w = WEBHOOK_SETTINGS_DEFAULT;
    long base, cap, give_up, timeout, days;
    if (arg_long(a, "webhook-timeout", w.timeout_ms, 100, 600000, &timeout) != 0 ||
        arg_long(a, "webhook-retry-base", (long)w.backoff.base_ms, 10, 86400000L, &base) != 0 ||
        arg_long(a, "webhook-retry-max", (long)w.backoff.cap_ms, 10, 86400000L, &cap) != 0 ||
        arg_long(a, "webhook-retry-for", (long)(w.backoff.give_up_ms / 1000), 1, 30L * 86400, &give_up) !=
            0 ||
        arg_long(a, "webhook-days", w.retention_days, 1, 3650, &days) != 0)
        return -1;
    w.timeout_ms = timeout;
    w.backoff =
        (struct webhook_backoff){.base_ms = base, .cap_ms = cap, .give_up_ms = (int64_t)give_up * 1000};
    w.retention_days = days;
    w.ca_file = arg_str(a, "webhook-ca");
    size_t i;
    json_t *v;
    json_array_foreach (json_object_get(a, "webhook-allow"), i, v) {
        if (w.dest.n_allow == WEBHOOK_ALLOW_MAX ||
            cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &w.dest.allow[w.dest.n_allow]) != 0) {
            fprintf(stderr, "parapet: --webhook-allow must be an address or CIDR block (at most %d)\n",
                    WEBHOOK_ALLOW_MAX);
            return -1;
        }
        w.dest.n_allow++;
    }
    webhook_configure(&w);
    *off = arg_flag(a, "no-webhooks");
    return 0;
}
