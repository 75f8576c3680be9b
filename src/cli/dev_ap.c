/* dev_ap.c — `serve --dev` seeding for Application Protection: a dev VIP
 * pool from the documentation ranges (RFC 5737, RFC 3849) when the operator
 * has none, and for the first customer one site ("Dev shop", backend
 * 203.0.113.10) holding a VIP of each family, with the domain
 * shop.example.com and a self-signed certificate (key in DATA/ap-keys). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api/ap/ap_common.h"
#include "base/text.h"
#include "cli/cli.h"
#include "x509/x509.h"

#define DEV_AP_DOMAIN "shop.example.com"

static int dev_pools(struct store *s, json_t **pools)
{
    if (s->ops->catalogue_get(s, "ap_vip_pools", pools) == STORE_OK &&
        (json_array_size(json_object_get(*pools, "ipv4")) ||
         json_array_size(json_object_get(*pools, "ipv6"))))
        return STORE_OK;
    json_decref(*pools);
    *pools = json_pack("{s:[s],s:[s]}", "ipv4", "198.51.100.240/28", "ipv6", "2001:db8:ffff::/120");
    return s->ops->catalogue_set(s, "ap_vip_pools", *pools, "operator");
}

/* The site with its VIPs and backend. */
static int dev_site(struct store *s, const char *customer_id, const json_t *pools, struct resource *site)
{
    memset(site, 0, sizeof *site);
    copy_text(site->customer_id, sizeof site->customer_id, customer_id);
    copy_text(site->name, sizeof site->name, "Dev shop");
    site->doc = ap_site_doc_new("standard");
    json_object_set_new(site->doc, "backend_type", json_integer(0));
    json_object_set_new(site->doc, "backend_ip", json_pack("[s]", "203.0.113.10"));
    json_object_set_new(site->doc, "backend_host", json_array());
    json_object_set_new(site->doc, "dns", json_array());
    int rc = s->ops->res_create(s, &AP_SITE, site);
    for (int family = NET_V4; rc == STORE_OK && family <= NET_V6; family += NET_V6 - NET_V4) {
        char addr[NET_TEXT_MAX], names[512];
        rc = ap_vip_take(s, site, pools, family, addr, names, sizeof names);
        if (rc == STORE_OK)
            json_array_append_new(json_object_get(site->doc, family == NET_V4 ? "vip" : "vip_v6"),
                                  json_string(addr));
    }
    return rc == STORE_OK ? s->ops->res_update(s, site) : rc;
}

/* The domain with a self-signed certificate; its key is written by the caller after the commit. */
static int dev_domain(struct store *s, const struct resource *site, struct resource *d,
                      struct cert_bundle **b)
{
    int rc = ap_domain_store(s, site, DEV_AP_DOMAIN, DEV_AP_DOMAIN, d);
    char err[CERT_ERR_MAX], key_id[64];
    time_t now = time(NULL);
    if (rc != STORE_OK)
        return rc;
    if (ap_cert_self_signed(DEV_AP_DOMAIN, now, b, err) != CERT_OK) {
        fprintf(stderr, "parapet: --dev: no self-signed certificate: %s\n", err);
        return STORE_ERROR;
    }
    snprintf(key_id, sizeof key_id, "domain-%s", d->id);
    json_object_set_new(d->doc, "cert", ap_cert_doc(*b, "self-signed.pem", key_id, (long long)now));
    return s->ops->res_update(s, d);
}

int dev_ap_seed(struct store *s, const char *data_dir, const char *customer_id)
{
    json_t *pools = NULL;
    struct resource site = {0}, d = {0};
    struct cert_bundle *b = NULL;
    if (!customer_id || s->ops->begin(s, true) != STORE_OK)
        return -1;
    int rc = dev_pools(s, &pools);
    if (rc == STORE_OK)
        rc = dev_site(s, customer_id, pools, &site);
    if (rc == STORE_OK)
        rc = dev_domain(s, &site, &d, &b);
    char dir[4096], key_id[64];
    snprintf(key_id, sizeof key_id, "domain-%s", d.id);
    bool ok = rc == STORE_OK && ap_cert_key_dir(data_dir, dir, sizeof dir) == 0 &&
              cert_key_store(dir, key_id, b->key_pem) == 0 && s->ops->commit(s) == STORE_OK;
    if (ok) {
        printf(
            "  AP site %s (customer %s): domain %s (domain_id %s) with a self-signed certificate, VIPs %s\n",
            site.id, customer_id, DEV_AP_DOMAIN, d.id,
            json_string_value(json_array_get(json_object_get(site.doc, "vip"), 0)));
        /* serve --dev maps the VIPs to 127.0.3.240/28 and ports + 10000 (serve.c) */
        printf("  its WAF (nginx + ModSecurity + CRS, rendered into %s/nginx): run\n"
               "    nginx -c %s/nginx/nginx.conf -p %s/nginx/ -g 'daemon off;'\n"
               "    curl -k --resolve %s:10443:127.0.3.240 \"https://%s:10443/?id=1'%%20OR%%20'1'='1\"   (403)\n",
               data_dir, data_dir, data_dir, DEV_AP_DOMAIN, DEV_AP_DOMAIN);
    } else {
        s->ops->rollback(s);
        fprintf(stderr, "parapet: --dev: the Application Protection site could not be seeded\n");
    }
    cert_bundle_free(b);
    json_decref(pools);
    resource_clear(&site);
    resource_clear(&d);
    return ok ? 0 : -1;
}
