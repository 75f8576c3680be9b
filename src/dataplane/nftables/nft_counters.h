/* nft_counters.h — what the scrubber dropped and passed, from its named
 * counters (nft_render.h), as `flow` records for the ingest.
 *
 * A reading is `reset counters table inet T` through libnftables with JSON
 * output (read and zeroed in one step, so each reading holds exactly the
 * packets since the one before), joined by counter name with counters.map
 * (the address each counter's traffic is stored under, the action, the
 * countermeasure). Readings add up in one sum per counter until the sums are
 * taken. A new ruleset keeps the counters (nft_plane.c); the deploy takes a
 * reading before each install all the same, for the case where the table
 * must be replaced whole. A counter that counted nothing makes no record. */
#ifndef PARAPET_NFT_COUNTERS_H
#define PARAPET_NFT_COUNTERS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* Pure: the mapped counters of `nft -j` output that counted something:
 * [{"name", "address", "action", "policy" ("" for none), "protocol",
 * "packets", "bytes"}]. Counters absent from the map are left out. NULL when the
 * output is not nftables' JSON. */
json_t *nft_counter_readings(const char *nft_json, const char *map_text);

/* Pure: one `flow` record (an NDJSON line, as a JSON string) per sum
 * {name: {address, action, policy, protocol, packets, bytes}}: flow_id
 * `nft-<from>-<digest of the name>`, time `from`, router "nftables",
 * src_ip 0.0.0.0 (or :: for IPv6; counters name no sources), dst_ip the
 * address, protocol (the counter's one, else 0), action, policy_type (when
 * the counter has one). */
json_t *nft_counter_records(const json_t *sums, int64_t from);

/* Takes a reading of table `table` (inet) with the map at map_path and adds
 * it to the sums: 0; 1 when there is no such table (nothing to read); -1
 * when nftables failed (why). */
int nft_counters_collect(const char *table, const char *map_path, char *why, size_t why_len);
/* The sums so far (new reference; the caller owns them), emptied. */
json_t *nft_counters_take(void);

#endif
