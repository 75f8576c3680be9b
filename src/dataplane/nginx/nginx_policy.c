/* nginx_policy.c — see nginx_policy.h. */
#include "dataplane/nginx/nginx_policy.h"

#include <string.h>

#include "api/ap/appshield.h"
#include "api/ap/waf_policy.h"
#include "waf/waf.h"

static bool on(const json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k)) == 1;
}

/* The port's own document, else the site's, else a default held by p. */
static const json_t *pick(struct nginx_port_policy *p, int slot, const json_t *own, const json_t *site,
                          json_t *(*dflt)(void))
{
    if (json_is_object(own))
        return own;
    if (json_is_object(site))
        return site;
    return p->held[slot] = dflt();
}

void nginx_port_policy(const json_t *site, const json_t *port, struct nginx_port_policy *p)
{
    memset(p, 0, sizeof *p);
    const json_t *pdoc = json_object_get(port, "doc");
    const json_t *sw = on(pdoc, "is_derived") ? json_object_get(pdoc, "switch")
                                               : json_object_get(json_object_get(site, "doc"), "switch");
    p->waf = on(sw, "waf");
    p->appshield = on(sw, "appshield");
    const json_t *shield = pick(p, 0, json_object_get(port, "appshield"), json_object_get(site, "appshield"),
                                appshield_default);
    const json_t *waf = pick(p, 1, json_object_get(port, "waf"), json_object_get(site, "waf"), waf_policy_default);
    const json_t *switches = json_object_get(shield, "switches");
    json_t *dsw = appshield_switches_default();
    bool filt = json_object_get(switches, "p_filt") ? on(switches, "p_filt") : on(dsw, "p_filt");
    bool rewrite =
        json_object_get(switches, "p_error_rewrite") ? on(switches, "p_error_rewrite") : on(dsw, "p_error_rewrite");
    json_decref(dsw);
    p->ip_lists = p->appshield && filt;
    p->status_rewrite = p->appshield && rewrite;
    p->black_list = json_object_get(shield, "ip_black_list");
    p->white_list = json_object_get(shield, "ip_white_list");
    p->status_codes = json_object_get(shield, "status_codes");
    p->owasp = json_object_get(waf, "owasp");
    if (!json_is_object(p->owasp)) /* a WAF document stores both members; tolerate one without */
        p->owasp = p->held[2] = waf_owasp_default();
    p->secure_headers = json_object_get(waf, "secure_headers");
    const json_t *attacks = json_object_get(p->owasp, "attacks");
    bool owasp_on = !json_object_get(p->owasp, "enable") || on(p->owasp, "enable");
    p->encryption = p->waf && owasp_on && on(json_object_get(attacks, "encryption"), "enable");
    p->hide_headers = p->waf && owasp_on && on(json_object_get(attacks, "force_remove_header"), "enable");
    const json_t *own_rules = json_object_get(port, "rules");
    p->rules = json_array_size(own_rules) ? own_rules : json_object_get(site, "rules");
}

void nginx_port_policy_clear(struct nginx_port_policy *p)
{
    json_decref(p->held[0]);
    json_decref(p->held[1]);
    json_decref(p->held[2]);
}
