/* ingest_batch.h — what the data planes see (nginx's log followers,
 * FastNetMon's notify script and traffic export) is stored through the
 * ingest (telemetry/ingest.h), one transaction a batch, like any producer's
 * records. */
#ifndef PARAPET_DP_INGEST_BATCH_H
#define PARAPET_DP_INGEST_BATCH_H

#include <jansson.h>
#include <stdint.h>

#include "store/store.h"

/* Stores records (an array of NDJSON lines, as strings); a record the
 * ingest refuses is dropped (logged with `what`) and the rest tried again.
 * 0, or -1 when the store failed. */
int dp_ingest_records(struct store *s, json_t *records, int64_t now, const char *what, long *stored,
                      long *dropped);

#endif
