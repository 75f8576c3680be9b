/* nginx_deploy.h — one deploy pass of the Application Protection data
 * plane, and its background deployer.
 *
 * A pass reads every AP site, renders each one's fragment (nginx_render.h),
 * and compares it with the site's deploy state (plane "nginx"): a fragment
 * already deployed is kept, a fragment that failed before is not tried again
 * (the site keeps being served with its last good fragment until its
 * settings change), a new one is pending. With anything pending the whole
 * configuration (nginx.conf, modsec-base.conf, sites.conf) is checked with
 * `nginx -t` under its own name (check.conf, sites.conf.new); when nginx
 * refuses it, each pending site is checked alone and the ones nginx refuses
 * are marked failed with nginx's message and left at their last good
 * fragment. Then sites.conf is replaced atomically, files no fragment names
 * any more are removed, the running nginx (its pid file) gets SIGHUP, and
 * the states are marked. Passes of several processes take turns (a lock). */
#ifndef PARAPET_NGINX_DEPLOY_H
#define PARAPET_NGINX_DEPLOY_H

#include <stdbool.h>

#include "dataplane/nginx/nginx_settings.h"
#include "store/store.h"

struct nginx_deploy_result {
    int sites;       /* AP sites in the store */
    int deployed;    /* pending sites now deployed */
    int failed;      /* pending sites now failed */
    bool installed;  /* a changed sites.conf was installed */
    bool reloaded;   /* a running nginx was told to reload */
    double render_s, check_s; /* seconds spent rendering, and in `nginx -t` */
    char error[512]; /* a failure of the pass as a whole ("" if none) */
};

int nginx_deploy_run(struct store *s, const struct nginx_settings *st, struct nginx_deploy_result *res);

/* The background deployer of `parapet serve` (deploy/deployer.h), woken by
 * committed writes under the AP API paths. */
int nginx_deployer_start(const struct nginx_settings *st, const struct store_config *store_cfg);
void nginx_deployer_stop(void);

#endif
