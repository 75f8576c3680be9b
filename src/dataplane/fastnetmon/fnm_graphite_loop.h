/* fnm_graphite_loop.h — the receiver of FastNetMon's Graphite export
 * (fnm_graphite.h) in `parapet serve`: a thread with its own store
 * connection listens on a TCP address, reads the lines of every connection
 * (FastNetMon opens several per push and closes each after one write), and
 * every second stores the per-host flow records of the complete minutes
 * through the ingest (dataplane/ingest_batch.h).
 *
 * A host no site protects is refused by the ingest and left out; it is then
 * not sent again for 5 minutes (the retry cost of a refused record grows
 * with the batch). A batch the store fails on is tried again the next
 * second. At stop the minute in progress is stored from the pushes seen so
 * far; after a restart the same minute's record is a duplicate and changes
 * nothing. The Graphite protocol has no authentication: listen on loopback
 * (FastNetMon 1.2.4 only sends to an IPv4 literal). */
#ifndef PARAPET_FNM_GRAPHITE_LOOP_H
#define PARAPET_FNM_GRAPHITE_LOOP_H

#include "store/store.h"

/* listen: "ADDR:PORT" or "[V6]:PORT" (a literal; port 0: any free one).
 * Binds before it returns: 0, or -1 with a message on stderr. cfg must
 * outlive fnm_graphite_stop. */
int fnm_graphite_start(const char *listen, const struct store_config *cfg);
/* The port it listens on (0 when stopped). */
int fnm_graphite_port(void);
/* Stores what it has and stops; nothing when it is not running. */
void fnm_graphite_stop(void);

#endif
