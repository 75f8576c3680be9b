/* detection_rules.c — the rules of a detection policy write, and the read
 * tree (every leaf of the catalogue's op_detection_defaults, the host's own
 * leaves over them). Pure: no request, no store. */
#include <string.h>

#include "api/op/op_mitigation.h"

/* The bps and blackhole values only the total_traffic leaf takes (the
 * document: "when name is total_traffic, blackhole_bps, blackhole_pps,
 * blackhole_time, high_bps and low_bps must be provided"). */
static const char *const traffic_only[] = {
    "low_bps", "high_bps", "blackhole_bps", "blackhole_pps", "blackhole_time", "direction_bps", NULL};
static const char *const traffic_required[] = {"low_bps",       "high_bps",       "blackhole_bps",
                                               "blackhole_pps", "blackhole_time", NULL};

static const char *str(const json_t *fields, const char *name)
{
    return json_string_value(json_object_get(fields, name));
}

/* a <= b for two rate fields, else a refusal naming `named` (a or b). */
static int ordered(const json_t *fields, const char *a, const char *b, const char *named,
                   struct op_refusal *why)
{
    uint64_t va = op_rate_value(str(fields, a)), vb = op_rate_value(str(fields, b));
    if (va <= vb)
        return 0;
    if (strcmp(named, a) == 0)
        op_refuse(why, E_RULE, "%s: %s must not be above %s %s", a, str(fields, a), b, str(fields, b));
    else
        op_refuse(why, E_RULE, "%s: %s must not be below %s %s", b, str(fields, b), a, str(fields, a));
    return -1;
}

static void names_of(const json_t *group, char *out, size_t size)
{
    const char *key;
    json_t *v;
    out[0] = '\0';
    json_object_foreach ((json_t *)group, key, v) {
        if (out[0])
            strncat(out, ", ", size - strlen(out) - 1);
        strncat(out, key, size - strlen(out) - 1);
    }
}

json_t *op_detection_leaf(const json_t *tree, const json_t *stored, const json_t *fields,
                          struct op_refusal *why)
{
    const char *type = str(fields, "type"), *name = str(fields, "name");
    const json_t *group = type ? json_object_get(tree, type) : NULL;
    if (!json_is_object(group)) {
        op_refuse(why, E_FIELD_INVALID, "type: %s is not a detection type", type ? type : "(none)");
        return NULL;
    }
    const json_t *def = name ? json_object_get(group, name) : NULL;
    if (!json_is_object(def)) {
        char names[512];
        names_of(group, names, sizeof names);
        op_refuse(why, E_RULE, "name: %s is not a detection of type %s (%s)", name ? name : "(none)", type,
                  names);
        return NULL;
    }
    bool traffic = strcmp(name, "total_traffic") == 0;
    for (const char *const *f = traffic ? traffic_required : traffic_only; *f; f++) {
        bool given = json_object_get(fields, *f) != NULL;
        if (traffic && !given) {
            op_refuse(why, E_FIELD_MISSING, "%s: is required when name is total_traffic", *f);
            return NULL;
        }
        if (!traffic && given) {
            op_refuse(why, E_RULE, "%s: only the total_traffic detection takes bps and blackhole values", *f);
            return NULL;
        }
    }
    /* low <= high; blackholing (everything dropped) starts at or above high */
    if (ordered(fields, "low_pps", "high_pps", "low_pps", why))
        return NULL;
    if (traffic && (ordered(fields, "low_bps", "high_bps", "low_bps", why) ||
                    ordered(fields, "high_pps", "blackhole_pps", "blackhole_pps", why) ||
                    ordered(fields, "high_bps", "blackhole_bps", "blackhole_bps", why)))
        return NULL;

    const json_t *mine = json_object_get(json_object_get(stored, type), name);
    json_t *leaf = op_merge(def, json_is_object(mine) ? mine : NULL);
    const char *key;
    json_t *base;
    json_object_foreach (leaf, key, base) {
        json_t *v = json_object_get(fields, key);
        if (v)
            json_object_set(leaf, key, v);
    }
    return leaf;
}

json_t *op_detection_read(const json_t *tree, const json_t *stored, long model)
{
    /* The defaults are shared, not copied (the read is only encoded): only
     * a group the host wrote to gets an object of its own. */
    json_t *out = json_pack("{s:I}", "model", (json_int_t)model);
    const char *group;
    json_t *leaves;
    json_object_foreach ((json_t *)tree, group, leaves) {
        const json_t *mine = json_object_get(stored, group);
        if (!json_is_object(mine) || json_object_size(mine) == 0) {
            json_object_set(out, group, leaves);
            continue;
        }
        json_t *g = json_object();
        const char *name;
        json_t *def;
        json_object_foreach (leaves, name, def) {
            const json_t *leaf = json_object_get(mine, name);
            json_object_set_new(g, name, json_is_object(leaf) ? op_merge(def, leaf) : json_incref(def));
        }
        json_object_set_new(out, group, g);
    }
    return out;
}
