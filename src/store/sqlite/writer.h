/* sqlite/writer.h — one write connection per database file, shared by the
 * stores of this process and used by one of them at a time: a store's write
 * transaction (BEGIN IMMEDIATE … COMMIT) runs on it, under its mutex, while
 * reads outside write transactions stay on the store's own connection.
 *
 * Why (POST /oauth/credit/token, 2 worker threads):
 * - SQLite admits one writer at a time anyway. Without the mutex, the other
 *   worker found the write lock taken and SQLite's busy handler slept 1 ms,
 *   2 ms, 5 ms… (0.27 sleeps per request; p99 300-600 ms).
 * - Two connections taking turns at writing never let the WAL restart (each
 *   began before the other's checkpoint ended): it grew to 14 MB and every
 *   commit past 1000 WAL pages ran a checkpoint with two fdatasync calls.
 * - A connection drops its whole page cache when another connection has
 *   written since its last transaction: with two writers taking turns, each
 *   write transaction re-read ~14 pages with pread; on the one writer, ~2.
 * Writers in other processes (parapet admin) still meet SQLite's own locks
 * and busy timeout.
 *
 * Durability (group commit): connections run synchronous=NORMAL, so COMMIT
 * writes the transaction to the WAL without syncing it. A committer that
 * wrote takes a sequence number while it still holds the writer, releases
 * the writer, and waits until an fdatasync of the WAL that began after its
 * commit has finished: the first waiter syncs for everyone committed so
 * far, the others wait for it (or for the next one). So every acknowledged
 * write is on disk, and concurrent writers share one fdatasync; the syncer
 * thread (deferred durability) first waits, briefly, for the write
 * transactions already open or queued. Checkpoints
 * keep NORMAL's own syncs (WAL before copying, database after). */
#ifndef PARAPET_SQLITE_WRITER_H
#define PARAPET_SQLITE_WRITER_H

#include <stdbool.h>
#include <stdint.h>

struct sqlite_conn;
struct sqlite_writer;

/* The writer of a database file (by its full path), counting one more user;
 * NULL when there is none (an unnamed database, or too many files). */
struct sqlite_writer *writer_get(const char *path);
/* One user fewer; the last closes the connection. */
void writer_put(struct sqlite_writer *w);
/* Waits up to timeout_ms for the writer and returns its connection, opened
 * on first use; NULL (writer not taken) on timeout or if it cannot open. */
struct sqlite_conn *writer_enter(struct sqlite_writer *w, unsigned timeout_ms);
void writer_leave(struct sqlite_writer *w);
/* Counts (on) or no longer counts (off) a thread about to write again, as
 * a thread waiting in writer_enter counts: the syncer gathers meanwhile. */
void writer_expect(struct sqlite_writer *w, bool on);
/* While holding the writer, after a COMMIT that wrote: the sequence number
 * to wait for once the writer is left. */
uint64_t writer_committed(struct sqlite_writer *w);
/* Returns once the WAL is synced up to commit `seq`: 0, or -1 when syncing
 * failed (the commit may not be durable). A failed sync stops writes for
 * the life of the process (write_fence.h): writer_enter refuses, and no
 * later sync makes a commit durable. */
int writer_wait_durable(struct sqlite_writer *w, uint64_t seq);
/* The deferred form: calls done(arg, ok) from the writer's syncer thread
 * once commit `seq` is durable (ok) or a sync covering it failed. Returns 0
 * when it will call back, 1 when the commit is durable already (no call),
 * -1 on failure (no call). */
int writer_notify_durable(struct sqlite_writer *w, uint64_t seq, void (*done)(void *arg, bool ok), void *arg);
/* The syncer thread's sync waits up to `us` microseconds for write
 * transactions open or queued on the writer, so that it covers their
 * commits too (default 2,000; for tests). */
void writer_set_gather(struct sqlite_writer *w, unsigned us);
/* How many WAL syncs group commit has run (for tests and figures). */
uint64_t writer_syncs(struct sqlite_writer *w);
/* The checkpoints its checkpoint thread ran (passive, asked for by commits
 * past the interval: sqlite/conn.c, after_commit), for tests. */
uint64_t writer_checkpoints(struct sqlite_writer *w);

#endif
