/* dns_deployer.h — turns the DNS zones in the store into a Knot DNS
 * configuration and keeps each zone's deploy state (pending → deployed or
 * failed, with the reason kept).
 *
 * One pass: take a snapshot of every zone, render zones.conf (knot_conf.h)
 * from the current settings of pending zones and the last served settings of
 * the others, validate it with `knotc conf-check` when knotc is available,
 * and install it atomically next to a knot.conf that includes it; write a
 * minimal zone file for each new standard zone and remove the files of
 * zones that are gone; reload knotd if asked; mark the zones. A zone whose
 * settings do not validate on their own is marked failed and keeps being
 * served as it last was, so one bad zone never holds back the others. */
#ifndef PARAPET_DNS_DEPLOYER_H
#define PARAPET_DNS_DEPLOYER_H

#include <stdbool.h>

#include "deploy/knot_conf.h"
#include "store/store.h"

struct dns_deploy_config {
    struct knot_settings knot;
    const char *knotc;   /* knotc program for conf-check and reload; NULL: no check */
    bool reload;         /* run `knotc reload` after installing a changed configuration */
    unsigned interval_s; /* the background deployer's sweep interval */
};

struct dns_deploy_result {
    int zones;       /* zones in the store */
    int deployed;    /* pending zones now deployed */
    int failed;      /* pending zones now failed */
    bool installed;  /* a changed zones.conf was installed */
    char error[512]; /* a failure not tied to one zone ("" if none): zones stay pending */
};

/* One pass (also `parapet admin dns deploy`). Returns 0, or -1 with
 * res->error set. Passes of several processes on one directory take turns
 * (a lock file). */
int dns_deploy_run(struct store *s, const struct dns_deploy_config *cfg, struct dns_deploy_result *res);

/* The background deployer of `parapet serve`: a pass at start, then one
 * shortly after every wake-up and every interval_s. */
int dns_deployer_start(const struct dns_deploy_config *cfg, const struct store_config *store_cfg);
void dns_deployer_wake(void); /* a zone changed (called after the commit) */
void dns_deployer_stop(void);

#endif
