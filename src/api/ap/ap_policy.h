/* ap_policy.h — the handlers of the AppShield and WAF rows of src/routes.def (declarations only),
 * and the family's rules and limits those rows name. */
#ifndef PARAPET_API_AP_POLICY_H
#define PARAPET_API_AP_POLICY_H

#include "api/ap/appshield.h"
#include "core/req.h"

/* AppShield ({ASH}) */
int appshield_black_list_add(struct req *r);
int appshield_black_list_get(struct req *r);
int appshield_black_list_delete(struct req *r);
int appshield_white_list_add(struct req *r);
int appshield_white_list_get(struct req *r);
int appshield_white_list_delete(struct req *r);
int appshield_status_code_create(struct req *r);
int appshield_status_code_update(struct req *r);
int appshield_status_code_delete(struct req *r);
int appshield_status_codes_list(struct req *r);
int appshield_switch_update(struct req *r);
int appshield_switches_get(struct req *r);

/* WAF ({WAF}) */
int waf_custom_rule_prepare(struct req *r);
int waf_custom_rule_create(struct req *r);
int waf_custom_rule_list(struct req *r);
int waf_custom_rule_get(struct req *r);
int waf_custom_rule_update(struct req *r);
int waf_custom_rule_delete(struct req *r);
int waf_custom_rule_switch(struct req *r);
int waf_owasp_get(struct req *r);
int waf_owasp_switch(struct req *r);
int waf_owasp_action_switch_update(struct req *r);
int waf_owasp_anti_leech_update(struct req *r);
int waf_owasp_csrf_update(struct req *r);
int waf_owasp_unvalidated_redirects_update(struct req *r);
int waf_secure_headers_set(struct req *r);
int waf_secure_headers_get(struct req *r);

#endif
