/* op.h — the handlers of the Origin Protection section of src/routes.def (declarations only; routes.c includes this).
 * Origin Protection part A: sites, networks, hosts, capture packages,
 * configuration options (docs/decisions.md, "Origin Protection: sites,
 * networks, hosts, captures"). */
#ifndef PARAPET_API_OP_H
#define PARAPET_API_OP_H

#include "api/op/capture_queue.h"
#include "api/op/op_kinds.h"
#include "api/op/op_rules.h"
#include "core/req.h"

/* site.c */
int op_site_create(struct req *r);
int op_site_get(struct req *r);
int op_site_update(struct req *r);
int op_site_delete(struct req *r);
/* The catalogue key of the sites' read-only service_plan and service_type:
 * {"default": {...}, "by_customer": {"<customer_id>": {...}}}. */
#define OP_SERVICE_PLANS "op_service_plans"
/* The site's read shape {as_num, cidr, service_plan, service_type,
 * site_desc, site_name} (new reference); `plans` is the catalogue value. */
json_t *op_site_json(const struct resource *site, const json_t *plans);
/* sites.c: GET {OPC}/sites, GET /specp/op/sites, GET {OPC}/site-report */
int op_sites_list(struct req *r);
int op_token_sites_list(struct req *r);
int op_site_report(struct req *r);
/* dashboard.c, dashboard_flow_down.c: {OPD}/site/{site_id}/... */
int op_dash_events(struct req *r);
int op_dash_is_under_attack(struct req *r);
int op_dash_current_traffic(struct req *r);
int op_dash_flow_down_events(struct req *r);
/* capture.c */
int op_capture_create(struct req *r);
int op_capture_get(struct req *r);
int op_capture_download(struct req *r);
/* config_options.c */
int op_config_options(struct req *r);
/* network.c */
int op_network_create(struct req *r);
int op_network_get(struct req *r);
int op_network_update(struct req *r);
int op_network_delete(struct req *r);
int op_network_list(struct req *r);
/* host.c */
int op_host_create(struct req *r);
int op_host_get(struct req *r);
int op_host_update(struct req *r);
int op_host_delete(struct req *r);
int op_host_list(struct req *r);

#endif
