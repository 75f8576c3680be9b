/* waf_policy.c — the WAF document of a domain port (see appshield.h). */
#include "api/ap/waf_policy.h"
#include "core/waf_headers.h"
#include "core/waf_owasp.h"

/* Both under a domain port or the site (see port_policy in appshield.h). */
const struct res_kind AP_WAF = {"ap.waf", .name_scope = RES_NAME_IN_PARENT};
const struct res_kind AP_WAF_CUSTOM_RULE = {"ap.waf.custom_rule", .serial_id = true,
                                            .name_scope = RES_NAME_IN_PARENT};

json_t *waf_policy_default(void)
{
    return json_pack("{s:o,s:o}", "owasp", waf_owasp_default(), "secure_headers", waf_headers_default());
}

int waf_policy_load(struct req *r, struct port_policy *p)
{
    return port_policy_load(r, &AP_WAF, waf_policy_default, p);
}

int reply_waf_invalid(struct req *r, const char *err)
{
    return reply_error(r, E_FIELD_INVALID, "%s", err);
}
