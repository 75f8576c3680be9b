/* ap.h — the handlers of the Application Protection section of src/routes.def (declarations only; routes.c includes this). */
#ifndef PARAPET_API_AP_H
#define PARAPET_API_AP_H

#include "core/req.h"

/* Limits (decisions.md, Application Protection). */
enum {
    AP_MAX_SITES_PER_CUSTOMER = 50,
    AP_MAX_DOMAINS_PER_SITE = 100,
    AP_MAX_HTTP_PORTS = 16, /* per domain */
    AP_DEFAULT_HTTP_PORT = 80,
    AP_DEFAULT_HTTPS_PORT = 443,
};

/* sites (ap_site.c, ap_site_report.c, ap_cname.c) */
int ap_site_create(struct req *r);
int ap_site_get(struct req *r);
int ap_site_delete(struct req *r);
int ap_site_backend_update(struct req *r);
int ap_site_report(struct req *r);
int ap_site_cname_info(struct req *r);

/* domains and their ports (ap_domain.c, ap_port.c) */
int ap_domain_create(struct req *r);
int ap_domain_get(struct req *r);
int ap_domain_delete(struct req *r);
int ap_http_port_add(struct req *r);
int ap_http_port_delete(struct req *r);
int ap_redirect_switch_set(struct req *r);
int ap_http2_switch_set(struct req *r);

/* certificates (ap_cert.c) */
int ap_site_cert_upload(struct req *r);
int ap_site_cert_revoke(struct req *r);
int ap_domain_cert_upload(struct req *r);
int ap_domain_cert_revoke(struct req *r);

/* overview switches (ap_switch.c) */
int ap_overview_switch_set(struct req *r);
int ap_overview_switch_get(struct req *r);

/* field rules (ap_rules.c) */
const char *ap_rule_public_ip(json_t **value, long unused);
const char *ap_rule_hostname(json_t **value, long unused);
const char *ap_rule_site_name(const json_t *value, long unused);

/* dashboards (dashboard_ddos.c, dashboard_waf.c, dashboard_waf_event.c, dashboard_bandwidth.c) */
int ap_dash_ddos_events(struct req *r);
int ap_dash_ddos_patterns(struct req *r);
int ap_dash_waf_events(struct req *r);
int ap_dash_waf_log(struct req *r);
int ap_dash_waf_top(struct req *r);
int ap_dash_waf_download(struct req *r);
int ap_dash_bandwidth(struct req *r);
int ap_dash_overview_clean(struct req *r);

#endif
