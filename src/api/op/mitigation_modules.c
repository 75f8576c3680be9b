/* mitigation_modules.c — the {SOPH} filtering modules of a host: basic
 * network filtering, UDP flood and zombie filters. Their state is the
 * host's "op.host.mitigation" document (members basic_network_filtering,
 * udp_flood, zombie), read over the catalogue's op_mitigation_defaults. */
#include <string.h>

#include "api/op/op_mitigation.h"
#include "core/catalogue.h"
#include "core/resource.h"

struct module_ctx {
    struct op_path p;
    struct resource settings;
    json_t *state; /* the module's state over its defaults (held) */
};

static int module_load(struct req *r, const char *module, struct module_ctx *m)
{
    if (op_path_load(r, false, &m->p) != 0 ||
        op_settings_load(r, &OP_HOST_MITIGATION, &m->p.host, &m->settings) != 0)
        return -1;
    m->state = req_hold(r, op_setting_read(r, &m->settings, module));
    return m->state ? 0 : -1;
}

static int module_save(struct req *r, const char *module, struct module_ctx *m)
{
    json_object_set(m->settings.doc, module, m->state);
    if (op_settings_save(r, &OP_HOST_MITIGATION, &m->p.host, &m->settings) != 0)
        return 0;
    return reply_result(r, NULL);
}

/* B.3.6: no write is documented; the host's state (switched on, its custom
 * rule set) starts from the catalogue, the common rule sets are the
 * catalogue's op_basic_filtering_rule_sets. */
int op_basic_filtering_get(struct req *r)
{
    struct module_ctx m;
    if (module_load(r, "basic_network_filtering", &m) != 0)
        return 0;
    json_t *sets = op_catalogue(r, "op_basic_filtering_rule_sets");
    if (!sets)
        return 0;
    return reply_result(r, json_pack("{s:O,s:O,s:O}", "is_enabled", json_object_get(m.state, "is_enabled"),
                                     "common_rule_sets", sets, "custom_rule_set",
                                     json_object_get(m.state, "custom_rule_set")));
}

/* A UDP flood write: apply(state) under the host's settings. */
static int udp_write(struct req *r, int (*apply)(struct req *, json_t *, struct op_refusal *))
{
    struct module_ctx m;
    struct op_refusal why;
    if (module_load(r, "udp_flood", &m) != 0)
        return 0;
    if (apply(r, m.state, &why) != 0)
        return reply_refusal(r, &why);
    return module_save(r, "udp_flood", &m);
}

static int apply_policy(struct req *r, json_t *s, struct op_refusal *why)
{
    return op_udp_policy(s, r->fields, why);
}
static int apply_policy_switch(struct req *r, json_t *s, struct op_refusal *why)
{
    return op_udp_policy_switch(s, field_str(r, "module"), (long)field_int(r, "is_enabled", 0), why);
}
static int apply_switch(struct req *r, json_t *s, struct op_refusal *why)
{
    return op_udp_switch(s, field_str(r, "module"), (long)field_int(r, "is_enabled", 0), why);
}
static int apply_zero(struct req *r, json_t *s, struct op_refusal *why)
{
    return op_udp_zero_payload(s, (long)field_int(r, "length", 0), why);
}

int op_udp_policy_set(struct req *r)
{
    return udp_write(r, apply_policy);
}
int op_udp_policy_switch_set(struct req *r)
{
    return udp_write(r, apply_policy_switch);
}
int op_udp_switch_set(struct req *r)
{
    return udp_write(r, apply_switch);
}
int op_udp_zero_payload_set(struct req *r)
{
    return udp_write(r, apply_zero);
}

/* A1.8: GET {SOPH}/mitigation/udp-flood answers the state in the read shape
 * the document describes (beyond the documents' endpoint list). */
int op_udp_flood_get(struct req *r)
{
    struct module_ctx m;
    if (module_load(r, "udp_flood", &m) != 0)
        return 0;
    op_udp_derive(m.state);
    return reply_result(r, json_incref(m.state));
}

int op_zombie_set(struct req *r)
{
    struct module_ctx m;
    if (module_load(r, "zombie", &m) != 0)
        return 0;
    json_t *z = json_object_get(m.state, field_str(r, "zombie_type"));
    static const char *const members[] = {"action", "blacklist_timeout", "threshold_bps", "threshold_pps",
                                          NULL};
    for (const char *const *f = members; *f; f++)
        json_object_set(z, *f, field_json(r, *f));
    return module_save(r, "zombie", &m);
}

int op_zombie_get(struct req *r)
{
    struct module_ctx m;
    if (module_load(r, "zombie", &m) != 0)
        return 0;
    return reply_result(r, json_incref(m.state));
}

int op_zombie_switch_set(struct req *r)
{
    struct module_ctx m;
    if (module_load(r, "zombie", &m) != 0)
        return 0;
    json_object_set_new(json_object_get(m.state, field_str(r, "zombie_type")), "is_enabled",
                        json_integer(field_int(r, "is_enabled", 0)));
    return module_save(r, "zombie", &m);
}
