/* retention.h — telemetry older than the retention period (and of deleted
 * sites) is removed in small transactions, so that the server keeps
 * answering while it runs (serve: every 5 minutes; admin telemetry purge). */
#ifndef PARAPET_TEL_RETENTION_H
#define PARAPET_TEL_RETENTION_H

#include <stdint.h>

#include "store/store.h"

enum { TEL_RETENTION_DAYS_DEFAULT = 35 };

/* Removes what is older than now - days; *removed counts rows. 0 or -1. */
int telemetry_retention_run(struct store *s, int64_t now, long days, long *removed);

#endif
