/* sim_sites.h — the sites of a store, as the simulator (simulate.h) sees
 * them: Origin Protection and CleanPipe sites with their address blocks,
 * Application Protection sites with their VIPs and domain ports. */
#ifndef PARAPET_TEL_SIM_SITES_H
#define PARAPET_TEL_SIM_SITES_H

#include "store/store.h"
#include "telemetry/simulate.h"

/* Reads them in a read transaction of its own: 0, or -1 (store failure). */
int sim_sites_load(struct store *s, struct sim_site **out, size_t *n);
void sim_sites_free(struct sim_site *sites, size_t n);

#endif
