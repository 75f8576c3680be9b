/* pgsql/flush.c — group commit for the PostgreSQL backend (store.h,
 * defer_durability / commit_ticket / durable_notify).
 *
 * Writes of every node run one at a time under the write lock
 * (pgsql/db.h). Were each COMMIT to wait for its own WAL flush inside that
 * lock, writes would go at the disk's flush rate (a few hundred a second).
 * So the API's write transactions commit with synchronous_commit off: the
 * commit is visible at once and the lock passes on, and the commit's ticket
 * is the WAL insert position after it. One thread per process then makes
 * the WAL durable for every waiting ticket at once: a tiny transaction
 * with synchronous_commit on flushes the WAL up to its own commit record,
 * which lies after every ticket handed out before it began. Only then are
 * the requests answered — the same contract as SQLite's group commit: an
 * acknowledged write is durable; a write that cannot be made so is answered
 * as a failure. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/metrics.h"
#include "store/pgsql/db.h"

struct waiter {
    void (*done)(void *arg, bool ok);
    void *arg;
    struct waiter *next;
};

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct waiter *head; /* waiting for the next flush (LIFO: order is not promised) */
    uint64_t flushed;    /* every ticket up to here is durable */
    bool started;
    bool prepared; /* flush_sql on this connection */
    char *conninfo;
    PGconn *conn;
} fl = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static const char flush_sql[] = "SELECT txid_current(), (pg_current_wal_insert_lsn() - '0/0')::text, "
                                "pg_logical_emit_message(true, 'parapet', 'flush'), "
                                "pg_notify('parapet_version', (SELECT last_value FROM data_version)::text)";

static bool flusher_connected(void)
{
    if (!fl.conn || PQstatus(fl.conn) != CONNECTION_OK) {
        fl.prepared = false;
        if (fl.conn)
            PQreset(fl.conn);
        else
            fl.conn = PQconnectdb(fl.conninfo);
        if (PQstatus(fl.conn) != CONNECTION_OK)
            return false;
        /* Perhaps another server now (a promoted standby): positions
         * flushed on the old one say nothing here. */
        pthread_mutex_lock(&fl.mu);
        fl.flushed = 0;
        pthread_mutex_unlock(&fl.mu);
        PQclear(PQexec(fl.conn, "SET synchronous_commit = on"));
    }
    if (!fl.prepared) {
        PGresult *res = PQprepare(fl.conn, "flush", flush_sql, 0, NULL);
        fl.prepared = PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
    }
    return fl.prepared;
}

/* One durable commit after every ticket handed out so far, announcing the
 * change counter's bumps of the commits it covers (pg_commit leaves that to
 * it, version_watch.h: other nodes hear of them once they are durable, and
 * within PG_WATCH_FRESH_MS by their own reads anyway); the WAL insert
 * position it covers, or 0 when it failed. The transaction must write WAL
 * of its own: PostgreSQL commits one that only took an xid (txid_current)
 * asynchronously, neither flushing nor waiting for a synchronous standby
 * (xact.c: wrote_xlog), so it writes a transactional logical message (a
 * few bytes of WAL, no table, any wal_level). One prepared statement in a
 * transaction of its own (no BEGIN/COMMIT: one round trip, planned once). */
static uint64_t flush_wal(void)
{
    if (!flusher_connected())
        return 0;
    PGresult *res = PQexecPrepared(fl.conn, "flush", 0, NULL, NULL, NULL, 0);
    uint64_t lsn = PQresultStatus(res) == PGRES_TUPLES_OK ? strtoull(PQgetvalue(res, 0, 1), NULL, 10) : 0;
    PQclear(res);
    return lsn;
}

static void *flusher_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&fl.mu);
    for (;;) {
        while (!fl.head)
            pthread_cond_wait(&fl.cv, &fl.mu);
        struct waiter *batch = fl.head; /* their tickets all precede the flush below */
        fl.head = NULL;
        pthread_mutex_unlock(&fl.mu);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        uint64_t lsn = flush_wal();
        if (!lsn && fl.conn && PQstatus(fl.conn) != CONNECTION_OK)
            lsn = flush_wal(); /* the server closed the connection since (a restart): once more, on a new one */
        clock_gettime(CLOCK_MONOTONIC, &t1);
        int n = 0;
        for (struct waiter *w = batch; w; w = w->next)
            n++;
        if (lsn)
            metrics_store_sync(n, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
        pthread_mutex_lock(&fl.mu);
        if (lsn > fl.flushed)
            fl.flushed = lsn;
        pthread_mutex_unlock(&fl.mu);
        while (batch) {
            struct waiter *next = batch->next;
            batch->done(batch->arg, lsn != 0);
            free(batch);
            batch = next;
        }
        pthread_mutex_lock(&fl.mu);
    }
    return NULL;
}

int pg_durable_notify(struct store *s, uint64_t ticket, void (*done)(void *arg, bool ok), void *arg)
{
    struct waiter *w = malloc(sizeof *w);
    if (!w)
        return -1;
    *w = (struct waiter){.done = done, .arg = arg};
    pthread_mutex_lock(&fl.mu);
    if (ticket <= fl.flushed) { /* another flush has covered it already */
        pthread_mutex_unlock(&fl.mu);
        free(w);
        return 1;
    }
    if (!fl.started) {
        pthread_t th;
        fl.conninfo = strdup(PG(s)->conninfo);
        if (!fl.conninfo || pthread_create(&th, NULL, flusher_main, NULL) != 0) {
            pthread_mutex_unlock(&fl.mu);
            free(w);
            return -1;
        }
        pthread_detach(th);
        fl.started = true;
    }
    w->next = fl.head;
    fl.head = w;
    pthread_cond_signal(&fl.cv);
    pthread_mutex_unlock(&fl.mu);
    return 0;
}

/* Each PostgreSQL transaction flushes on its own: nothing to gather. */
void pg_writes_coming(struct store *s, bool on)
{
    (void)s;
    (void)on;
}

void pg_defer_durability(struct store *s, bool on)
{
    PG(s)->deferred = on;
}

uint64_t pg_commit_ticket(struct store *s)
{
    uint64_t t = PG(s)->ticket;
    PG(s)->ticket = 0;
    return t;
}
