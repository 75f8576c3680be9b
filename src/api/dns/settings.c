/* settings.c — PUT /specp/dp/v2/zones/setting: only zone_name is required;
 * the fields the request carries change, the others keep their values. A
 * request that changes nothing leaves the zone's deploy state alone. */
#include <string.h>

#include "api/dns/dns.h"

static bool same_settings(const struct dns_zone *a, const struct dns_zone *b)
{
    if (a->enable_dnssec != b->enable_dnssec || a->enable_root_cname != b->enable_root_cname ||
        a->multi_signer_enabled != b->multi_signer_enabled || a->n_signers != b->n_signers)
        return false;
    for (int i = 0; i < a->n_signers; i++)
        if (strcmp(a->signers[i], b->signers[i]) != 0)
            return false;
    return true;
}

int dns_zone_setting_update(struct req *r)
{
    struct dns_zone z, before;
    if (dns_zone_load(r, &z) != 0)
        return 0;
    before = z;
    if (dns_apply_settings(r, &z) != 0 || (!same_settings(&before, &z) && dns_zone_store(r, &z) != 0))
        return 0;
    return reply_result(r, json_pack("{s:s,s:b,s:b,s:o}", "zone_name", z.name, "enable_dnssec",
                                     z.enable_dnssec, "enable_root_cname", z.enable_root_cname,
                                     "dnssec_multi_signer", dns_multi_signer_json(&z)));
}
