/* pm_collector.h — pmacct's collector run by `parapet serve` and streamed
 * into the ingest. A thread with its own store connection renders the
 * configuration from stored state (pm_render.h) every 5 s, and (re)starts
 * nfacctd (or sfacctd) when it changed; the daemon's standard output is a
 * pipe the thread reads as it comes: each purge (a batch of JSON rows
 * between `purge_init` and `purge_close`) is folded per site and minute
 * (pm_fold.h) and stored as `flow` records through the ingest. A batch the
 * store fails on is tried again every second (at most 200,000 records are
 * kept). The daemon runs in a process group of its own and is stopped by
 * its PID (SIGINT, then a datagram to its port: pmacct acts on signals when
 * a datagram arrives); once its output ends (or after 5 s) the group is
 * killed, so that no plugin outlives it; what it purged on its way out is
 * stored too. */
#ifndef PARAPET_PM_COLLECTOR_H
#define PARAPET_PM_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "dataplane/pmacct/pm_fold.h"
#include "dataplane/pmacct/pm_render.h"
#include "store/store.h"

struct pm_collector_config {
    struct pm_settings render;
    const char *binary; /* nfacctd or sfacctd */
};

/* One line of pmacct's JSON output: 1 a row (filled, router = peer_ip_src
 * or ""), 2 the end of a batch, 3 its start (batch = the writer's id), 0
 * anything else, -1 not pmacct's JSON. Pure. */
int pm_parse_line(const char *line, struct pm_row *row, char *router, size_t router_len, char *batch,
                  size_t batch_len);

/* 0, or -1 (a message on stderr). cfg and store_cfg must outlive the stop. */
int pm_collector_start(const struct pm_collector_config *cfg, const struct store_config *store_cfg);
void pm_collector_stop(void);
/* Records stored so far (for tests and the stop message). */
long pm_collector_stored(void);

#endif
