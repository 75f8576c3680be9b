/* waf_policy.h — WAF, shared inside the family: the stored WAF document and
 * custom-rule kind of a domain port (the documents are kept like AppShield's,
 * see port_policy in appshield.h). */
#ifndef PARAPET_API_AP_WAF_POLICY_H
#define PARAPET_API_AP_WAF_POLICY_H

#include "api/ap/appshield.h"

/* ---- WAF (waf_policy.c) ----
 * The "ap.waf" document: {"owasp": <waf/waf.h configuration>,
 * "secure_headers": <waf/waf.h state>}. Custom rules are resources
 * of their own, "ap.waf.custom_rule" under the domain port, with 16-hex
 * random ids and a doc of the canonical rule (waf/waf.h)
 * plus "slot", its place in the domain port's ModSecurity file. */
enum { WAF_CUSTOM_RULES_MAX = 100 }; /* custom rules of one domain port */
extern const struct res_kind AP_WAF, AP_WAF_CUSTOM_RULE;
json_t *waf_policy_default(void);
int waf_policy_load(struct req *r, struct port_policy *p);
/* A JSON body's member-wise checker's complaint as the reply: 400 naming
 * the member. Returns 0 like the reply_* functions. */
int reply_waf_invalid(struct req *r, const char *err);

#endif
