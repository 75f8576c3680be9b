/* backoff.c — see backoff.h. */
#include "webhook/backoff.h"

int64_t webhook_backoff_delay(const struct webhook_backoff *b, int n)
{
    int64_t d = b->base_ms > 0 ? b->base_ms : 1;
    for (int i = 1; i < n && d < b->cap_ms; i++)
        d *= 2;
    return d < b->cap_ms ? d : b->cap_ms;
}

int64_t webhook_backoff_next(const struct webhook_backoff *b, int n, int64_t first_ms, int64_t now_ms)
{
    int64_t next = now_ms + webhook_backoff_delay(b, n);
    return next - first_ms > b->give_up_ms ? -1 : next;
}
