/* waf_owasp_policy.c — {WAF}/owasp: read, the enable switch, and the
 * action configurations (gaps A2.10-A2.12; keys, types, members and their
 * checks are waf/waf.h). A body is applied all or nothing. */
#include "api/ap/ap_policy.h"
#include "api/ap/waf_policy.h"
#include "waf/waf.h"

int waf_owasp_get(struct req *r)
{
    struct port_policy p;
    if (waf_policy_load(r, &p) != 0)
        return 0;
    return reply_result(r, waf_owasp_view(json_object_get(p.doc, "owasp")));
}

int waf_owasp_switch(struct req *r)
{
    struct port_policy p;
    if (waf_policy_load(r, &p) != 0)
        return 0;
    json_object_set_new(json_object_get(p.doc, "owasp"), "enable", json_integer(field_int(r, "status", 0)));
    if (port_policy_save(r, &AP_WAF, &p) != 0)
        return 0;
    return reply_result(r, NULL);
}

/* key NULL: the action-switch body; else that key's own endpoint, whose
 * body is optional (none, or {}, changes nothing). */
static int apply(struct req *r, const char *key)
{
    struct port_policy p;
    if (waf_policy_load(r, &p) != 0)
        return 0;
    const json_t *body = r->body_fields;
    if (!key && !body) /* documented as required, like the secure-headers body */
        return reply_error(r, E_FIELD_MISSING,
                           "body: a JSON object holding at least one OWASP key is required");
    if (key && body && json_object_size(body) == 0)
        body = NULL;
    char err[256];
    if (waf_owasp_apply(json_object_get(p.doc, "owasp"), key, body, err, sizeof err) != 0)
        return reply_waf_invalid(r, err);
    if (body && port_policy_save(r, &AP_WAF, &p) != 0)
        return 0;
    return reply_result(r, NULL);
}

int waf_owasp_action_switch_update(struct req *r)
{
    return apply(r, NULL);
}

int waf_owasp_anti_leech_update(struct req *r)
{
    return apply(r, "anti_leech");
}

int waf_owasp_csrf_update(struct req *r)
{
    return apply(r, "csrf");
}

int waf_owasp_unvalidated_redirects_update(struct req *r)
{
    return apply(r, "unvalidated_redirects");
}
