/* cp.h — the handlers of the CleanPipe section of src/routes.def and the field rules their rows
 * use (declarations only; routes.c includes this). CleanPipe Protection is
 * sold under Origin Protection: every route needs SVC_OP (docs/decisions.md). */
#ifndef PARAPET_API_CP_H
#define PARAPET_API_CP_H

#include <jansson.h>

#include "core/req.h"

/* Limits (docs/decisions.md, "CleanPipe Protection"). */
enum {
    CP_MAX_SITES = 100,          /* sites per customer */
    CP_MAX_SITE_BLOCKS = 64,     /* cidr blocks of one site */
    CP_MAX_HOSTS = 1000,         /* hosts per site */
    CP_MAX_HOST_ADDRESSES = 64,  /* addresses of one host */
    CP_MAX_TEMPLATES = 100,      /* route templates per site */
    CP_MAX_TEMPLATE_BLOCKS = 64, /* cidr blocks of one route template */
    CP_MAX_SOURCE_IPS = 256,     /* source_ips of one allow or block list */
    CP_MAX_SOURCE_COUNTRIES = 300,
    CP_NAME_MIN = 2,
    CP_NAME_MAX = 32,
    CP_DESC_MAX = 512,
    CP_ID_MAX = 2147483647, /* catalogue and template ids are positive 32-bit integers */
};

/* ---- field rules (rules.c) ---- */
/* CANON: a host address: a bare IPv4/IPv6 address, or one written as /32 or
 * /128; rewritten as the bare address in canonical text. */
const char *cp_rule_host_address(json_t **value, long unused);
/* CANON: a source of an allow/block list: an address (kept bare) or a
 * block without host bits ("addr/len"), in canonical text. */
const char *cp_rule_source(json_t **value, long unused);
/* RULE: manual mitigation mode 0 (off), 1 (on) or 3 (blackhole). */
const char *cp_rule_manual_mode(const json_t *value, long unused);

/* ---- catalogue.c ---- */
int cp_mitigation_group_profiles_list(struct req *r);
int cp_service_plan_list(struct req *r);
int cp_auto_profiles_list(struct req *r);
/* ---- site.c, sites.c, site_report.c ---- */
int cp_site_create(struct req *r);
int cp_site_get(struct req *r);
int cp_site_update(struct req *r);
int cp_site_delete(struct req *r);
int cp_sites_list(struct req *r);
int cp_site_report(struct req *r);
/* ---- host.c ---- */
int cp_host_create(struct req *r);
int cp_host_get(struct req *r);
int cp_host_update(struct req *r);
int cp_host_delete(struct req *r);
int cp_hosts_list(struct req *r);
/* ---- route_template.c ---- */
int cp_template_create(struct req *r);
int cp_template_get(struct req *r);
int cp_template_update(struct req *r);
int cp_template_delete(struct req *r);
int cp_templates_list(struct req *r);
/* ---- overview.c ---- */
int cp_overview_set(struct req *r);
int cp_overview_get(struct req *r);
/* ---- allow_block.c ---- */
int cp_site_list_set(struct req *r);
int cp_site_list_get(struct req *r);
int cp_site_list_switch(struct req *r);
int cp_host_list_set(struct req *r);
int cp_host_list_get(struct req *r);
int cp_host_list_switch(struct req *r);
/* ---- dashboard.c: {CPC}/dashboard/ddos_events and .../ddos_event/{event_id}/stop ---- */
int cp_dash_events(struct req *r);
int cp_dash_stop(struct req *r);
/* ---- tcp_option.c ---- */
int cp_tcp_filter_sets_set(struct req *r);
int cp_tcp_policy_get(struct req *r);
int cp_tcp_switch_set(struct req *r);

#endif
