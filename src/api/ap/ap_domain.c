/* ap_domain.c — the domains of a site: create (with the default ports),
 * read (its port lists, redirects, HTTPS state and certificate), delete.
 *
 * A domain is an ap.domain named by its canonical name (A-labels, unique on
 * the platform); each of its ports is an ap.domain_port child named by the
 * port number, whose id is the domain_port_id. A new domain gets HTTP port
 * 80 and HTTPS port 443; HTTPS is on (switch_https 1) while a certificate
 * covers the domain and the domain has an HTTPS port. */
#include <string.h>

#include "api/ap/ap_common.h"
#include "base/text.h"
#include "core/catalogue.h"
#include "core/route.h"

json_t *ap_domain_ports(struct req *r, const struct resource *domain)
{
    struct res_query q = {.kind = AP_DOMAIN_PORT.name,
                          .customer_id = domain->customer_id,
                          .parent_rid = domain->rid,
                          .limit = 1000};
    json_t *rows = NULL;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK) {
        json_decref(rows);
        reply_store_error(r, rc);
        return NULL;
    }
    return req_hold(r, rows);
}

int ap_port_store(struct store *s, const struct resource *domain, const char *scheme, long long port)
{
    struct resource p = {.parent_rid = domain->rid};
    copy_text(p.customer_id, sizeof p.customer_id, domain->customer_id);
    snprintf(p.name, sizeof p.name, "%lld", port);
    p.doc = json_pack("{s:s,s:I,s:s,s:i}", "domain_id", domain->id, "port", (json_int_t)port, "scheme",
                      scheme, "is_derived", 0);
    int rc = s->ops->res_create(s, &AP_DOMAIN_PORT, &p);
    json_decref(p.doc);
    return rc;
}

int ap_port_create(struct req *r, const struct resource *domain, const char *scheme, long long port)
{
    int rc = ap_port_store(r->store, domain, scheme, port);
    if (rc == STORE_OK)
        return 0;
    if (rc == STORE_CONFLICT)
        reply_error(r, E_RULE, "port %lld: is already a port of the domain", port);
    else
        reply_store_error(r, rc);
    return -1;
}

int ap_domain_store(struct store *s, const struct resource *site, const char *name, const char *origin,
                    struct resource *d)
{
    memset(d, 0, sizeof *d);
    d->parent_rid = site->rid;
    copy_text(d->customer_id, sizeof d->customer_id, site->customer_id);
    copy_text(d->name, sizeof d->name, name);
    d->doc = json_pack("{s:s,s:s,s:s,s:[],s:i}", "domain", name, "origin_name", origin ? origin : name,
                       "scheme_method", "SSL bridging", "redirects", "http2", 0);
    int rc = s->ops->res_create(s, &AP_DOMAIN, d);
    if (rc == STORE_OK)
        rc = ap_port_store(s, d, "http", AP_DEFAULT_HTTP_PORT);
    if (rc == STORE_OK)
        rc = ap_port_store(s, d, "https", AP_DEFAULT_HTTPS_PORT);
    return rc;
}

static long count_domains(struct req *r, const struct resource *site, int *rc)
{
    struct res_query q = {.kind = AP_DOMAIN.name, .customer_id = site->customer_id, .parent_rid = site->rid};
    json_t *rows = NULL;
    long total = 0;
    *rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    json_decref(rows);
    return total;
}

int ap_domain_create(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    int rc;
    long n = count_domains(r, &site, &rc);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    if (n >= AP_MAX_DOMAINS_PER_SITE)
        return reply_error(r, E_LIMIT, "domain_name: a site may have at most %d domains",
                           AP_MAX_DOMAINS_PER_SITE);
    /* the site's service plan may allow fewer (catalogue ap_service_plans: "domains") */
    json_t *plans = catalogue_value(r, "ap_service_plans");
    if (!plans)
        return 0;
    const char *plan = json_string_value(json_object_get(site.doc, "service_plan"));
    json_t *cap = json_object_get(json_object_get(plans, plan ? plan : ""), "domains");
    if (json_is_integer(cap) && n >= json_integer_value(cap))
        return reply_error(r, E_LIMIT,
                           "domain_name: a site of the service plan %s may have at most %lld domains", plan,
                           (long long)json_integer_value(cap));
    const char *name = field_str(r, "domain_name");
    struct resource d;
    rc = ap_domain_store(r->store, &site, name, field_as_sent(r, "domain_name"), &d);
    req_hold(r, d.doc);
    if (rc == STORE_CONFLICT)
        return reply_error(r, E_CONFLICT, "domain_name: %s is already a domain on this platform", name);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, json_pack("{s:s}", "domain_id", d.id));
}

bool ap_domain_https(const json_t *ports, const json_t *cert)
{
    size_t i;
    json_t *p;
    if (!cert)
        return false;
    json_array_foreach (ports, i, p) {
        const char *scheme = json_string_value(json_object_get(json_object_get(p, "doc"), "scheme"));
        if (scheme && !strcmp(scheme, "https"))
            return true;
    }
    return false;
}

int ap_domain_get(struct req *r)
{
    struct resource site, d;
    if (ap_site_from_path(r, &site) != 0 || ap_domain_from_path(r, &site, &d) != 0)
        return 0;
    json_t *ports = ap_domain_ports(r, &d);
    if (!ports)
        return 0;
    json_t *http = json_array(), *https = json_array(), *redirects = json_array();
    size_t i;
    json_t *p;
    json_array_foreach (ports, i, p) {
        json_t *pd = json_object_get(p, "doc");
        const char *scheme = json_string_value(json_object_get(pd, "scheme"));
        json_array_append_new(scheme && !strcmp(scheme, "https") ? https : http,
                              json_pack("{s:O,s:O}", "domain_port_id", json_object_get(p, "id"), "port",
                                        json_object_get(pd, "port")));
    }
    json_array_foreach (json_object_get(d.doc, "redirects"), i, p) {
        json_array_append_new(redirects,
                              json_pack("{s:O,s:O}", "http_port", json_object_get(p, "http_port"),
                                        "redirected_https_port", json_object_get(p, "https_port")));
    }
    int is_default = 0;
    json_t *cert = ap_cert_effective(site.doc, d.doc, d.name, &is_default);
    bool on = ap_domain_https(ports, cert);
    /* The two reads name the certificate object differently (gaps A2.15). */
    const char *cert_key = r->route->access == ACCESS_SITE ? "cert_info" : "crt_info";
    return reply_result(
        r, json_pack("{s:s,s:s,s:o,s:o,s:o,s:O,s:i,s:i,s:o}", "domain_id", d.id, "domain", d.name,
                     "http_port_list", http, "https_port_list", https, "http_redirect_list", redirects,
                     "scheme_method", json_object_get(d.doc, "scheme_method"), "switch_https", on ? 1 : 0,
                     "switch_http2", on && json_integer_value(json_object_get(d.doc, "http2")) ? 1 : 0,
                     cert_key, ap_cert_read(cert, d.name, is_default)));
}

int ap_domain_delete(struct req *r)
{
    struct resource site, d;
    if (ap_site_from_path(r, &site) != 0 || ap_domain_from_path(r, &site, &d) != 0)
        return 0;
    json_t *blocker = NULL;
    int rc = r->store->ops->res_delete(r->store, d.rid, &blocker);
    if (rc == STORE_CONFLICT && blocker)
        return reply_delete_blocked(r, "domain_id", blocker);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "domain_id", "domain_id: the domain cannot be deleted now");
    ap_cert_forget(r, json_object_get(d.doc, "cert"));
    return reply_result(r, NULL);
}
