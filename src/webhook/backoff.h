/* backoff.h — when a failed webhook delivery is tried again: exponential
 * backoff from `base_ms` (doubling, at most `cap_ms` apart), for
 * `give_up_ms` after the delivery was first due; then it is failed (and can
 * be replayed). Defaults: 30 s doubling to at most 1 h, for 24 h: tries at
 * 0, 30 s, 1.5, 3.5, 7.5, 15.5, 31.5 min, 1.05, 2.05, 3.05 h, ... every
 * hour until 24 h have passed (about 30 attempts). */
#ifndef PARAPET_WEBHOOK_BACKOFF_H
#define PARAPET_WEBHOOK_BACKOFF_H

#include <stdint.h>

struct webhook_backoff {
    int64_t base_ms, cap_ms, give_up_ms;
};

#define WEBHOOK_BACKOFF_DEFAULT                                                                              \
    {                                                                                                        \
        .base_ms = 30000, .cap_ms = 3600000, .give_up_ms = 86400000                                          \
    }

/* The wait after the n-th failed attempt (n >= 1). */
int64_t webhook_backoff_delay(const struct webhook_backoff *b, int n);
/* When to try again after the n-th failed attempt ending at now_ms, of a
 * delivery first due at first_ms; -1 when it is time to give up. */
int64_t webhook_backoff_next(const struct webhook_backoff *b, int n, int64_t first_ms, int64_t now_ms);

#endif
