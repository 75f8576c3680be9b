/* catalogue_check.c — see catalogue_check.h. */
#include "core/catalogue_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/net.h"

/* Objects whose member names are the operator's data, by path ("*": any
 * member). The detection tree is the operator's too: types, then leaves. */
static const char *const map_paths[] = {
    "countries",         "ip_protocol_number_list",     "filter_icmp_type",        "icmp_filter_types",
    "ap_service_plans",  "op_auto_mitigation_templates", "op_service_plans.by_customer",
    "op_detection_defaults", "op_detection_defaults.*",
};

/* Arrays shipped empty: what each element must be. */
enum element_rule { ANY_STRING, IP_ADDRESS, IPV4_BLOCK, IPV6_BLOCK, SAME_AS };
static const struct {
    const char *path;
    enum element_rule rule;
    const char *like; /* SAME_AS: the path of the shipped value to match */
} empty_rules[] = {
    {"collector_ip", IP_ADDRESS, NULL},
    {"idc_name", ANY_STRING, NULL},
    {"ap_vip_pools.ipv4", IPV4_BLOCK, NULL},
    {"ap_vip_pools.ipv6", IPV6_BLOCK, NULL},
    {"op_service_plans.by_customer", SAME_AS, "op_service_plans.default"},
};

struct check {
    const json_t *root_def; /* for SAME_AS */
    char *why;
    size_t why_size;
};

static int fail(struct check *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct check *c, const char *path, const char *fmt, ...)
{
    char rule[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rule, sizeof rule, fmt, ap);
    va_end(ap);
    snprintf(c->why, c->why_size, "%s: %s", path, rule);
    return -1;
}

/* Does a path ("a.b.c") match a pattern whose segments may be "*"? */
static int path_matches(const char *pattern, const char *path)
{
    while (*pattern && *path) {
        size_t plen = strcspn(pattern, "."), len = strcspn(path, ".");
        if (!(plen == 1 && *pattern == '*') && (plen != len || strncmp(pattern, path, len) != 0))
            return 0;
        pattern += plen + (pattern[plen] == '.');
        path += len + (path[len] == '.');
    }
    return !*pattern && !*path;
}

static int is_map(const char *path)
{
    for (size_t i = 0; i < sizeof map_paths / sizeof map_paths[0]; i++)
        if (path_matches(map_paths[i], path))
            return 1;
    return 0;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

static int same_type(const json_t *a, const json_t *b)
{
    return json_typeof(a) == json_typeof(b) || (json_is_boolean(a) && json_is_boolean(b));
}

/* The shipped value at a dotted path from the root key ("op_service_plans.default"). */
static const json_t *at_path(const json_t *root, const char *path)
{
    const char *dot = strchr(path, '.');
    while (dot && root) {
        const char *next = strchr(dot + 1, '.');
        size_t len = next ? (size_t)(next - dot - 1) : strlen(dot + 1);
        root = json_object_getn(root, dot + 1, len);
        dot = next;
    }
    return root;
}

static int check_shape(struct check *c, const char *path, const json_t *def, const json_t *v);

static int check_empty_array_element(struct check *c, const char *path, enum element_rule rule, const char *like,
                                     const json_t *e)
{
    const char *s = json_string_value(e);
    struct ip_addr a;
    struct cidr b;
    switch (rule) {
    case ANY_STRING: return s && *s ? 0 : fail(c, path, "must be a non-empty string");
    case IP_ADDRESS: return s && ip_parse(s, &a) == 0 ? 0 : fail(c, path, "must be an IP address");
    case IPV4_BLOCK:
    case IPV6_BLOCK:
        if (!s || cidr_parse(s, CIDR_REJECT_HOST_BITS, &b) != 0 ||
            b.addr.family != (rule == IPV4_BLOCK ? NET_V4 : NET_V6))
            return fail(c, path, "must be an %s address block without host bits",
                        rule == IPV4_BLOCK ? "IPv4" : "IPv6");
        return 0;
    case SAME_AS: {
        const json_t *model = at_path(c->root_def, like);
        return model ? check_shape(c, path, model, e) : fail(c, path, "has no shipped model");
    }
    }
    return 0;
}

/* Shipped empty: the rule of its path, if it has one. */
static int check_empty(struct check *c, const char *path, const json_t *v)
{
    for (size_t i = 0; i < sizeof empty_rules / sizeof empty_rules[0]; i++) {
        if (strcmp(empty_rules[i].path, path) != 0)
            continue;
        char sub[256];
        if (json_is_array(v)) {
            size_t k;
            const json_t *e;
            json_array_foreach (v, k, e) {
                snprintf(sub, sizeof sub, "%s[%zu]", path, k);
                if (check_empty_array_element(c, sub, empty_rules[i].rule, empty_rules[i].like, e) != 0)
                    return -1;
            }
        } else {
            const char *name;
            const json_t *e;
            json_object_foreach ((json_t *)v, name, e) {
                snprintf(sub, sizeof sub, "%s.%s", path, name);
                if (check_empty_array_element(c, sub, empty_rules[i].rule, empty_rules[i].like, e) != 0)
                    return -1;
            }
        }
        return 0;
    }
    return json_is_array(v) ? json_array_size(v) == 0 ? 0 : fail(c, path, "must stay empty")
                            : json_object_size(v) == 0 ? 0 : fail(c, path, "must stay empty");
}

/* In an array of records, a member named "..._id" is unique. */
static int check_unique_ids(struct check *c, const char *path, const json_t *v)
{
    size_t n = json_array_size(v);
    for (size_t i = 0; i < n; i++) {
        const char *name;
        const json_t *id;
        json_object_foreach ((json_t *)json_array_get(v, i), name, id) {
            size_t len = strlen(name);
            if (len < 3 || strcmp(name + len - 3, "_id") != 0)
                continue;
            for (size_t j = 0; j < i; j++)
                if (json_equal(id, json_object_get(json_array_get(v, j), name)))
                    return fail(c, path, "%s is repeated (elements %zu and %zu)", name, j, i);
        }
    }
    return 0;
}

static int check_array(struct check *c, const char *path, const json_t *def, const json_t *v)
{
    if (json_array_size(def) == 0)
        return check_empty(c, path, v);
    const json_t *model = json_array_get(def, 0);
    char sub[256];
    size_t i;
    const json_t *e;
    json_array_foreach (v, i, e) {
        snprintf(sub, sizeof sub, "%s[%zu]", path, i);
        if (check_shape(c, sub, model, e) != 0)
            return -1;
    }
    return json_is_object(model) ? check_unique_ids(c, path, v) : 0;
}

static int check_object(struct check *c, const char *path, const json_t *def, const json_t *v)
{
    char sub[256];
    const char *name;
    const json_t *e;
    if (is_map(path)) {
        if (json_object_size(def) == 0)
            return check_empty(c, path, v);
        /* a shipped member is its own model; a new one takes the first's */
        const json_t *first = json_object_iter_value(json_object_iter((json_t *)def));
        json_object_foreach ((json_t *)v, name, e) {
            const json_t *model = json_object_get(def, name);
            snprintf(sub, sizeof sub, "%s.%s", path, name);
            if (check_shape(c, sub, model ? model : first, e) != 0)
                return -1;
        }
        return 0;
    }
    json_object_foreach ((json_t *)def, name, e) {
        snprintf(sub, sizeof sub, "%s.%s", path, name);
        const json_t *mine = json_object_get(v, name);
        if (!mine)
            return fail(c, sub, "is missing (the shipped value has it)");
        if (check_shape(c, sub, e, mine) != 0)
            return -1;
    }
    json_object_foreach ((json_t *)v, name, e) {
        if (!json_object_get(def, name)) {
            snprintf(sub, sizeof sub, "%s.%s", path, name);
            return fail(c, sub, "is not a member of the shipped value");
        }
    }
    return 0;
}

static int check_shape(struct check *c, const char *path, const json_t *def, const json_t *v)
{
    if (!same_type(def, v))
        return fail(c, path, "must be %s like the shipped value, not %s", type_name(def), type_name(v));
    if (json_is_array(def))
        return check_array(c, path, def, v);
    if (json_is_object(def))
        return check_object(c, path, def, v);
    return 0;
}

int catalogue_check(const char *key, const json_t *def, const json_t *value, char *why, size_t why_size)
{
    struct check c = {.root_def = def, .why = why, .why_size = why_size};
    return check_shape(&c, key, def, value);
}
