/* ap_site.c — Application Protection sites: create (with its VIPs), read,
 * delete (refused while the site has domains). */
#include <string.h>

#include "api/ap/ap_common.h"
#include "base/text.h"
#include "core/catalogue.h"

json_t *ap_site_doc_new(const char *service_plan)
{
    return json_pack("{s:s,s:[],s:[],s:o}", "service_plan", service_plan, "vip", "vip_v6", "switch",
                     ap_switch_site_defaults());
}

static long count_sites(struct req *r, int *rc)
{
    struct res_query q = {.kind = AP_SITE.name, .customer_id = r->customer.id, .parent_rid = RES_TOP_LEVEL};
    json_t *rows = NULL;
    long total = 0;
    *rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    json_decref(rows);
    return total;
}

int ap_site_create(struct req *r)
{
    int rc;
    long n = count_sites(r, &rc);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    if (n >= AP_MAX_SITES_PER_CUSTOMER)
        return reply_error(r, E_LIMIT,
                           "site_name: a customer may have at most %d Application Protection sites",
                           AP_MAX_SITES_PER_CUSTOMER);
    if (catalogue_require_keys(r, "ap_service_plans", "service_plan", "service plans") != 0)
        return 0;
    json_t *doc = req_hold(r, ap_site_doc_new(field_str(r, "service_plan")));
    static const struct ap_backend_names names = {"backend_ip", "backend_host", "backend_dns"};
    if (ap_backend_apply(r, doc, &names) != 0)
        return 0;
    struct resource site = {.doc = doc};
    copy_text(site.customer_id, sizeof site.customer_id, r->customer.id);
    copy_text(site.name, sizeof site.name, field_str(r, "site_name"));
    rc = r->store->ops->res_create(r->store, &AP_SITE, &site);
    if (rc == STORE_CONFLICT)
        return reply_error(r, E_CONFLICT, "site_name: the customer already has a site named %s", site.name);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    if (ap_vip_allocate(r, &site, doc, NET_V4) != 0 || ap_vip_allocate(r, &site, doc, NET_V6) != 0 ||
        ap_update(r, &site) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s}", "site_id", site.id));
}

/* The site properties (doc 002, Site): backend_type is a string on read. */
int ap_site_get(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    json_t *d = site.doc;
    char type[24];
    snprintf(type, sizeof type, "%lld", (long long)json_integer_value(json_object_get(d, "backend_type")));
    return reply_result(r, json_pack("{s:s,s:s,s:s,s:O,s:O,s:O,s:O,s:O,s:O}", "site_id", site.id, "site_name",
                                     site.name, "backend_type", type, "backend_ip",
                                     json_object_get(d, "backend_ip"), "backend_host",
                                     json_object_get(d, "backend_host"), "dns", json_object_get(d, "dns"),
                                     "service_plan", json_object_get(d, "service_plan"), "vip",
                                     json_object_get(d, "vip"), "vip_v6", json_object_get(d, "vip_v6")));
}

int ap_site_delete(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    json_t *blocker = NULL;
    int rc = r->store->ops->res_delete(r->store, site.rid, &blocker);
    if (rc == STORE_CONFLICT && blocker)
        return reply_delete_blocked(r, "site_id", blocker);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "site_id", "site_id: the site cannot be deleted now");
    ap_cert_forget(r, json_object_get(site.doc, "cert"));
    return reply_result(r, NULL);
}
