/* dns.h — DNS Protection zone endpoints (doc 000, API v2). Every route
 * takes a customer-bound token (ACCESS_BOUND_CUSTOMER): r->customer is the
 * caller's customer, and a zone of another customer is answered like one
 * that does not exist. zone_name arrives in canonical form (rule_zone_name). */
#ifndef PARAPET_API_DNS_H
#define PARAPET_API_DNS_H

#include "core/req.h"

enum {
    DNS_PAGE_SIZE = 20, /* zones per page of the zone list */
    DNS_MAX_ZONES_PER_CUSTOMER = 1000,
};

/* zones.c */
int dns_zone_list(struct req *r);
int dns_zone_create_standard(struct req *r);
int dns_zone_create_transfer(struct req *r);
int dns_zone_delete(struct req *r);
int dns_zone_deploy_status(struct req *r);
/* settings.c */
int dns_zone_setting_update(struct req *r);
/* master_servers.c */
int dns_master_servers_add(struct req *r);
int dns_master_servers_replace(struct req *r);
int dns_master_servers_delete(struct req *r);

/* zone_common.c: what the handlers share. The int-returning helpers answer
 * the request themselves when they fail and return -1. */
int dns_zone_load(struct req *r, struct dns_zone *z);
/* Copies enable_dnssec, enable_root_cname and the members of
 * dnssec_multi_signer that the request carries onto z, then checks the rules
 * that tie them together. */
int dns_apply_settings(struct req *r, struct dns_zone *z);
/* Saves a changed zone (pending again) and wakes the deployer after commit. */
int dns_zone_store(struct req *r, struct dns_zone *z);
json_t *dns_multi_signer_json(const struct dns_zone *z);
json_t *dns_masters_json(const struct dns_zone *z);

#endif
