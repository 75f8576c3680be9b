/* udp_rules.c — the UDP flood modules: which write reaches which module,
 * what each module takes, and where it sits in the state tree (the read
 * shape of the document, A1.8). Pure: no request, no store. */
#include <string.h>

#include "api/op/op_mitigation.h"

enum module_kind { M_LENGTH, M_RATE, M_SWITCH };

struct module {
    const char *name;
    const char *group; /* the object holding it, NULL: at the top */
    enum module_kind kind;
};

/* POST udp-flood/policy. The document gives size to the dns length modules
 * and limits to the dns and udp rate modules; the ntp and snmp modules take
 * the same by analogy with the read shape (gaps B.4.8). */
static const struct module policy_modules[] = {
    {"dns_query_length", "dns_flood_amplification", M_LENGTH},
    {"dns_query_rate_limit", "dns_flood_amplification", M_RATE},
    {"dns_response_length", "dns_flood_amplification", M_LENGTH},
    {"dns_response_rate_limit", "dns_flood_amplification", M_RATE},
    {"ntp_response_length", "ntp_amplification", M_LENGTH},
    {"ntp_response_rate_limit", "ntp_amplification", M_RATE},
    {"snmp_response_rate_limit", "snmp_amplification", M_RATE},
    {"udp_rate_limit", NULL, M_RATE},
    {NULL, NULL, M_SWITCH},
};

/* POST udp-flood/policy/switch: the policy modules, drop_ssdp in place of udp_rate_limit. */
static const struct module policy_switch_modules[] = {
    {"dns_query_length", "dns_flood_amplification", M_LENGTH},
    {"dns_query_rate_limit", "dns_flood_amplification", M_RATE},
    {"dns_response_length", "dns_flood_amplification", M_LENGTH},
    {"dns_response_rate_limit", "dns_flood_amplification", M_RATE},
    {"ntp_response_length", "ntp_amplification", M_LENGTH},
    {"ntp_response_rate_limit", "ntp_amplification", M_RATE},
    {"snmp_response_rate_limit", "snmp_amplification", M_RATE},
    {"drop_ssdp", "ssdp_flood", M_SWITCH},
    {NULL, NULL, M_SWITCH},
};

/* POST udp-flood/switch */
static const struct module switch_modules[] = {
    {"udp_fragmentation", NULL, M_SWITCH},
    {"no_data_payload", NULL, M_SWITCH},
    {"udp_rate_limit", NULL, M_RATE},
    {"zero_data_payload", NULL, M_SWITCH},
    {NULL, NULL, M_SWITCH},
};

static const struct module *find(const struct module *table, const char *name, const char *endpoint,
                                 struct op_refusal *why)
{
    char list[400] = "";
    for (const struct module *m = table; m->name; m++) {
        if (name && strcmp(m->name, name) == 0)
            return m;
        if (list[0])
            strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, m->name, sizeof list - strlen(list) - 1);
    }
    op_refuse(why, E_FIELD_INVALID, "module: %s is not a module of %s (%s)", name ? name : "(none)", endpoint,
              list);
    return NULL;
}

/* The module's object in the state tree (created if the state lacks it). */
static json_t *node(json_t *state, const struct module *m)
{
    json_t *parent = state;
    if (m->group) {
        parent = json_object_get(state, m->group);
        if (!json_is_object(parent)) {
            parent = json_object();
            json_object_set_new(state, m->group, parent);
        }
    }
    json_t *n = json_object_get(parent, m->name);
    if (!json_is_object(n)) {
        n = json_object();
        json_object_set_new(parent, m->name, n);
    }
    return n;
}

int op_udp_policy(json_t *state, const json_t *fields, struct op_refusal *why)
{
    const char *name = json_string_value(json_object_get(fields, "module"));
    const struct module *m = find(policy_modules, name, "udp-flood/policy", why);
    if (!m)
        return -1;
    json_t *size = json_object_get(fields, "size"), *bps = json_object_get(fields, "bps_limit"),
           *pps = json_object_get(fields, "pps_limit");
    json_t *n = node(state, m);
    if (m->kind == M_LENGTH) {
        if (bps || pps) {
            op_refuse(why, E_RULE, "%s: module %s takes size only", bps ? "bps_limit" : "pps_limit", name);
            return -1;
        }
        if (!size) {
            op_refuse(why, E_FIELD_MISSING, "size: is required for module %s", name);
            return -1;
        }
        json_object_set(n, "size", size);
        return 0;
    }
    if (size) {
        op_refuse(why, E_RULE, "size: module %s takes bps_limit and pps_limit, not size", name);
        return -1;
    }
    if (!bps && !pps) {
        op_refuse(why, E_FIELD_MISSING, "bps_limit: module %s needs bps_limit or pps_limit (or both)", name);
        return -1;
    }
    if (bps)
        json_object_set(n, "bps_limit", bps);
    if (pps)
        json_object_set(n, "pps_limit", pps);
    return 0;
}

static int set_switch(json_t *state, const struct module *table, const char *endpoint, const char *name,
                      long on, struct op_refusal *why)
{
    const struct module *m = find(table, name, endpoint, why);
    if (!m)
        return -1;
    json_object_set_new(node(state, m), "is_enabled", json_integer(on ? 1 : 0));
    op_udp_derive(state);
    return 0;
}

int op_udp_policy_switch(json_t *state, const char *module, long on, struct op_refusal *why)
{
    return set_switch(state, policy_switch_modules, "udp-flood/policy/switch", module, on, why);
}

int op_udp_switch(json_t *state, const char *module, long on, struct op_refusal *why)
{
    return set_switch(state, switch_modules, "udp-flood/switch", module, on, why);
}

int op_udp_zero_payload(json_t *state, long length, struct op_refusal *why)
{
    if (length < 1 || length > 128) {
        op_refuse(why, E_FIELD_INVALID, "length: must be 1 to 128");
        return -1;
    }
    static const struct module zero = {"zero_data_payload", NULL, M_SWITCH};
    json_object_set_new(node(state, &zero), "zero_payload_length", json_integer(length));
    return 0;
}

void op_udp_derive(json_t *state)
{
    static const char *const groups[] = {"dns_flood_amplification", "ntp_amplification", "snmp_amplification",
                                         "ssdp_flood", NULL};
    for (const char *const *g = groups; *g; g++) {
        json_t *group = json_object_get(state, *g);
        if (!json_is_object(group))
            continue;
        int any = 0;
        const char *key;
        json_t *v;
        json_object_foreach (group, key, v)
            if (json_is_object(v) && json_integer_value(json_object_get(v, "is_enabled")) == 1)
                any = 1;
        json_object_set_new(group, "is_enabled", json_integer(any));
    }
}
