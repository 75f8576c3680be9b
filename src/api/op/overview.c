/* overview.c — the overview policy of a site, a network or a host: the
 * auto-mitigation profile and the detection, custom and mitigation
 * switches. network_id 0 is the site level, host_id 0 the network level.
 * One "op.site.policy" document per site holds every level:
 *   {"levels": {"site": {...}, "<network_id>": {...}, "<network_id>/<host_id>": {...}}}
 * so that a profile's delete can see, in one read, whether a level uses it. */
#include <string.h>

#include "api/op/op_mitigation.h"

/* The level's object in the policy document (created when absent). */
static json_t *level_of(struct resource *pol, const char *key)
{
    json_t *levels = json_object_get(pol->doc, "levels");
    if (!json_is_object(levels)) {
        levels = json_object();
        json_object_set_new(pol->doc, "levels", levels);
    }
    json_t *l = json_object_get(levels, key);
    if (!json_is_object(l)) {
        l = json_object();
        json_object_set_new(levels, key, l);
    }
    return l;
}

static long level_int(struct resource *pol, const char *key, const char *member)
{
    return (long)json_integer_value(
        json_object_get(json_object_get(json_object_get(pol->doc, "levels"), key), member));
}

static const char *level_profile(struct resource *pol, const char *key)
{
    const char *s = json_string_value(
        json_object_get(json_object_get(json_object_get(pol->doc, "levels"), key), "auto_profile"));
    return s && *s ? s : NULL;
}

int op_policy_profile_set(struct req *r)
{
    struct op_path p;
    struct resource pol, profile;
    if (op_path_load(r, true, &p) != 0 || op_settings_load(r, &OP_SITE_POLICY, &p.site, &pol) != 0 ||
        op_profile_find(r, &p.site, field_str(r, "profile_id"), "profile_id", &profile) != 0)
        return 0;
    json_object_set_new(level_of(&pol, p.level_key), "auto_profile", json_string(profile.name));
    if (op_settings_save(r, &OP_SITE_POLICY, &p.site, &pol) != 0)
        return 0;
    return reply_result(r, NULL);
}

int op_policy_switch_set(struct req *r)
{
    struct op_path p;
    struct resource pol;
    if (op_path_load(r, true, &p) != 0 || op_settings_load(r, &OP_SITE_POLICY, &p.site, &pol) != 0)
        return 0;
    const char *type = field_str(r, "switch_type");
    long on = (long)field_int(r, "is_enable", 0);
    if (strcmp(type, "detection") == 0) {
        if (!p.site_level)
            return reply_error(
                r, E_RULE, "switch_type: detection is switched at the site level (network_id 0, host_id 0)");
        /* gaps B.4.4: the read says 0 off, 2 auto; 1 and 2 both switch to auto */
        if (on && !level_profile(&pol, "site"))
            return reply_error(r, E_STATE,
                               "is_enable: automatic detection needs the site's auto-mitigation profile; "
                               "POST policy/profile at the site level first");
        json_object_set_new(level_of(&pol, "site"), "detection_mode", json_integer(on ? 2 : 0));
    } else {
        if (p.site_level)
            return reply_error(r, E_RULE, "switch_type: %s is switched at the network or host level", type);
        if (on > 1)
            return reply_error(r, E_FIELD_INVALID, "is_enable: must be 0 or 1 for %s", type);
        json_object_set_new(level_of(&pol, p.level_key),
                            strcmp(type, "custom") == 0 ? "is_customize" : "mitigation_mode",
                            json_integer(on));
    }
    if (op_settings_save(r, &OP_SITE_POLICY, &p.site, &pol) != 0)
        return 0;
    return reply_result(r, NULL);
}

int op_policy_switch_get(struct req *r)
{
    struct op_path p;
    struct resource pol;
    if (op_path_load(r, true, &p) != 0 || op_settings_load(r, &OP_SITE_POLICY, &p.site, &pol) != 0)
        return 0;
    /* the profile a level uses: its own, else its network's, else the site's */
    const char *profile = level_profile(&pol, p.level_key);
    if (!profile && !p.site_level && !p.network_level)
        profile = level_profile(&pol, p.network.id);
    if (!profile)
        profile = level_profile(&pol, "site");
    return reply_result(r,
                        json_pack("{s:s,s:i,s:i,s:i}", "auto_profile", profile ? profile : "",
                                  "detection_mode", (int)level_int(&pol, "site", "detection_mode"),
                                  "is_customize", (int)level_int(&pol, p.level_key, "is_customize"),
                                  "mitigation_mode", (int)level_int(&pol, p.level_key, "mitigation_mode")));
}
