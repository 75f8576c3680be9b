/* zone_common.c — loading, the setting rules and saving, shared by the DNS
 * zone handlers. */
#include <string.h>

#include "api/dns/dns.h"
#include "base/text.h"
#include "deploy/dns_deployer.h"

int dns_zone_load(struct req *r, struct dns_zone *z)
{
    const char *name = field_str(r, "zone_name");
    int rc = r->store->ops->dns_zone_get(r->store, r->customer.id, name, z);
    if (rc == STORE_NOT_FOUND) {
        reply_error(r, E_NOT_FOUND, "zone_name: no zone %s", name);
        return -1;
    }
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    return 0;
}

/* Takes the multi-signer members the request carries; an absent member
 * keeps its value. The addresses are canonical already (rule_ip_address). */
static int apply_multi_signer(struct req *r, struct dns_zone *z)
{
    json_t *ms = field_json(r, "dnssec_multi_signer");
    if (!ms)
        return 0;
    json_t *enabled = json_object_get(ms, "enabled"), *ips = json_object_get(ms, "ip");
    if (enabled)
        z->multi_signer_enabled = json_is_true(enabled);
    if (!ips)
        return 0;
    z->n_signers = 0;
    size_t i;
    json_t *ip;
    json_array_foreach (ips, i, ip) {
        for (int k = 0; k < z->n_signers; k++) {
            if (strcmp(z->signers[k], json_string_value(ip)) == 0) {
                reply_error(r, E_FIELD_INVALID, "dnssec_multi_signer.ip[%zu]: %s is listed twice", i,
                            json_string_value(ip));
                return -1;
            }
        }
        copy_text(z->signers[z->n_signers++], sizeof z->signers[0], json_string_value(ip));
    }
    return 0;
}

int dns_apply_settings(struct req *r, struct dns_zone *z)
{
    json_t *v;
    if ((v = field_json(r, "enable_dnssec")))
        z->enable_dnssec = json_is_true(v);
    if ((v = field_json(r, "enable_root_cname")))
        z->enable_root_cname = json_is_true(v);
    if (apply_multi_signer(r, z) != 0)
        return -1;
    /* The rules hold for the zone as it will be, whichever fields changed. */
    if (z->enable_dnssec && z->enable_root_cname) {
        reply_error(r, E_RULE, "enable_root_cname: must not be true while enable_dnssec is true");
        return -1;
    }
    if (z->multi_signer_enabled && !z->enable_dnssec) {
        reply_error(r, E_RULE, "dnssec_multi_signer.enabled: may be true only when enable_dnssec is true");
        return -1;
    }
    if (z->multi_signer_enabled && z->n_signers == 0) {
        reply_error(r, E_RULE, "dnssec_multi_signer.ip: must list the other signers' addresses when enabled");
        return -1;
    }
    return 0;
}

int dns_zone_store(struct req *r, struct dns_zone *z)
{
    int rc = r->store->ops->dns_zone_save(r->store, z);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    r->after_commit = dns_deployer_wake;
    return 0;
}

json_t *dns_multi_signer_json(const struct dns_zone *z)
{
    json_t *ips = json_array();
    for (int i = 0; i < z->n_signers; i++)
        json_array_append_new(ips, json_string(z->signers[i]));
    return json_pack("{s:b,s:o}", "enabled", z->multi_signer_enabled, "ip", ips);
}

json_t *dns_masters_json(const struct dns_zone *z)
{
    json_t *list = json_array();
    for (int i = 0; i < z->n_masters; i++) {
        const struct dns_master *m = &z->masters[i];
        json_t *o = json_pack("{s:s}", "ip", m->ip);
        if (m->key_name[0])
            json_object_update_new(o, json_pack("{s:s,s:s,s:s}", "key_name", m->key_name, "secret", m->secret,
                                                "algorithm", m->algorithm));
        json_array_append_new(list, o);
    }
    return list;
}
