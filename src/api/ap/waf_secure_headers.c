/* waf_secure_headers.c — {WAF}/secure-headers (gaps A2.8, B.4.17; modes,
 * custom policy checks and the GET shape are waf/waf.h). POST
 * answers code and msg only, as documented. */
#include "api/ap/ap_policy.h"
#include "api/ap/waf_policy.h"
#include "waf/waf.h"

int waf_secure_headers_set(struct req *r)
{
    struct port_policy p;
    if (waf_policy_load(r, &p) != 0)
        return 0;
    if (!r->body_fields)
        return reply_error(r, E_FIELD_MISSING,
                           "body: a JSON object is required (members status, mode, custom)");
    char err[256];
    if (waf_headers_apply(json_object_get(p.doc, "secure_headers"), r->body_fields, err, sizeof err) != 0)
        return reply_waf_invalid(r, err);
    if (port_policy_save(r, &AP_WAF, &p) != 0)
        return 0;
    return reply_result(r, NULL);
}

int waf_secure_headers_get(struct req *r)
{
    struct port_policy p;
    if (waf_policy_load(r, &p) != 0)
        return 0;
    return reply_result(r, waf_headers_view(json_object_get(p.doc, "secure_headers")));
}
