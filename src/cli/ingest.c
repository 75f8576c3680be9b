/* ingest.c — `parapet ingest [--data DIR] [--batch N] FILE|-`: telemetry
 * records (NDJSON, or one JSON array) into the store without the server.
 * The whole input is one transaction, as one POST /ingest/v1/records is;
 * with --batch N every N records are committed on their own (for bulk
 * loads), and a bad record refuses only the batch it is in. Batches are
 * made durable behind the ingest (deferred durability, store.h): the next
 * batch is stored while the last one's sync runs, and the command waits
 * for every batch to be durable before it reports. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/ingest_pipe.h"
#include "telemetry/ingest.h"

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

struct run {
    struct store *s;
    struct tel_batch *b;
    long batch_size, in_batch, line;
    struct tel_ingest_result total;
    uint64_t ticket; /* the last committed batch's (store.h, commit_ticket) */
};

struct durable_wait {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, ok;
};

static void durable_done(void *arg, bool ok)
{
    struct durable_wait *w = arg;
    pthread_mutex_lock(&w->mu);
    w->done = true;
    w->ok = ok;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* 0 once every committed batch is durable, -1 when that failed. */
static int wait_durable(struct run *r)
{
    if (!r->ticket)
        return 0;
    struct durable_wait w = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    int rc = r->s->ops->durable_notify(r->s, r->ticket, durable_done, &w);
    if (rc == 0) {
        pthread_mutex_lock(&w.mu);
        while (!w.done)
            pthread_cond_wait(&w.cv, &w.mu);
        pthread_mutex_unlock(&w.mu);
        rc = w.ok ? 1 : -1;
    }
    r->ticket = 0;
    return rc == 1 ? 0 : -1;
}

static int open_batch(struct run *r)
{
    if (r->s->ops->begin(r->s, true) != STORE_OK || !(r->b = tel_batch_begin(r->s, (int64_t)time(NULL)))) {
        fprintf(stderr, "parapet: the store is not available\n");
        return -1;
    }
    r->in_batch = 0;
    return 0;
}

static int close_batch(struct run *r, bool keep)
{
    struct tel_ingest_result res;
    int rc = tel_batch_end(r->b, keep, &res);
    r->b = NULL;
    if (keep && rc == 0 && r->s->ops->commit(r->s) == STORE_OK) {
        uint64_t ticket = r->s->ops->commit_ticket(r->s);
        if (ticket) /* a later ticket covers the earlier ones */
            r->ticket = ticket;
        r->total.records += res.records;
        r->total.stored += res.stored;
        r->total.duplicates += res.duplicates;
        return 0;
    }
    r->s->ops->rollback(r->s);
    if (keep)
        fprintf(stderr, "parapet: the records could not be stored\n");
    return -1;
}

/* After a record was added (rc 0) or refused: 0, or the exit status once
 * the failure is reported (and the batch rolled back). */
static int report(struct run *r, int rc, const char *where, long pos, const char *msg)
{
    if (rc != 0) {
        fprintf(stderr, "parapet: %s %ld: %s\n", where, pos, msg);
        close_batch(r, false);
        return rc > 0 ? 2 : 1;
    }
    if (r->batch_size && ++r->in_batch == r->batch_size && (close_batch(r, true) != 0 || open_batch(r) != 0))
        return 1;
    return 0;
}

static int add(struct run *r, json_t *v, const char *where, long pos)
{
    char msg[TEL_MSG_BUF];
    return report(r, tel_batch_add(r->b, v, msg, sizeof msg), where, pos, msg);
}

static int ingest_stream(struct run *r, FILE *in)
{
    struct ingest_pipe *p = ingest_pipe_start(in, (int64_t)time(NULL));
    if (!p) {
        close_batch(r, false);
        fprintf(stderr, "parapet: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (bool last = false; !last && rc == 0;) {
        struct pipe_block *b = ingest_pipe_next(p);
        last = b->last;
        for (size_t i = 0; i < b->n && rc == 0; i++) {
            struct pipe_item *it = &b->items[i];
            char msg[TEL_MSG_BUF];
            int added = it->rc ? it->rc : tel_batch_add_decoded(r->b, &it->rec, &it->loc, msg, sizeof msg);
            rc = report(r, added, "line", it->line, it->rc ? it->msg : msg);
        }
        ingest_pipe_done(p, b);
    }
    ingest_pipe_stop(p);
    return rc;
}

static int ingest_array(struct run *r, FILE *in)
{
    json_error_t je;
    json_t *all = json_loadf(in, JSON_REJECT_DUPLICATES, &je);
    if (!json_is_array(all)) {
        fprintf(stderr, "parapet: %s\n", all ? "the input must be NDJSON or one JSON array of records" : je.text);
        json_decref(all);
        close_batch(r, false);
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; i < json_array_size(all) && rc == 0; i++)
        rc = add(r, json_array_get(all, i), "record", (long)i + 1);
    json_decref(all);
    return rc;
}

int cli_ingest(int argc, char **argv)
{
    static const struct opt opts[] = {{.name = "data"}, {.name = "batch"}, {.name = NULL}};
    const char *file = argc > 0 && argv[argc - 1][0] != '-' ? argv[argc - 1] : NULL;
    if (argc > 0 && strcmp(argv[argc - 1], "-") == 0)
        file = "-";
    if (!file) {
        fputs("usage: parapet ingest [--data DIR] [--batch N] FILE.jsonl|-\n", stderr);
        return 2;
    }
    json_t *a = args_parse(argc - 1, argv, opts);
    if (!a)
        return 2;
    const char *data = arg_str(a, "data") ? arg_str(a, "data") : "./parapet-data";
    const char *batch = arg_str(a, "batch");
    struct run r = {.batch_size = batch ? atol(batch) : 0};
    if (batch && r.batch_size <= 0) {
        fprintf(stderr, "parapet: --batch must be a positive number of records\n");
        json_decref(a);
        return 2;
    }
    FILE *in = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
    if (!in) {
        perror(file);
        json_decref(a);
        return 1;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = 1;
    if ((r.s = cli_open_store_sized(data, CLI_BULK_CACHE_KB)))
        r.s->ops->defer_durability(r.s, true);
    if (r.s && open_batch(&r) == 0) {
        int c = fgetc(in);
        while (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            c = fgetc(in);
        if (c != EOF)
            ungetc(c, in);
        rc = c == '[' ? ingest_array(&r, in) : ingest_stream(&r, in);
        if (rc == 0)
            rc = close_batch(&r, true) == 0 ? 0 : 1;
    }
    if (r.s && wait_durable(&r) != 0) {
        fprintf(stderr, "parapet: the stored records could not be made durable\n");
        rc = 1;
    }
    if (rc == 0) {
        double secs = seconds_since(&t0);
        printf("{\"records\":%ld,\"stored\":%ld,\"duplicates\":%ld,\"seconds\":%.3f,\"records_per_s\":%.0f}\n",
               r.total.records, r.total.stored, r.total.duplicates, secs,
               secs > 0 ? (double)r.total.records / secs : 0.0);
    }
    if (r.s)
        r.s->ops->close(r.s);
    if (in != stdin)
        fclose(in);
    json_decref(a);
    return rc;
}
