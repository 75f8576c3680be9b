/* pgsql/version_watch.h — the change counter (data_version) as this process
 * knows it without asking: a thread with a connection of its own LISTENs
 * on parapet_version, where every commit that wrote announces its bump
 * (pg_commit; the HTTP layer's writes, by the group flush that makes them
 * durable: pgsql/flush.c), and reads the counter itself every PG_WATCH_BEAT_MS. A read
 * transaction takes the known value instead of a round trip (and sends no
 * BEGIN until its first statement), so a GET answered from the caches
 * costs PostgreSQL nothing.
 *
 * The bound: the known value is trusted only while the last completed
 * read of the counter was sent less than PG_WATCH_FRESH_MS ago; then every
 * bump committed before that read is in it, and a write acknowledged on
 * any node (its bump comes before the answer) is seen by every other
 * node's reads at most PG_WATCH_FRESH_MS later, usually within a NOTIFY's
 * delivery (a few ms). Past that (the watcher's connection lost or slow),
 * read transactions read the counter themselves, as before. This process's
 * own bumps count at once (pg_version_saw). */
#ifndef PARAPET_PGSQL_VERSION_WATCH_H
#define PARAPET_PGSQL_VERSION_WATCH_H

#include <stdbool.h>
#include <stdint.h>

enum { PG_WATCH_BEAT_MS = 100, PG_WATCH_FRESH_MS = 250 };

/* Starts the process's watcher once (later calls do nothing): 0 or -1. */
int pg_version_watch_start(const char *conninfo);
/* The counter's value (as data_version answers it) when it is fresh. */
bool pg_version_known(uint64_t *version);
/* A value this process's commit made (it counts before any notice). */
void pg_version_saw(uint64_t version);
/* Stops the watcher (tests; a process may just exit). */
void pg_version_watch_stop(void);

#endif
