/* ap_common.h — what the Application Protection handlers of this directory
 * share (family-internal; ap_kinds.h is the part other families use). */
#ifndef PARAPET_API_AP_COMMON_H
#define PARAPET_API_AP_COMMON_H

#include "api/ap/ap.h"
#include "api/ap/ap_kinds.h"
#include <time.h>

#include "base/net.h"
#include "core/resource.h"

/* Backend fields (create: backend_ip/backend_host/backend_dns; update:
 * ip_list/host_list/dns_list) checked against backend_type and written to
 * the site document. Replies and returns -1 on a broken rule. */
struct ap_backend_names {
    const char *ip, *host, *dns;
};
int ap_backend_apply(struct req *r, json_t *site_doc, const struct ap_backend_names *names);

/* ap_vip.c: gives the site the lowest free address of the operator's pools
 * of `family` (NET_V4, NET_V6) as an ap.vip resource and appends it to
 * site_doc's "vip" / "vip_v6". 409 E_LIMIT naming the pools when none is
 * free. */
int ap_vip_allocate(struct req *r, const struct resource *site, json_t *site_doc, int family);
/* The same on a store (dev seeding): takes the lowest free address of
 * `pools` (the catalogue value) into addr; STORE_NOT_FOUND when none is free,
 * with names listing the family's pools ("" when there is none). */
int ap_vip_take(struct store *s, const struct resource *site, const json_t *pools, int family,
                char addr[NET_TEXT_MAX], char *names, size_t names_size);

/* ap_domain.c: the ports of a domain (its ap.domain_port children) as a new
 * array of {"rid","id","name","doc",...} rows in creation order. */
json_t *ap_domain_ports(struct req *r, const struct resource *domain);

/* On a store (also for dev seeding): creates domain `name` (canonical;
 * origin: as the client wrote it) under the site with HTTP port 80 and
 * HTTPS port 443. STORE_CONFLICT when the name is taken on the platform.
 * d->doc is the caller's to release. */
int ap_domain_store(struct store *s, const struct resource *site, const char *name, const char *origin,
                    struct resource *d);
int ap_port_store(struct store *s, const struct resource *domain, const char *scheme, long long port);
/* Adds port `port` of `scheme` ("http", "https") to the domain (400 E_RULE
 * when the domain already has that port, in either list). */
int ap_port_create(struct req *r, const struct resource *domain, const char *scheme, long long port);
/* HTTPS is on: a certificate serves the domain and it has an HTTPS port. */
bool ap_domain_https(const json_t *ports, const json_t *cert);

/* ap_cert.c: the certificate that serves `domain_name`: the domain's own,
 * else the site's default when it covers the name; NULL when none.
 * *is_default tells which. Borrowed from the docs. */
json_t *ap_cert_effective(const json_t *site_doc, const json_t *domain_doc, const char *domain_name,
                          int *is_default);
/* The read object of a certificate (cert_info / crt_info): {} without one. */
json_t *ap_cert_read(const json_t *cert, const char *domain_name, int is_default);
/* The "cert" member of a site's or domain's document for a checked bundle. */
struct cert_bundle;
json_t *ap_cert_doc(const struct cert_bundle *b, const char *file_name, const char *key_id, long long now);
/* A self-signed certificate for `name` as a checked bundle (CERT_OK, or
 * CERT_REFUSED / CERT_INTERNAL with err set). */
int ap_cert_self_signed(const char *name, time_t now, struct cert_bundle **b, char err[256]);
/* Where private keys live: DATA/ap-keys (made 0700 when missing); -1 when it cannot be made. */
int ap_cert_key_dir(const char *data_dir, char *out, size_t size);
/* Removes the private key file of a certificate that is gone (NULL: none). */
void ap_cert_forget(struct req *r, const json_t *cert);

/* ap_site.c: the document of a new site (backend still to be set). */
json_t *ap_site_doc_new(const char *service_plan);

/* ap_switch.c: the switch object a new site starts with. */
json_t *ap_switch_site_defaults(void);

/* Stores an updated resource; replies and returns -1 on failure. */
int ap_update(struct req *r, struct resource *res);

#endif
