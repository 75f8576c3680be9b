/* bw_loop.h — the raw and clean bandwidth of Application Protection sites
 * from the deployed nginx's access log (access_bw.h): a background pass of
 * `parapet serve` (deploy/deployer.h, every second) follows the log
 * (waf_tail.h, its place kept in run/access-log.place), finds each
 * request's site by the domain that answered it, and stores the sums of
 * each site and minute as `bandwidth` records of node "nginx" through the
 * ingest. The sums of a minute live in memory until the minute is an hour
 * old: a restart in the middle of a minute sends that minute again with
 * only what came after the restart (the last sample wins). */
#ifndef PARAPET_NGINX_BW_LOOP_H
#define PARAPET_NGINX_BW_LOOP_H

#include "dataplane/nginx/nginx_settings.h"
#include "store/store.h"

int bw_loop_start(const struct nginx_settings *st, const struct store_config *store_cfg);
void bw_loop_stop(void);

#endif
