/* ap_backend.c — a site's backend: IP addresses (backend_type 0) or host
 * names with the resolvers that find them (backend_type 1). Creation names
 * the fields backend_ip/backend_host/backend_dns, the update
 * ip_list/host_list/dns_list (gaps A2.15); both land in the document as
 * backend_type, backend_ip, backend_host, dns. */
#include <string.h>

#include "api/ap/ap_common.h"
#include "base/net.h"
#include "core/catalogue.h"

/* The field's array (the spec already canonicalised each element), or an
 * empty one; a value given twice is refused. */
static json_t *list_of(struct req *r, const char *name, bool *ok)
{
    json_t *v = field_json(r, name);
    json_t *out = json_array();
    if (json_is_string(v))
        json_array_append(out, v);
    size_t i, j;
    json_t *e;
    json_array_foreach (v, i, e) {
        for (j = 0; j < i; j++) {
            if (json_equal(json_array_get(v, j), e)) {
                reply_error(r, E_FIELD_INVALID, "%s[%zu]: repeats %s[%zu] (%s)", name, i, name, j,
                            json_string_value(e));
                *ok = false;
                json_decref(out);
                return NULL;
            }
        }
        json_array_append(out, e);
    }
    return out;
}

/* A backend address in one of the operator's VIP pools (a site's virtual
 * address, now or later) would send the site's traffic back into the
 * platform: 400 E_RULE naming the pool. 0, or -1 having replied. */
static int outside_vip_pools(struct req *r, const json_t *ips, const char *field)
{
    if (!json_array_size(ips))
        return 0;
    json_t *pools = catalogue_value(r, "ap_vip_pools");
    if (!pools)
        return -1;
    size_t i, k;
    json_t *ip, *p;
    json_array_foreach (ips, i, ip) {
        struct ip_addr a;
        if (ip_parse(json_string_value(ip), &a) != 0)
            continue; /* the field's rule checked it */
        json_array_foreach (json_object_get(pools, a.family == NET_V4 ? "ipv4" : "ipv6"), k, p) {
            struct cidr pool;
            if (json_is_string(p) && cidr_parse(json_string_value(p), 0, &pool) == 0 &&
                cidr_contains_ip(&pool, &a)) {
                reply_error(r, E_RULE,
                            "%s[%zu]: %s is in the platform's VIP pool %s (a backend cannot be a "
                            "virtual address)",
                            field, i, json_string_value(ip), json_string_value(p));
                return -1;
            }
        }
    }
    return 0;
}

int ap_backend_apply(struct req *r, json_t *doc, const struct ap_backend_names *n)
{
    long long type = field_int(r, "backend_type", 0);
    bool ok = true;
    json_t *ips = list_of(r, n->ip, &ok);
    json_t *hosts = ok ? list_of(r, n->host, &ok) : NULL;
    json_t *dns = ok ? list_of(r, n->dns, &ok) : NULL;
    if (!ok)
        goto fail;
    if (type == 0) {
        if (json_array_size(ips) == 0) {
            reply_error(r, E_FIELD_MISSING, "%s: is required when backend_type is 0 (IP addresses)", n->ip);
            goto fail;
        }
        const char *extra = json_array_size(hosts) ? n->host : json_array_size(dns) ? n->dns : NULL;
        if (extra) {
            reply_error(r, E_RULE, "%s: must be empty when backend_type is 0 (IP addresses)", extra);
            goto fail;
        }
        if (outside_vip_pools(r, ips, n->ip) != 0)
            goto fail;
    } else {
        if (json_array_size(hosts) == 0) {
            reply_error(r, E_FIELD_MISSING, "%s: is required when backend_type is 1 (host names)", n->host);
            goto fail;
        }
        if (json_array_size(dns) == 0) {
            reply_error(r, E_FIELD_MISSING, "%s: resolvers are required when backend_type is 1 (host names)",
                        n->dns);
            goto fail;
        }
        if (json_array_size(ips)) {
            reply_error(r, E_RULE, "%s: must be empty when backend_type is 1 (host names)", n->ip);
            goto fail;
        }
    }
    json_object_set_new(doc, "backend_type", json_integer(type));
    json_object_set_new(doc, "backend_ip", ips);
    json_object_set_new(doc, "backend_host", hosts);
    json_object_set_new(doc, "dns", dns);
    return 0;
fail:
    json_decref(ips);
    json_decref(hosts);
    json_decref(dns);
    return -1;
}

int ap_update(struct req *r, struct resource *res)
{
    int rc = r->store->ops->res_update(r->store, res);
    if (rc == STORE_OK)
        return 0;
    if (rc == STORE_CONFLICT)
        reply_error(r, E_CONFLICT, "the %s changed while this request ran; try again", res->kind);
    else
        reply_store_error(r, rc);
    return -1;
}

int ap_site_backend_update(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    static const struct ap_backend_names names = {"ip_list", "host_list", "dns_list"};
    if (ap_backend_apply(r, site.doc, &names) != 0 || ap_update(r, &site) != 0)
        return 0;
    return reply_result(r, NULL);
}
