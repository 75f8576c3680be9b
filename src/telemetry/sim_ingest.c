/* sim_ingest.c — simulator output into the store (sim_ingest.h). */
#include "telemetry/sim_ingest.h"

#include <stdlib.h>
#include <string.h>

struct buf {
    struct store *s;
    int64_t now;
    char *data;
    size_t len, cap;
    long records;
    struct tel_ingest_result *total;
    int rc;
    char *msg;
    size_t msgsize;
};

static int flush(struct buf *b)
{
    if (!b->records)
        return 0;
    struct tel_ingest_result res = {0};
    if (b->s->ops->begin(b->s, true) != STORE_OK)
        return b->rc = -1;
    int rc = telemetry_ingest(b->s, b->data, b->len, TEL_NDJSON, b->now, &res, b->msg, b->msgsize);
    if (rc == 0 && b->s->ops->commit(b->s) != STORE_OK)
        rc = -1;
    if (rc != 0) {
        b->s->ops->rollback(b->s);
        return b->rc = rc;
    }
    b->total->records += res.records;
    b->total->stored += res.stored;
    b->total->duplicates += res.duplicates;
    b->len = 0;
    b->records = 0;
    return 0;
}

static int sink(void *arg, const char *line, size_t len)
{
    struct buf *b = arg;
    if (b->len + len + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 1 << 20) + len + 1;
        char *d = realloc(b->data, cap);
        if (!d)
            return b->rc = -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, line, len);
    b->len += len;
    b->data[b->len++] = '\n';
    return ++b->records >= SIM_INGEST_BATCH ? flush(b) : 0;
}

int sim_ingest(struct store *s, const struct sim_site *sites, size_t n, const struct sim_params *p, int64_t now,
               struct tel_ingest_result *total, struct sim_counts *counts, char *msg, size_t msgsize)
{
    struct buf b = {.s = s, .now = now, .total = total, .msg = msg, .msgsize = msgsize};
    memset(total, 0, sizeof *total);
    if (msgsize)
        msg[0] = '\0';
    int rc = sim_generate(sites, n, p, sink, &b, counts);
    if (!rc)
        rc = flush(&b);
    free(b.data);
    return rc ? (b.rc ? b.rc : rc) : 0;
}
