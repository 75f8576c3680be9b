/* ap_site_report.c — GET /spe/customer/{customer_id}/ap/site-report: the
 * documents give no fields (gaps A2.2); parapet reports the customer's
 * sites with their plan, VIPs, backend type and domains, and the totals.
 * Two list queries: the sites, then all of the customer's domains. */
#include <string.h>

#include "api/ap/ap_common.h"
#include "core/deploy_report.h"

int ap_site_report(struct req *r)
{
    struct res_query sq = {.kind = AP_SITE.name,
                           .customer_id = r->customer.id,
                           .parent_rid = RES_TOP_LEVEL,
                           .limit = AP_MAX_SITES_PER_CUSTOMER * 2};
    struct res_query dq = {.kind = AP_DOMAIN.name,
                           .customer_id = r->customer.id,
                           .limit = AP_MAX_SITES_PER_CUSTOMER * AP_MAX_DOMAINS_PER_SITE * 2};
    json_t *sites = NULL, *domains = NULL;
    long n_sites = 0, n_domains = 0;
    int rc = r->store->ops->res_list(r->store, &sq, &sites, &n_sites);
    if (rc == STORE_OK)
        rc = r->store->ops->res_list(r->store, &dq, &domains, &n_domains);
    req_hold(r, sites);
    req_hold(r, domains);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *out = json_array();
    size_t i, j;
    json_t *s, *d;
    json_array_foreach (sites, i, s) {
        json_t *doc = json_object_get(s, "doc"), *names = json_array();
        json_int_t rid = json_integer_value(json_object_get(s, "rid"));
        json_array_foreach (domains, j, d) {
            if (json_integer_value(json_object_get(d, "parent_rid")) == rid)
                json_array_append(names, json_object_get(d, "name"));
        }
        char type[24];
        snprintf(type, sizeof type, "%lld",
                 (long long)json_integer_value(json_object_get(doc, "backend_type")));
        json_t *deploy = deploy_report(r, rid);
        if (!deploy) {
            json_decref(names), json_decref(out);
            return 0;
        }
        json_array_append_new(
            out, json_pack("{s:O,s:O,s:O,s:s,s:O,s:O,s:I,s:o,s:o}", "site_id", json_object_get(s, "id"),
                           "site_name", json_object_get(s, "name"), "service_plan",
                           json_object_get(doc, "service_plan"), "backend_type", type, "vip",
                           json_object_get(doc, "vip"), "vip_v6", json_object_get(doc, "vip_v6"),
                           "domain_count", (json_int_t)json_array_size(names), "domains", names, "dataplane",
                           deploy));
    }
    return reply_result(r, json_pack("{s:I,s:I,s:o}", "site_count", (json_int_t)n_sites, "domain_count",
                                     (json_int_t)n_domains, "sites", out));
}
