/* ap_kinds.c — see ap_kinds.h. */
#include "api/ap/ap_kinds.h"

#include <string.h>

#include "base/text.h"
#include "core/resource.h"
#include "core/route.h"

const struct res_kind AP_SITE = {"ap.site", .name_scope = RES_NAME_IN_PARENT};
const struct res_kind AP_VIP = {"ap.vip", .parent = "ap.site", .name_scope = RES_NAME_GLOBAL};
const struct res_kind AP_DOMAIN = {"ap.domain", .parent = "ap.site", .name_scope = RES_NAME_GLOBAL,
                                   .restricts_parent = true};
const struct res_kind AP_DOMAIN_PORT = {"ap.domain_port", .parent = "ap.domain",
                                        .name_scope = RES_NAME_IN_PARENT};

int ap_site_from_path(struct req *r, struct resource *site)
{
    if (r->route->access == ACCESS_SITE) { /* the dispatcher loaded and checked it */
        *site = r->site;
        return 0;
    }
    return res_from_path(r, AP_SITE.name, "site_id", "site", NULL, site);
}

int ap_domain_from_path(struct req *r, const struct resource *site, struct resource *domain)
{
    return res_from_path(r, AP_DOMAIN.name, "domain_id", "domain", site, domain);
}

/* The chain of ap_domain_port_from_path, with the documents of the site
 * and the port or without them (docs false: only their rows). */
static int domain_port(struct req *r, struct resource *site, struct resource *port, bool docs)
{
    int loaded = r->route->access == ACCESS_SITE || docs
                     ? ap_site_from_path(r, site)
                     : res_head_from_path(r, AP_SITE.name, "site_id", "site", NULL, site);
    if (loaded != 0)
        return -1;
    const char *id = path_param(r, "domain_port_id");
    memset(port, 0, sizeof *port);
    if (id && strcmp(id, AP_SITE_LEVEL_PORT_ID) == 0) {
        copy_text(port->id, sizeof port->id, AP_SITE_LEVEL_PORT_ID);
        copy_text(port->customer_id, sizeof port->customer_id, site->customer_id);
        return 0;
    }
    /* The port is found among the customer's, then its domain (the port's
     * parent, an ap.domain by the store's parent check) must be a domain of
     * this site: a port of another site answers like no port. */
    struct res_query q = {.kind = AP_DOMAIN_PORT.name, .customer_id = site->customer_id, .without_doc = !docs};
    int rc = id && *id ? r->store->ops->res_get(r->store, &q, id, NULL, port) : STORE_NOT_FOUND;
    if (rc == STORE_OK) {
        req_hold(r, port->doc);
        int64_t domain_parent = 0;
        rc = r->store->ops->res_parent(r->store, port->parent_rid, &domain_parent);
        if (rc == STORE_OK && domain_parent == site->rid)
            return 0;
        if (rc == STORE_OK)
            rc = STORE_NOT_FOUND;
    }
    memset(port, 0, sizeof *port);
    if (rc == STORE_NOT_FOUND)
        reply_error(r, E_NOT_FOUND, "domain_port_id: no such domain port");
    else
        reply_store_error(r, rc);
    return -1;
}

int ap_domain_port_from_path(struct req *r, struct resource *site, struct resource *port)
{
    return domain_port(r, site, port, true);
}

int ap_domain_port_chain(struct req *r, struct resource *site, struct resource *port)
{
    return domain_port(r, site, port, false);
}
