/* write_fence.h — what the server does when the disk fails under its
 * database, and when it fills.
 *
 * A failed sync of the write-ahead log (PostgreSQL's lesson of 2018): the
 * kernel may have dropped the pages it could not write, marked them clean,
 * and reports the error once; a later sync that succeeds proves nothing
 * about the earlier writes. So from the first failure on, the process
 * acknowledges no write until it is restarted (and recovers from what is on
 * disk): the failure is logged once, the store refuses write transactions,
 * requests that write are answered 503 50300002, the writes that waited on
 * the failed sync too (never 200), and /metrics shows
 * parapet_store_writes_stopped 1. Reads go on.
 *
 * A full disk is not that: a write that finds no space fails before its
 * commit is written, so nothing was acknowledged and nothing is lost; the
 * request is answered 507 50700001 and writes resume once space is freed.
 * The backend notes it (on the thread of the failed transaction) for the
 * HTTP layer to answer so. */
#ifndef PARAPET_WRITE_FENCE_H
#define PARAPET_WRITE_FENCE_H

#include <stdbool.h>

struct strbuf;

/* Stops writes for the life of the process; `what` (the file) and `err`
 * (errno, or 0 when unknown) are logged at the first call. */
void write_fence_trip(const char *what, int err);
bool write_fence_tripped(void);

/* A store operation of this thread failed for lack of space. */
void store_note_disk_full(void);
/* Whether one did since the last call (which clears it). */
bool store_take_disk_full(void);

/* parapet_store_writes_stopped, parapet_store_sync_failures_total and
 * parapet_store_disk_full_total in Prometheus' text format. */
void write_fence_metrics(struct strbuf *b);

#endif
