/* retention.c — see retention.h. */
#include "telemetry/retention.h"

enum { ROWS_PER_TRANSACTION = 10000 };

int telemetry_retention_run(struct store *s, int64_t now, long days, long *removed)
{
    *removed = 0;
    int64_t before = now - (int64_t)days * 86400;
    for (;;) {
        long n = 0;
        if (s->ops->begin(s, true) != STORE_OK)
            return -1;
        if (s->ops->tel_purge(s, before, ROWS_PER_TRANSACTION, &n) != STORE_OK || s->ops->commit(s) != STORE_OK) {
            s->ops->rollback(s);
            return -1;
        }
        *removed += n;
        if (n < ROWS_PER_TRANSACTION)
            return 0;
    }
}
