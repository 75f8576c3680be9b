/* ap_cname.c — {SAP}/cname_info and {CAP}/cname_info: the CNAME record the
 * operator's zone gives the site (<site_id>.<catalogue ap_cname_domain>,
 * TTL ap_cname_ttl), the site's VIPs behind it and its backend. The record
 * is enabled once the site has a domain (something points at it); the
 * protection type is 0 (VIP): every site holds its VIPs. */
#include "api/ap/ap_common.h"
#include "core/catalogue.h"

static json_t *vip_status(const json_t *addresses)
{
    json_t *out = json_array();
    size_t i;
    json_t *a;
    json_array_foreach (addresses, i, a)
        json_array_append_new(out, json_pack("{s:O,s:s}", "ip", a, "status", "active"));
    return out;
}

int ap_site_cname_info(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    json_t *zone = catalogue_value(r, "ap_cname_domain");
    json_t *ttl = zone ? catalogue_value(r, "ap_cname_ttl") : NULL;
    if (!ttl)
        return 0;
    struct res_query q = {.kind = AP_DOMAIN.name, .customer_id = site.customer_id, .parent_rid = site.rid};
    json_t *rows = NULL;
    long domains = 0;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &domains);
    json_decref(rows);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *d = site.doc;
    return reply_result(r, json_pack("{s:O,s:O,s:O,s:O,s:i,s:[s+++],s:O,s:{s:o,s:o},s:i}", "backend_host",
                                     json_object_get(d, "backend_host"), "backend_ip",
                                     json_object_get(d, "backend_ip"), "dns", json_object_get(d, "dns"),
                                     "backend_type", json_object_get(d, "backend_type"), "cname_enable",
                                     domains > 0 ? 1 : 0, "cname_record", site.id, ".",
                                     json_string_value(zone) ? json_string_value(zone) : "", "", "cname_ttl",
                                     ttl, "cname_vip_status", "ipv4", vip_status(json_object_get(d, "vip")),
                                     "ipv6", vip_status(json_object_get(d, "vip_v6")), "protection_type", 0));
}
