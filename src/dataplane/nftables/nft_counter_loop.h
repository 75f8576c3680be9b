/* nft_counter_loop.h — the way back from the nftables scrubber in `parapet
 * serve`: a thread with its own store connection reads the scrubber's
 * counters every interval (at whole multiples of it: every minute on the
 * minute by default), and stores what each counter dropped or passed since
 * the last reading as one `flow` record through the ingest
 * (nft_counters.h, dataplane/ingest_batch.h), stamped with the start of the
 * interval it covers. A batch the store fails on is tried again every second
 * (at most 100,000 records are kept); a record the ingest refuses (its
 * address is no longer protected) is left out. At stop, a last reading is
 * stored. It reads in the network namespace parapet runs in. */
#ifndef PARAPET_NFT_COUNTER_LOOP_H
#define PARAPET_NFT_COUNTER_LOOP_H

#include "dataplane/nftables/nft_plane.h"
#include "store/store.h"

/* interval_s >= 1. cfg and store_cfg must outlive nft_counter_loop_stop.
 * 0, or -1 (a message on stderr). */
int nft_counter_loop_start(const struct nft_plane_config *cfg, unsigned interval_s,
                           const struct store_config *store_cfg);
/* Stores a last reading and stops; nothing when it is not running. */
void nft_counter_loop_stop(void);

#endif
