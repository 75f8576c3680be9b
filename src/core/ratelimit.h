/* ratelimit.h — in-memory counters keyed by short byte strings (an app id,
 * an app id and a source address), for two uses: request quotas in fixed
 * windows, and an exponentially growing block after repeated failures.
 * A table has a fixed number of slots (4-way set-associative; when a set is
 * full, the entry seen least recently gives way) and locks of its own per
 * group of sets, so threads touching different keys rarely meet and memory
 * never grows. Times are milliseconds of a monotonic clock, passed in;
 * durations answered are whole seconds, rounded up. */
#ifndef PARAPET_RATELIMIT_H
#define PARAPET_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ratelimit;

/* slots is rounded up to a power of two (at least 64). NULL if out of memory. */
struct ratelimit *ratelimit_new(size_t slots);
void ratelimit_free(struct ratelimit *t);

/* ---- quotas: at most `limit` requests per key in each window of
 * `window_s` seconds (windows start at multiples of window_s) ---- */
struct rl_verdict {
    bool limited;       /* this request is over the quota (it was not counted) */
    unsigned limit;     /* the quota */
    unsigned window_s;  /* its window */
    unsigned remaining; /* requests left in this window after this one */
    unsigned reset_s;   /* seconds until the window ends (>= 1) */
};
void ratelimit_take(struct ratelimit *t, const void *key, size_t len, unsigned limit, unsigned window_s,
                    int64_t now_ms, struct rl_verdict *out);

/* ---- failures: after `free_failures` failures, each further one blocks
 * the key for base_s * 2^(n-1) seconds (n counting the failures beyond the
 * free ones), at most max_s; a key with no failure for max_s seconds starts
 * afresh ---- */
struct rl_backoff {
    unsigned free_failures, base_s, max_s;
};
/* Seconds the key is still blocked (0: not blocked). */
unsigned ratelimit_blocked(struct ratelimit *t, const void *key, size_t len, int64_t now_ms);
/* Records a failure; returns the seconds the key is now blocked (0: none). */
unsigned ratelimit_fail(struct ratelimit *t, const void *key, size_t len, const struct rl_backoff *b,
                        int64_t now_ms);
/* Forgets the key's failures (a success). */
void ratelimit_forgive(struct ratelimit *t, const void *key, size_t len);

#endif
