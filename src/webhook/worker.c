/* worker.c — see worker.h. */
#include "webhook/worker.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/select/select.h"
#include "webhook/send.h"

enum {
    LEASE_MARGIN_MS = 60000, /* beyond the attempt's own time limit */
    PURGE_EVERY_MS = 3600 * 1000,
    PURGE_ROWS = 10000,
};

static struct webhook_settings settings = WEBHOOK_SETTINGS_DEFAULT;

static struct {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool running, wake;
    atomic_bool stop;
    const struct store_config *cfg;
    void *sender; /* the receivers' connections, kept between rounds */
} worker = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

const struct webhook_settings *webhook_settings(void)
{
    return &settings;
}

void webhook_configure(const struct webhook_settings *w)
{
    settings = *w;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The next state of a delivery after an attempt. */
static void decide(const json_t *row, const struct webhook_outcome *o, struct webhook_attempt *a)
{
    int n = (int)json_integer_value(json_object_get(row, "attempts")) + 1;
    int64_t first_ms = json_integer_value(json_object_get(row, "created_at")) * 1000;
    int64_t end = o->at_ms + o->duration_ms;
    *a = (struct webhook_attempt){
        .delivery_seq = json_integer_value(json_object_get(row, "seq")),
        .at_ms = o->at_ms,
        .duration_ms = o->duration_ms,
        .status = o->status,
        .error = o->error,
        .response = o->response,
        .state = "delivered",
        .next_at_ms = end,
    };
    if (o->status >= 200 && o->status < 300)
        return; /* accepted, even if the connection broke after the status (kept in the log) */
    int64_t next = webhook_backoff_next(&settings.backoff, n, first_ms, end);
    a->state = next < 0 ? "failed" : "pending";
    a->next_at_ms = next < 0 ? end : next;
}

static int record(struct store *s, json_t *rows, const struct webhook_outcome *out)
{
    if (s->ops->begin(s, true) != STORE_OK)
        return -1;
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct webhook_attempt a;
        decide(row, &out[i], &a);
        int rc = s->ops->webhook_attempt_record(s, &a);
        if (rc != STORE_OK && rc != STORE_NOT_FOUND) {
            s->ops->rollback(s);
            return -1;
        }
    }
    return s->ops->commit(s) == STORE_OK ? 0 : -1;
}

/* One round: due deliveries claimed, sent, recorded. 1 when some were sent,
 * 0 when none was due (*next_ms: when one will be, or 0), -1 on a store failure. */
static int round_once(struct store *s, int64_t *next_ms)
{
    int64_t now = now_ms(), next = 0;
    *next_ms = 0;
    if (s->ops->begin(s, false) != STORE_OK)
        return -1;
    int rc = s->ops->webhook_next_due(s, &next);
    s->ops->commit(s);
    if (rc == STORE_NOT_FOUND)
        return 0;
    if (rc != STORE_OK)
        return -1;
    if (next > now) {
        *next_ms = next;
        return 0;
    }
    json_t *rows = NULL;
    if (s->ops->begin(s, true) != STORE_OK)
        return -1;
    rc = s->ops->webhook_claim(s, now, settings.timeout_ms + LEASE_MARGIN_MS, settings.batch, &rows);
    if (rc != STORE_OK || s->ops->commit(s) != STORE_OK) {
        if (rc != STORE_OK)
            s->ops->rollback(s);
        json_decref(rows);
        return -1;
    }
    size_t n = json_array_size(rows);
    if (n == 0) {
        json_decref(rows);
        return 0;
    }
    struct webhook_outcome *out = calloc(n, sizeof *out);
    if (!out) {
        json_decref(rows);
        return -1;
    }
    webhook_send_round(worker.sender, &settings, rows, out, &worker.stop);
    int result = atomic_load(&worker.stop) ? 0 : record(s, rows, out) == 0 ? 1 : -1;
    free(out);
    json_decref(rows);
    return result;
}

static void purge(struct store *s)
{
    long removed = PURGE_ROWS;
    int64_t before = (int64_t)time(NULL) - settings.retention_days * 86400;
    while (removed == PURGE_ROWS && !atomic_load(&worker.stop)) {
        if (s->ops->begin(s, true) != STORE_OK)
            return;
        if (s->ops->webhook_purge(s, before, PURGE_ROWS, &removed) != STORE_OK) {
            s->ops->rollback(s);
            return;
        }
        s->ops->commit(s);
    }
}

static void *loop(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "webhooks"); /* for top -H and bench/webhooks */
    struct store *s = store_open(worker.cfg);
    worker.sender = webhook_sender_new();
    if (!s || !worker.sender) {
        fprintf(stderr, "parapet: webhooks: %s; nothing is delivered\n",
                s ? "no libcurl multi handle" : "no store connection");
        if (s)
            s->ops->close(s);
        webhook_sender_free(worker.sender);
        return NULL;
    }
    int64_t purged_at = 0;
    bool complained = false;
    while (!atomic_load(&worker.stop)) {
        if (now_ms() - purged_at > PURGE_EVERY_MS) {
            purge(s);
            purged_at = now_ms();
        }
        int64_t next;
        int rc = round_once(s, &next);
        if (rc < 0 && !complained)
            fprintf(stderr, "parapet: webhooks: the store failed; trying again\n");
        complained = rc < 0;
        if (rc > 0)
            continue;
        /* sleep until the next due delivery, a wake-up, or the next look at the outbox */
        int64_t wait = settings.poll_ms;
        if (next && next - now_ms() < wait)
            wait = next - now_ms();
        if (wait < 10)
            wait = 10;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += wait / 1000;
        until.tv_nsec += (wait % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_mutex_lock(&worker.mu);
        while (!worker.wake && !atomic_load(&worker.stop) &&
               pthread_cond_timedwait(&worker.cv, &worker.mu, &until) == 0)
            ;
        worker.wake = false;
        pthread_mutex_unlock(&worker.mu);
    }
    webhook_sender_free(worker.sender);
    s->ops->close(s);
    return NULL;
}

int webhook_worker_start(const struct store_config *cfg)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return -1;
    worker.cfg = cfg;
    atomic_store(&worker.stop, false);
    worker.wake = false;
    if (pthread_create(&worker.thread, NULL, loop, NULL) != 0)
        return -1;
    worker.running = true;
    return 0;
}

void webhook_worker_wake(void)
{
    pthread_mutex_lock(&worker.mu);
    worker.wake = true;
    pthread_cond_signal(&worker.cv);
    pthread_mutex_unlock(&worker.mu);
}

void webhook_worker_stop(void)
{
    if (!worker.running)
        return;
    pthread_mutex_lock(&worker.mu);
    atomic_store(&worker.stop, true);
    pthread_cond_signal(&worker.cv);
    pthread_mutex_unlock(&worker.mu);
    pthread_join(worker.thread, NULL);
    worker.running = false;
    curl_global_cleanup();
}
