/* op.h — the handlers of src/routes/op*.def (declarations only; routes.c includes this).
 * Origin Protection part A: sites, networks, hosts, capture packages,
 * configuration options (docs/decisions.md, "Origin Protection: sites,
 * networks, hosts, captures"). */
#ifndef PARAPET_API_OP_H
#define PARAPET_API_OP_H

#include "api/op/op_kinds.h"
#include "api/op/op_rules.h"
#include "core/req.h"

/* site.c */
int op_site_create(struct req *r);
int op_site_get(struct req *r);
int op_site_update(struct req *r);
int op_site_delete(struct req *r);
/* The site's read shape {as_num, cidr, service_plan, service_type,
 * site_desc, site_name} (new reference); `service` from op_site_service. */
json_t *op_site_json(const struct resource *site, const json_t *service);
/* The customer's service_plan and service_type (catalogue op_service_plans:
 * "default", overridden per customer by "by_customer"), held by the
 * request; NULL having replied 500. */
json_t *op_site_service(struct req *r, const char *customer_id);
/* network.c */
int op_network_create(struct req *r);
int op_network_get(struct req *r);
int op_network_update(struct req *r);
int op_network_delete(struct req *r);
/* host.c */
int op_host_create(struct req *r);
int op_host_get(struct req *r);
int op_host_update(struct req *r);
int op_host_delete(struct req *r);
int op_host_list(struct req *r);

#endif
