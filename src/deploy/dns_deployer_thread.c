/* dns_deployer_thread.c — the DNS zones' background deployer of `parapet
 * serve` (deploy/deployer.h): one dns_deploy_run per pass. */
#include <stdio.h>

#include "deploy/deployer.h"
#include "deploy/dns_deployer.h"

static int pass(struct store *s, void *arg, char *msg, size_t msg_len)
{
    const struct dns_deploy_config *cfg = arg;
    struct dns_deploy_result res;
    int rc = dns_deploy_run(s, cfg, &res);
    if (rc != 0)
        snprintf(msg, msg_len, "%s", res.error);
    else if (res.installed || res.deployed || res.failed)
        snprintf(msg, msg_len, "%d zones; %d deployed, %d failed%s", res.zones, res.deployed, res.failed,
                 res.installed ? "; new configuration installed" : "");
    return rc;
}

/* Woken by the zone handlers themselves (after_commit), not by path. */
static struct deployer dns_deployer = {.name = "dns", .pass = pass};

int dns_deployer_start(const struct dns_deploy_config *cfg, const struct store_config *store_cfg)
{
    dns_deployer.arg = (void *)cfg;
    dns_deployer.interval_s = cfg->interval_s;
    return deployer_start(&dns_deployer, store_cfg);
}

void dns_deployer_wake(void)
{
    if (dns_deployer.running)
        deployer_wake(&dns_deployer);
}

void dns_deployer_stop(void)
{
    deployer_stop(&dns_deployer);
}
