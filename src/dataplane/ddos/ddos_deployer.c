/* ddos_deployer.c — see ddos_deployer.h. */
#include "dataplane/ddos/ddos_deployer.h"

#include <stdio.h>
#include <string.h>

#include "dataplane/model.h"
#include "deploy/deployer.h"

/* FastNetMon, BIRD and nftables keep their own plane (dp_plane: reload owed
 * between passes); the deployer's thread is the only one that runs them. */
static struct dp_plane fnm_plane, bird_plane, nft_plane;

static void say(char *msg, size_t len, const char *name, int rc, const struct dp_pass_result *r)
{
    size_t used = strlen(msg);
    if (rc != 0)
        snprintf(msg + used, len - used, "%s%s: %s", used ? "; " : "", name, r->error);
    else if (r->installed || r->deployed || r->failed || r->reloaded)
        snprintf(msg + used, len - used, "%s%s: %d sites; %d deployed, %d failed%s%s", used ? "; " : "", name,
                 r->sites, r->deployed, r->failed, r->installed ? "; new configuration installed" : "",
                 r->reloaded ? ", told" : "");
}

int ddos_deploy_run(struct store *s, struct ddos_settings *st, char *msg, size_t msg_len)
{
    msg[0] = '\0';
    json_t *model;
    if (dp_model_load(s, &model) != 0) {
        snprintf(msg, msg_len, "the stored configuration could not be read");
        return -1;
    }
    if (!fnm_plane.name)
        fnm_plane_init(&fnm_plane, &st->fnm);
    if (!bird_plane.name)
        bird_plane_init(&bird_plane, &st->bird);
    if (!nft_plane.name)
        nft_plane_init(&nft_plane, &st->nft);
    int rc = 0;
    struct dp_pass_result res;
    if (st->fnm_on) {
        int one = dp_plane_pass(s, &fnm_plane, model, &res);
        say(msg, msg_len, "fastnetmon", one, &res);
        rc |= one;
    }
    if (st->bird_on) {
        int one = dp_plane_pass(s, &bird_plane, model, &res);
        say(msg, msg_len, "bird", one, &res);
        rc |= one;
    }
    if (st->nft_on) {
        nft_plane_refresh(&nft_plane);
        int one = dp_plane_pass(s, &nft_plane, model, &res);
        say(msg, msg_len, "nftables", one, &res);
        rc |= one;
    }
    json_decref(model);
    return rc ? -1 : 0;
}

static int pass(struct store *s, void *arg, char *msg, size_t msg_len)
{
    return ddos_deploy_run(s, arg, msg, msg_len);
}

/* {OPS}, {OPH} and the OP dashboards' writes; the customer's OP and CP
 * trees ({OPC}, {CPC}; not its AP tree or webhooks); the ingest (DDoS
 * events open and close diversions). */
static struct deployer ddos_deployer = {
    .name = "ddos",
    .paths = {"/api/specp/op/", "/api/spe/customer/*/op/", "/api/spe/customer/*/cp/", "/ingest/", NULL},
    .pass = pass,
};

int ddos_deployer_start(struct ddos_settings *st, const struct store_config *store_cfg)
{
    ddos_deployer.arg = st;
    ddos_deployer.interval_s = st->interval_s;
    return deployer_start(&ddos_deployer, store_cfg);
}

void ddos_deployer_stop(void)
{
    deployer_stop(&ddos_deployer);
}
