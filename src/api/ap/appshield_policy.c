/* appshield_policy.c — the one policy document per domain port that
 * AppShield and WAF keep (see appshield.h), and the AppShield defaults. */
#include <string.h>

#include "api/ap/ap_kinds.h"
#include "api/ap/appshield.h"
#include "core/resource.h"

/* Named "policy" so that a domain port holds at most one of each kind. */
static const char POLICY_NAME[] = "policy";
const struct res_kind AP_APPSHIELD = {"ap.appshield", .name_scope = RES_NAME_IN_PARENT};

const struct resource *policy_owner(const struct port_policy *p)
{
    return ap_port_is_site_level(&p->port) ? &p->site : &p->port;
}

int policy_chain_load(struct req *r, struct port_policy *p)
{
    memset(p, 0, sizeof *p);
    return ap_domain_port_chain(r, &p->site, &p->port);
}

int port_policy_load(struct req *r, const struct res_kind *kind, json_t *(*defaults)(void),
                     struct port_policy *p)
{
    if (policy_chain_load(r, p) != 0)
        return -1;
    struct res_query q = {
        .kind = kind->name, .customer_id = r->customer.id, .parent_rid = policy_owner(p)->rid};
    int rc = r->store->ops->res_get(r->store, &q, NULL, POLICY_NAME, &p->res);
    if (rc == STORE_NOT_FOUND) {
        memset(&p->res, 0, sizeof p->res);
        p->res.doc = defaults();
    } else if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    p->doc = req_hold(r, p->res.doc);
    /* members a document stored by an older release lacks take their defaults */
    json_t *def = defaults();
    json_object_update_missing(p->doc, def);
    json_decref(def);
    return 0;
}

int port_policy_save(struct req *r, const struct res_kind *kind, struct port_policy *p)
{
    int rc;
    if (p->res.rid) {
        rc = r->store->ops->res_update(r->store, &p->res);
    } else {
        snprintf(p->res.customer_id, sizeof p->res.customer_id, "%s", r->customer.id);
        snprintf(p->res.name, sizeof p->res.name, "%s", POLICY_NAME);
        p->res.parent_rid = policy_owner(p)->rid;
        rc = r->store->ops->res_create(r->store, kind, &p->res);
    }
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    return 0;
}

json_t *appshield_default(void)
{
    return json_pack("{s:[],s:[],s:[],s:o}", "ip_black_list", "ip_white_list", "status_codes", "switches",
                     appshield_switches_default());
}

int appshield_load(struct req *r, struct port_policy *p)
{
    return port_policy_load(r, &AP_APPSHIELD, appshield_default, p);
}
