/* nginx_policy.h — what applies to one domain port: the overview switches
 * (its own while is_derived is 1, else the site's), and each policy
 * document (AppShield, WAF) and the custom rules: the domain port's own
 * when it has them, else the site level's (domain_port_id
 * 449cbcf57ff0ba74), else the defaults. */
#ifndef PARAPET_NGINX_POLICY_H
#define PARAPET_NGINX_POLICY_H

#include <jansson.h>
#include <stdbool.h>

struct nginx_port_policy {
    bool waf;            /* overview switch waf */
    bool appshield;      /* overview switch appshield */
    bool ip_lists;       /* AppShield on and its p_filt switch */
    bool status_rewrite; /* AppShield on and its p_error_rewrite switch */
    bool encryption, hide_headers; /* the OWASP keys nginx carries out (with the WAF on) */
    const json_t *black_list, *white_list, *status_codes; /* AppShield */
    const json_t *owasp, *secure_headers;                  /* WAF */
    const json_t *rules;                                   /* custom rules (docs with "slot") */
    json_t *held[3];                                       /* defaults made for this port */
};

void nginx_port_policy(const json_t *site, const json_t *port, struct nginx_port_policy *p);
void nginx_port_policy_clear(struct nginx_port_policy *p);

#endif
