/* waf_loop.h — the way back from the WAF: a background pass of `parapet
 * serve` (deploy/deployer.h, every second) that follows ModSecurity's JSON
 * audit log of the deployed nginx (waf_tail.h), turns its entries into
 * waf_log records (waf_audit.h) and stores them through the ingest
 * (telemetry/ingest.h), which attributes them to their domain port and
 * groups them into WAF events. A record the ingest refuses (its domain port
 * is gone) is left out and logged; the place in the log is saved once the
 * records are committed, so a crash re-reads at most one batch, which the
 * ingest then counts as duplicates (by _id). */
#ifndef PARAPET_WAF_LOOP_H
#define PARAPET_WAF_LOOP_H

#include "dataplane/nginx/nginx_settings.h"
#include "store/store.h"

int waf_loop_start(const struct nginx_settings *st, const struct store_config *store_cfg);
void waf_loop_stop(void);

#endif
