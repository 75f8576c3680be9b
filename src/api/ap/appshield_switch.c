/* appshield_switch.c — the AppShield switch tree (gap A2.7). Pure.
 *
 * What each switch means, and its state on a new domain port:
 *   p_auth            client authentication challenge (JavaScript/cookie)    off
 *   p_error_rewrite   the status-code overwrites of {ASH}/status-code apply   on
 *   p_filt            the IP black and white lists apply                      on
 *   p_malf            malformed-request protection                            on
 *     accept_invalid_http_request   let requests that break HTTP through    off
 *     advanced                      stricter checks (header sizes, methods) off
 *   p_wbl             known-client (bot) lists                                on
 *     api             API clients (no browser) pass                          off
 *     bypass          listed clients skip every AppShield policy             off
 *     mobile          mobile app clients pass                                off
 *     spider          search-engine crawlers pass                             on
 *     ua_black_list   refuse known malicious User-Agents                      on
 *     ua_white_list   (A2.7) let the operator's listed User-Agents pass      off
 *     monitor         (A2.7) uptime-monitoring services pass                  on
 * A sub-switch keeps its own state while its policy is off; it acts only
 * while the policy is on. */
#include <string.h>

#include "api/ap/appshield.h"

struct appshield_switch {
    const char *name;
    const char *parent; /* NULL: a policy */
    int on;             /* default */
};

static const struct appshield_switch switches[] = {
    {"p_auth", NULL, 0},
    {"p_error_rewrite", NULL, 1},
    {"p_filt", NULL, 1},
    {"p_malf", NULL, 1},
    {"accept_invalid_http_request", "p_malf", 0},
    {"advanced", "p_malf", 0},
    {"p_wbl", NULL, 1},
    {"api", "p_wbl", 0},
    {"bypass", "p_wbl", 0},
    {"mobile", "p_wbl", 0},
    {"spider", "p_wbl", 1},
    {"ua_black_list", "p_wbl", 1},
    {"ua_white_list", "p_wbl", 0},
    {"monitor", "p_wbl", 1},
};
enum { N_SWITCHES = sizeof switches / sizeof switches[0] };

static const struct appshield_switch *find(const char *name)
{
    for (size_t i = 0; i < N_SWITCHES; i++)
        if (strcmp(switches[i].name, name) == 0)
            return &switches[i];
    return NULL;
}

json_t *appshield_switches_default(void)
{
    json_t *states = json_object();
    for (size_t i = 0; i < N_SWITCHES; i++)
        json_object_set_new(states, switches[i].name, json_integer(switches[i].on));
    return states;
}

int appshield_switch_set(json_t *states, const char *name, int enable)
{
    if (!find(name))
        return -1;
    json_object_set_new(states, name, json_integer(enable ? 1 : 0));
    return 0;
}

static json_t *one(const json_t *states, const struct appshield_switch *s)
{
    json_t *v = json_object_get(states, s->name);
    int on = json_is_integer(v) ? (int)json_integer_value(v) : s->on;
    return json_pack("{s:i,s:s}", "enable", on, "name", s->name);
}

json_t *appshield_switches_view(const json_t *states)
{
    json_t *tree = json_object();
    for (size_t i = 0; i < N_SWITCHES; i++) {
        const struct appshield_switch *s = &switches[i];
        if (!s->parent)
            json_object_set_new(tree, s->name, one(states, s));
        else
            json_object_set_new(json_object_get(tree, s->parent), s->name, one(states, s));
    }
    return tree;
}
