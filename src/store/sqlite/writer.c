/* sqlite/writer.c — see sqlite/writer.h. */
#include "store/sqlite/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/metrics.h"
#include "store/sqlite/conn.h"
#include "store/write_fence.h"

enum { MAX_WRITERS = 16 };
enum { GATHER_US = 2000, GATHER_ENOUGH = 8 }; /* see gather() */

struct sqlite_writer {
    char path[PATH_MAX];
    int users;
    pthread_mutex_t mutex; /* held for the length of a write transaction */
    struct sqlite_conn conn;
    bool open;

    /* group commit */
    _Atomic uint64_t committed;     /* commits that wrote, counted under `mutex` */
    _Atomic int wanted;             /* threads in or waiting for a write transaction */
    _Atomic bool gathering;         /* the syncer waits for them (see gather) */
    _Atomic unsigned gather_us;     /* for at most this long */
    pthread_mutex_t sync_mutex;     /* guards the members below */
    pthread_cond_t synced;          /* broadcast when durable changes, a waiter comes (see notify), stop is set */
    uint64_t durable;               /* every commit up to this one is on disk */
    bool syncing;                   /* a waiter is running fdatasync */
    uint64_t syncs;                 /* fdatasync calls made */
    int wal_fd;                     /* our own descriptor of PATH-wal (-1: not open) */
    struct durable_waiter *waiters; /* deferred durability: called back by the syncer thread */
    pthread_t syncer;
    bool syncer_running, stop;
    bool syncer_idle; /* the syncer waits for a waiter to come (or a sync to end) */

    /* background checkpoints (checkpointer_main) */
    pthread_mutex_t checkpoint_mutex; /* guards the members below */
    pthread_cond_t checkpoint_cv;
    pthread_t checkpointer;
    bool checkpointer_running, checkpoint_wanted, checkpoint_stop;
    uint64_t checkpoints; /* run by the thread */
};

struct durable_waiter {
    uint64_t seq;
    void (*done)(void *arg, bool ok);
    void *arg;
    bool ok; /* set when taken off the list */
    struct durable_waiter *next;
};

static struct sqlite_writer writers[MAX_WRITERS];
static pthread_mutex_t writers_mutex = PTHREAD_MUTEX_INITIALIZER;

struct sqlite_writer *writer_get(const char *path)
{
    if (!path || !*path || strlen(path) >= PATH_MAX)
        return NULL;
    struct sqlite_writer *w = NULL, *free_slot = NULL;
    pthread_mutex_lock(&writers_mutex);
    for (int i = 0; i < MAX_WRITERS && !w; i++) {
        if (writers[i].users > 0 && strcmp(writers[i].path, path) == 0)
            w = &writers[i];
        else if (writers[i].users == 0 && !free_slot)
            free_slot = &writers[i];
    }
    if (!w && free_slot) {
        w = free_slot;
        memset(w, 0, sizeof *w);
        strcpy(w->path, path);
        pthread_mutex_init(&w->mutex, NULL);
        pthread_mutex_init(&w->sync_mutex, NULL);
        pthread_cond_init(&w->synced, NULL);
        pthread_mutex_init(&w->checkpoint_mutex, NULL);
        pthread_cond_init(&w->checkpoint_cv, NULL);
        w->wal_fd = -1;
        w->gather_us = GATHER_US;
    }
    if (w)
        w->users++;
    pthread_mutex_unlock(&writers_mutex);
    return w;
}

static void stop_syncer(struct sqlite_writer *w);
static void stop_checkpointer(struct sqlite_writer *w);

void writer_put(struct sqlite_writer *w)
{
    pthread_mutex_lock(&writers_mutex);
    if (--w->users == 0) {
        stop_syncer(w);
        stop_checkpointer(w);
        if (w->open)
            db_conn_close(&w->conn);
        w->open = false;
        if (w->wal_fd >= 0)
            close(w->wal_fd);
        w->wal_fd = -1;
        pthread_mutex_destroy(&w->mutex);
        pthread_mutex_destroy(&w->sync_mutex);
        pthread_cond_destroy(&w->synced);
        pthread_mutex_destroy(&w->checkpoint_mutex);
        pthread_cond_destroy(&w->checkpoint_cv);
    }
    pthread_mutex_unlock(&writers_mutex);
}

/* CLOCK_REALTIME (what the timed waits take) `us` microseconds from now. */
static struct timespec realtime_after(long us)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long ns = t.tv_nsec + us * 1000L;
    t.tv_sec += ns / 1000000000L;
    t.tv_nsec = ns % 1000000000L;
    return t;
}

/* One thread fewer in or waiting for a write transaction; the last wakes a
 * gathering syncer. */
static void writer_leave_wanted(struct sqlite_writer *w)
{
    if (atomic_fetch_sub(&w->wanted, 1) == 1 && atomic_load(&w->gathering)) {
        pthread_mutex_lock(&w->sync_mutex);
        pthread_cond_broadcast(&w->synced);
        pthread_mutex_unlock(&w->sync_mutex);
    }
}

/* The checkpoint thread: runs a passive checkpoint each time one is asked
 * for (checkpoint_soon), on a connection of its own, so that the committer
 * that crossed the interval (conn.c, after_commit) neither copies the WAL
 * back nor waits for the checkpoint's fdatasync calls. A passive checkpoint
 * takes no writer lock: commits go on meanwhile, and the WAL rewinds at the
 * first write after a checkpoint that caught up (before, that was the write
 * after the committer's own checkpoint). When it does not catch up, the
 * WAL's bound (twice the interval) is kept by the committer as before.
 * Measured on `parapet ingest` (1.1M records into a 10M-record store): see
 * docs/telemetry.md. */
static void *checkpointer_main(void *arg)
{
    struct sqlite_writer *w = arg;
    sqlite3 *db = NULL;
    pthread_mutex_lock(&w->checkpoint_mutex);
    for (;;) {
        while (!w->checkpoint_wanted && !w->checkpoint_stop)
            pthread_cond_wait(&w->checkpoint_cv, &w->checkpoint_mutex);
        if (w->checkpoint_stop)
            break;
        w->checkpoint_wanted = false;
        pthread_mutex_unlock(&w->checkpoint_mutex);
        /* a connection learns that the database is in WAL mode at its first
         * statement: until then a checkpoint does nothing */
        if (!db && (sqlite3_open_v2(w->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
                    sqlite3_exec(db, "PRAGMA journal_mode", NULL, NULL, NULL) != SQLITE_OK)) {
            sqlite3_close(db); /* tried again at the next request */
            db = NULL;
        }
        bool done = db && sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL) == SQLITE_OK;
        pthread_mutex_lock(&w->checkpoint_mutex);
        w->checkpoints += done;
    }
    pthread_mutex_unlock(&w->checkpoint_mutex);
    sqlite3_close(db);
    return NULL;
}

/* After a commit past the checkpoint interval (conn.c). Without the thread
 * (it could not start) the committer checkpoints, as before. */
static void checkpoint_soon(void *arg)
{
    struct sqlite_writer *w = arg;
    pthread_mutex_lock(&w->checkpoint_mutex);
    if (!w->checkpointer_running && !w->checkpoint_stop)
        w->checkpointer_running = pthread_create(&w->checkpointer, NULL, checkpointer_main, w) == 0;
    bool running = w->checkpointer_running;
    if (running) {
        w->checkpoint_wanted = true;
        pthread_cond_signal(&w->checkpoint_cv);
    }
    pthread_mutex_unlock(&w->checkpoint_mutex);
    if (!running)
        sqlite3_wal_checkpoint_v2(w->conn.db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

static void stop_checkpointer(struct sqlite_writer *w)
{
    pthread_mutex_lock(&w->checkpoint_mutex);
    bool running = w->checkpointer_running;
    w->checkpoint_stop = true;
    pthread_cond_broadcast(&w->checkpoint_cv);
    pthread_mutex_unlock(&w->checkpoint_mutex);
    if (running)
        pthread_join(w->checkpointer, NULL);
    w->checkpointer_running = false;
}

struct sqlite_conn *writer_enter(struct sqlite_writer *w, unsigned timeout_ms)
{
    if (write_fence_tripped())
        return NULL; /* no write after a failed sync (write_fence.h) */
    atomic_fetch_add(&w->wanted, 1);
    if (pthread_mutex_trylock(&w->mutex) != 0) {
        struct timespec until = realtime_after((long)timeout_ms * 1000L);
        if (pthread_mutex_timedlock(&w->mutex, &until) != 0) {
            writer_leave_wanted(w);
            return NULL;
        }
    }
    if (!w->open && db_conn_open(&w->conn, w->path) != 0) {
        pthread_mutex_unlock(&w->mutex);
        writer_leave_wanted(w);
        return NULL;
    }
    if (!w->open) {
        w->conn.checkpoint_soon = checkpoint_soon;
        w->conn.checkpoint_arg = w;
    }
    w->open = true;
    return &w->conn;
}

void writer_leave(struct sqlite_writer *w)
{
    pthread_mutex_unlock(&w->mutex);
    writer_leave_wanted(w);
}

void writer_expect(struct sqlite_writer *w, bool on)
{
    if (on)
        atomic_fetch_add(&w->wanted, 1);
    else
        writer_leave_wanted(w);
}

uint64_t writer_committed(struct sqlite_writer *w)
{
    return atomic_fetch_add(&w->committed, 1) + 1;
}

/* A descriptor of the WAL file as it is now: SQLite deletes the WAL when
 * its last connection closes and makes a new one later, so a descriptor of
 * a replaced file (another inode) is reopened. */
static int wal_descriptor(struct sqlite_writer *w)
{
    char wal[PATH_MAX + 8];
    snprintf(wal, sizeof wal, "%s-wal", w->path);
    struct stat now, held;
    if (stat(wal, &now) != 0)
        return -1;
    if (w->wal_fd >= 0 && fstat(w->wal_fd, &held) == 0 && held.st_ino == now.st_ino &&
        held.st_dev == now.st_dev)
        return w->wal_fd;
    if (w->wal_fd >= 0)
        close(w->wal_fd);
    w->wal_fd = open(wal, O_RDONLY | O_CLOEXEC);
    return w->wal_fd;
}

/* Runs one fdatasync of the WAL for every commit counted so far; called and
 * returning with sync_mutex held. 0, or -1 when the sync failed; *target
 * is the last commit it covered. */
static int lead_sync(struct sqlite_writer *w, uint64_t *target)
{
    w->syncing = true;
    /* each commit's WAL frames were written before it took its number */
    *target = atomic_load(&w->committed);
    pthread_mutex_unlock(&w->sync_mutex);
    /* After a failed sync no later one counts: the kernel reports a lost
     * write once (write_fence.h). */
    bool fenced = write_fence_tripped();
    int fd = fenced ? -1 : wal_descriptor(w);
    int err = fenced ? EIO : errno;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int sync_rc = fd >= 0 ? fdatasync(fd) : -1;
    if (fd >= 0)
        err = errno;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_mutex_lock(&w->sync_mutex);
    w->syncing = false;
    w->syncs++;
    if (sync_rc == 0 && *target > w->durable)
        metrics_store_sync(*target - w->durable,
                           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    if (sync_rc == 0 && *target > w->durable)
        w->durable = *target;
    if (sync_rc != 0 && !fenced) {
        char wal[PATH_MAX + 8];
        snprintf(wal, sizeof wal, "%s-wal", w->path);
        write_fence_trip(wal, err);
    }
    pthread_cond_broadcast(&w->synced);
    return sync_rc == 0 ? 0 : -1;
}

int writer_wait_durable(struct sqlite_writer *w, uint64_t seq)
{
    int rc = 0;
    pthread_mutex_lock(&w->sync_mutex);
    while (w->durable < seq && rc == 0) {
        uint64_t target;
        if (w->syncing)
            pthread_cond_wait(&w->synced, &w->sync_mutex);
        else
            rc = lead_sync(w, &target);
    }
    pthread_mutex_unlock(&w->sync_mutex);
    return rc;
}

/* Takes the waiters whose commit is durable (all up to `failed_upto` when a
 * sync failed) off the list, in a list of their own. */
static struct durable_waiter *take_waiters(struct sqlite_writer *w, uint64_t failed_upto)
{
    struct durable_waiter *ready = NULL, **link = &w->waiters;
    while (*link) {
        struct durable_waiter *x = *link;
        if (x->seq <= w->durable || x->seq <= failed_upto) {
            x->ok = x->seq <= w->durable;
            *link = x->next;
            x->next = ready;
            ready = x;
        } else {
            link = &x->next;
        }
    }
    return ready;
}

/* Before a sync of the syncer thread: while write transactions are open or
 * queued on the writer, their commits come within a few hundred
 * microseconds, so the syncer waits for them (at most gather_us, 2 ms by
 * default) and one fdatasync covers them too. Without it, writes queued
 * one after another (a site update holds the writer ~250 us, a sync takes
 * ~300 us) shared a sync only 1.25 at a time, and an fdatasync costs
 * 100-300 us of CPU (the syncer took a third of a core at 4k writes/s). A
 * lone write does not wait: nothing is queued behind it; nor does a sync
 * that already covers GATHER_ENOUGH commits (many concurrent token
 * requests pile up ~10 during one sync: waiting only added latency). 1 ms
 * and 4 gave ~3.5 commits a sync under host creates, 2 ms and 8 ~5 and
 * 10-15% more writes a second; 4 ms and 16 no more than that.
 * `gathering` is set before `wanted` is read, and the last thread to leave
 * reads it after lowering `wanted`, so one of the two sees the other and
 * the wake-up is never lost. Called and returning with sync_mutex held. */
static void gather(struct sqlite_writer *w)
{
    struct timespec until = realtime_after((long)atomic_load(&w->gather_us));
    atomic_store(&w->gathering, true);
    while (atomic_load(&w->wanted) > 0 && atomic_load(&w->committed) - w->durable < GATHER_ENOUGH && !w->stop &&
           pthread_cond_timedwait(&w->synced, &w->sync_mutex, &until) == 0) {
    }
    atomic_store(&w->gathering, false);
}

/* The syncer thread: syncs while deferred waiters wait, and calls them back
 * once their commit is durable. Exits when stopped and no one waits. */
static void *syncer_main(void *arg)
{
    struct sqlite_writer *w = arg;
    uint64_t failed_upto = 0;
    pthread_mutex_lock(&w->sync_mutex);
    for (;;) {
        struct durable_waiter *ready = take_waiters(w, failed_upto);
        if (ready) {
            pthread_mutex_unlock(&w->sync_mutex);
            while (ready) {
                struct durable_waiter *next = ready->next;
                ready->done(ready->arg, ready->ok);
                free(ready);
                ready = next;
            }
            pthread_mutex_lock(&w->sync_mutex);
            continue;
        }
        if (!w->waiters && w->stop)
            break;
        if (!w->waiters || w->syncing) {
            w->syncer_idle = true;
            pthread_cond_wait(&w->synced, &w->sync_mutex);
            w->syncer_idle = false;
            continue;
        }
        gather(w);
        if (w->syncing)
            continue; /* a committer synced meanwhile (writer_wait_durable) */
        uint64_t target;
        if (lead_sync(w, &target) != 0)
            failed_upto = target;
    }
    pthread_mutex_unlock(&w->sync_mutex);
    return NULL;
}

int writer_notify_durable(struct sqlite_writer *w, uint64_t seq, void (*done)(void *arg, bool ok), void *arg)
{
    struct durable_waiter *x = malloc(sizeof *x);
    pthread_mutex_lock(&w->sync_mutex);
    if (w->durable >= seq || !x) {
        pthread_mutex_unlock(&w->sync_mutex);
        free(x);
        return x ? 1 : -1;
    }
    *x = (struct durable_waiter){.seq = seq, .done = done, .arg = arg, .next = w->waiters};
    w->waiters = x;
    if (!w->syncer_running) {
        w->stop = false;
        w->syncer_running = pthread_create(&w->syncer, NULL, syncer_main, w) == 0;
    }
    bool running = w->syncer_running;
    if (!running)
        w->waiters = x->next;
    /* Only a syncer that waits for waiters, or one gathering that now has
     * enough, needs waking: one gathering otherwise waits for the writers
     * to leave (writer_leave_wanted), one syncing or calling back looks at
     * the waiters again when done. Waking it for every commit cost a
     * context switch a write. */
    if (w->syncer_idle ||
        (atomic_load(&w->gathering) && atomic_load(&w->committed) - w->durable >= GATHER_ENOUGH))
        pthread_cond_broadcast(&w->synced);
    pthread_mutex_unlock(&w->sync_mutex);
    if (!running) {
        free(x);
        return writer_wait_durable(w, seq) == 0 ? 1 : -1; /* no thread: wait here */
    }
    return 0;
}

static void stop_syncer(struct sqlite_writer *w)
{
    pthread_mutex_lock(&w->sync_mutex);
    bool running = w->syncer_running;
    w->stop = true;
    pthread_cond_broadcast(&w->synced);
    pthread_mutex_unlock(&w->sync_mutex);
    if (running)
        pthread_join(w->syncer, NULL);
    w->syncer_running = false;
}

void writer_set_gather(struct sqlite_writer *w, unsigned us)
{
    atomic_store(&w->gather_us, us);
}

uint64_t writer_syncs(struct sqlite_writer *w)
{
    pthread_mutex_lock(&w->sync_mutex);
    uint64_t n = w->syncs;
    pthread_mutex_unlock(&w->sync_mutex);
    return n;
}

uint64_t writer_checkpoints(struct sqlite_writer *w)
{
    pthread_mutex_lock(&w->checkpoint_mutex);
    uint64_t n = w->checkpoints;
    pthread_mutex_unlock(&w->checkpoint_mutex);
    return n;
}
