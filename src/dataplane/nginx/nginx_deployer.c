/* nginx_deployer.c — the Application Protection data plane's background
 * deployer of `parapet serve` (deploy/deployer.h): one nginx_deploy_run per
 * pass, woken by committed writes under the AP paths. */
#include <stdio.h>

#include "dataplane/nginx/nginx_deploy.h"
#include "deploy/deployer.h"

static int pass(struct store *s, void *arg, char *msg, size_t msg_len)
{
    const struct nginx_settings *st = arg;
    struct nginx_deploy_result res;
    int rc = nginx_deploy_run(s, st, &res);
    if (rc != 0)
        snprintf(msg, msg_len, "%s", res.error);
    else if (res.installed || res.deployed || res.failed)
        snprintf(msg, msg_len, "%d sites; %d deployed, %d failed%s%s (render %.3f s, nginx -t %.3f s)", res.sites,
                 res.deployed, res.failed, res.installed ? "; new configuration installed" : "",
                 res.reloaded ? ", nginx reloaded" : "", res.render_s, res.check_s);
    return rc;
}

/* The AP write paths: {SAP}, {CAP} (the customer's AP tree), {ASH}, {WAF}. */
static struct deployer nginx_deployer = {
    .name = "nginx",
    .paths = {"/api/specp/ap/", "/api/spe/customer/*/ap/", "/api/policy/appshield/", "/api/spe/ap/", NULL},
    .pass = pass,
};

int nginx_deployer_start(const struct nginx_settings *st, const struct store_config *store_cfg)
{
    nginx_deployer.arg = (void *)st;
    nginx_deployer.interval_s = st->interval_s;
    return deployer_start(&nginx_deployer, store_cfg);
}

void nginx_deployer_stop(void)
{
    deployer_stop(&nginx_deployer);
}
