/* waf_policy.c — the WAF document of a domain port (see appshield.h). */
#include "api/ap/waf_policy.h"

#include <string.h>

#include "waf/waf.h"

/* Both under a domain port or the site (see port_policy in appshield.h). */
const struct res_kind AP_WAF = {"ap.waf", .name_scope = RES_NAME_IN_PARENT};
/* random ids (DESIGN.md: never sequential; a serial would tell a tenant how
 * many rules the platform holds) */
const struct res_kind AP_WAF_CUSTOM_RULE = {"ap.waf.custom_rule", .name_scope = RES_NAME_IN_PARENT};

json_t *waf_policy_default(void)
{
    return json_pack("{s:o,s:o}", "owasp", waf_owasp_default(), "secure_headers", waf_headers_default());
}

int waf_policy_load(struct req *r, struct port_policy *p)
{
    return port_policy_load(r, &AP_WAF, waf_policy_default, p);
}

/* The catalogue code of a checker's message, as the route table would give
 * it for a form field: a missing member 40000003, a member of the wrong JSON
 * type 40000004, an unknown member 40000006, a member taken only with another
 * one's value 40000009, any other rule 40000005. The checkers word these
 * cases alike ("M: is required", "M: must be a string", ...). */
static enum err waf_invalid_code(const char *err)
{
    static const struct {
        const char *text;
        enum err code;
    } kinds[] = {
        /* first: these messages quote the client's member name */
        {": is not a member", E_FIELD_UNKNOWN},    {": is not an OWASP key", E_FIELD_UNKNOWN},
        {": is not a header of", E_FIELD_UNKNOWN}, {": is required", E_FIELD_MISSING},
        {": must be a string", E_FIELD_TYPE},      {": must be an object", E_FIELD_TYPE},
        {": must be an integer", E_FIELD_TYPE}, /* "(0 or 1)": not "from 400 to 599" */
        {": is only taken with", E_RULE},          {": is only for", E_RULE},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const char *at = strstr(err, kinds[i].text);
        if (!at)
            continue;
        /* "x: must be an object holding ..." is not about the type */
        const char *after = at + strlen(kinds[i].text);
        if (kinds[i].code == E_FIELD_TYPE && *after && strncmp(after, " (", 2) != 0)
            continue;
        return kinds[i].code;
    }
    return E_FIELD_INVALID;
}

int reply_waf_invalid(struct req *r, const char *err)
{
    return reply_error(r, waf_invalid_code(err), "%s", err);
}
