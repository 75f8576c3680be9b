/* sim_ingest.h — the simulator's records straight into the store, through
 * telemetry_ingest, one write transaction per batch. */
#ifndef PARAPET_TEL_SIM_INGEST_H
#define PARAPET_TEL_SIM_INGEST_H

#include "telemetry/ingest.h"
#include "telemetry/simulate.h"

enum { SIM_INGEST_BATCH = 50000 };

/* Generates and stores; `now` bounds the record times as for any ingest.
 * 0 (total counts what was stored), 1 a record was refused (msg says which;
 * earlier batches stay committed), -1 store failure. */
int sim_ingest(struct store *s, const struct sim_site *sites, size_t n, const struct sim_params *p, int64_t now,
               struct tel_ingest_result *total, struct sim_counts *counts, char *msg, size_t msgsize);

#endif
