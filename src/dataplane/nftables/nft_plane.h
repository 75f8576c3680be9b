/* nft_plane.h — the nftables scrubber as a data plane (dataplane/plane.h):
 * its renderer (nft_render.h), its checker (a libnftables dry run of the
 * whole candidate: the kernel checks every rule, nothing is committed), and
 * its "reload": the installed parapet.nft applied through libnftables as one
 * transaction. A refused apply leaves the kernel's ruleset as it was (the
 * last good one) and is tried again on the next pass. The counters are read
 * before each install (nft_counters.h). All of it works in the network
 * namespace of the thread that runs the pass. */
#ifndef PARAPET_NFT_PLANE_H
#define PARAPET_NFT_PLANE_H

#include "dataplane/nftables/nft_render.h"
#include "dataplane/plane.h"

struct nft_plane_config {
    struct nft_settings render;
    const char *dir; /* absolute: parapet.nft and counters.map */
};

/* Fills p for cfg (which must outlive p). The first pass applies the
 * installed ruleset even when nothing changed (the kernel forgets it at a
 * reboot; parapet may start after one). */
void nft_plane_init(struct dp_plane *p, const struct nft_plane_config *cfg);
/* Before a pass: owes an apply when the table is missing from the kernel
 * (someone deleted it, or the host rebooted). */
void nft_plane_refresh(struct dp_plane *p);
/* Reads the counters into the sums (nft_counters.h): 0, 1 no table, -1. */
int nft_plane_collect(const struct nft_plane_config *cfg, char *why, size_t why_len);

#endif
