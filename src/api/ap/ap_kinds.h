/* ap_kinds.h — the resource kinds of Application Protection and the loads
 * every AP handler (sites, domains, AppShield, WAF) shares.
 *
 *   ap.site            top level (per customer); name = site_name
 *   ap.vip             a VIP the site holds; name = the address (unique on the platform)
 *   ap.domain          under a site; name = the domain (A-labels, unique on the platform);
 *                      while one exists the site cannot be deleted
 *   ap.domain_port     under a domain; name = the port number (so no port is both HTTP and
 *                      HTTPS); doc {"domain_id", "port", "scheme": "http"|"https", switches}
 *
 * A domain_port_id is an ap.domain_port's id; AP_SITE_LEVEL_PORT_ID is the
 * reserved value that names the site level (doc 002, {OVW}). */
#ifndef PARAPET_API_AP_KINDS_H
#define PARAPET_API_AP_KINDS_H

#include "core/req.h"

extern const struct res_kind AP_SITE, AP_DOMAIN, AP_DOMAIN_PORT, AP_VIP;

#define AP_SITE_LEVEL_PORT_ID "449cbcf57ff0ba74"

/* The site of the path's {site_id}: r->site on ACCESS_SITE routes, else
 * loaded for r->customer. On failure replies 404 "site_id: no such site"
 * and returns -1. site->doc belongs to the request. */
int ap_site_from_path(struct req *r, struct resource *site);

/* The domain of the path's {domain_id} under `site` (404 "domain_id: no
 * such domain" otherwise). */
int ap_domain_from_path(struct req *r, const struct resource *site, struct resource *domain);

/* Loads and checks the chain customer -> site -> domain port of the path's
 * {site_id} and {domain_port_id}. For AP_SITE_LEVEL_PORT_ID *port is zeroed
 * (port->rid == 0: the site level) and its id is the reserved value; else
 * the port must belong to a domain of that site. Any break in the chain,
 * an unknown id and another tenant's id all reply the same 404
 * ("domain_port_id: no such domain port") and return -1. Both docs belong
 * to the request. */
int ap_domain_port_from_path(struct req *r, struct resource *site, struct resource *port);
/* The same chain checked without reading either document (site->doc and
 * port->doc NULL, unless the route's dispatcher loaded the site): for
 * what hangs under the port and needs only its key. */
int ap_domain_port_chain(struct req *r, struct resource *site, struct resource *port);

/* Whether a loaded port (from ap_domain_port_from_path) is the site level. */
static inline int ap_port_is_site_level(const struct resource *port)
{
    return port->rid == 0;
}

#endif
