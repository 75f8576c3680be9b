/* ddos_deployer.h — the Origin Protection and CleanPipe data planes
 * (FastNetMon for detection, BIRD for diversion and FlowSpec, the nftables
 * scrubber applying the mitigations to packets) as one
 * background deployer of `parapet serve` (deploy/deployer.h): each pass
 * loads the stored configuration once (dataplane/model.h) and runs the
 * pass of each plane switched on (dataplane/plane.h). Woken by committed
 * writes under the OP and CP paths and by the ingest (an event opened or
 * closed changes what BIRD announces). */
#ifndef PARAPET_DDOS_DEPLOYER_H
#define PARAPET_DDOS_DEPLOYER_H

#include <stdbool.h>
#include <stddef.h>

#include "dataplane/bird/bird_plane.h"
#include "dataplane/fastnetmon/fnm_plane.h"
#include "dataplane/nftables/nft_plane.h"
#include "store/store.h"

struct ddos_settings {
    bool fnm_on, bird_on, nft_on;
    struct fnm_plane_config fnm;
    struct bird_plane_config bird;
    struct nft_plane_config nft; /* the nftables scrubber (off unless asked for) */
    unsigned interval_s;
};

/* One pass of both planes: 0, or -1 (msg says why); msg gets a line for
 * the log ("" when nothing changed). */
int ddos_deploy_run(struct store *s, struct ddos_settings *st, char *msg, size_t msg_len);

int ddos_deployer_start(struct ddos_settings *st, const struct store_config *store_cfg);
void ddos_deployer_stop(void);

#endif
