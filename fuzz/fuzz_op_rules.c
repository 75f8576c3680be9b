/* fuzz_op_rules.c — the pure rules of Origin Protection mitigation
 * (api/op/op_mitigation.h) on arbitrary field objects, as a JSON body could
 * bring them: detection leaves against the shipped tree, flex filter
 * documents, UDP flood writes. Input: [selector] JSON body, checked first
 * against the route's field specs as the dispatcher does.
 * Invariants: a refusal has an error and a message naming a field; an
 * accepted leaf has exactly the default leaf's members, with low <= high;
 * an accepted flex filter has a known action and the read shape. */
#include <stdint.h>
#include <string.h>

#include "api/op/op_mitigation.h"
#include "core/catalogue.h"
#include "core/route.h"
#include "fuzz_assert.h"

static json_t *tree, *udp_defaults;

static void check_refusal(const struct op_refusal *why)
{
    FUZZ_ASSERT(why->err != E_OK && strchr(why->msg, ':') != NULL);
}

static void detection(json_t *fields)
{
    struct op_refusal why = {0};
    json_t *leaf = op_detection_leaf(tree, NULL, fields, &why);
    if (!leaf) {
        check_refusal(&why);
        return;
    }
    const json_t *def =
        json_object_get(json_object_get(tree, json_string_value(json_object_get(fields, "type"))),
                        json_string_value(json_object_get(fields, "name")));
    FUZZ_ASSERT(json_object_size(leaf) == json_object_size(def));
    const char *lo = json_string_value(json_object_get(leaf, "low_pps"));
    const char *hi = json_string_value(json_object_get(leaf, "high_pps"));
    if (lo && hi && !op_rule_rate(json_object_get(leaf, "low_pps"), 0) &&
        !op_rule_rate(json_object_get(leaf, "high_pps"), 0))
        FUZZ_ASSERT(op_rate_value(lo) <= op_rate_value(hi));
    json_decref(leaf);
}

static void flex(json_t *fields, bool need)
{
    struct op_refusal why = {0};
    json_t *doc = op_flex_doc(fields, need, &why);
    if (!doc) {
        check_refusal(&why);
        return;
    }
    const char *action = json_string_value(json_object_get(doc, "action"));
    FUZZ_ASSERT(action &&
                (!strcmp(action, "pass") || !strcmp(action, "drop") || !strcmp(action, "rate-limit")));
    FUZZ_ASSERT(json_is_object(json_object_get(doc, "protocol")) &&
                json_is_object(json_object_get(doc, "port")) &&
                json_is_object(json_object_get(doc, "payload_string")));
    json_decref(doc);
}

static void udp(json_t *fields)
{
    json_t *state = op_merge(udp_defaults, NULL);
    struct op_refusal why = {0};
    if (op_udp_policy(state, fields, &why) != 0)
        check_refusal(&why);
    const char *module = json_string_value(json_object_get(fields, "module"));
    long on = (long)json_integer_value(json_object_get(fields, "is_enabled"));
    if (op_udp_policy_switch(state, module, on, &why) != 0)
        check_refusal(&why);
    if (op_udp_switch(state, module, on, &why) != 0)
        check_refusal(&why);
    if (op_udp_zero_payload(state, on, &why) != 0)
        check_refusal(&why);
    op_udp_derive(state);
    json_decref(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!tree) {
        const char *why;
        tree = catalogue_default_value("op_detection_defaults", &why);
        json_t *all = catalogue_default_value("op_mitigation_defaults", &why);
        udp_defaults = json_incref(json_object_get(all, "udp_flood"));
        json_decref(all);
        FUZZ_ASSERT(tree && udp_defaults);
    }
    if (size < 1)
        return 0;
    static const char *const ids[] = {"op.detection.policy.set", "op.flex_filter.create",
                                      "op.specp.flex_filter.create", "op.specp.udp_flood.policy.set"};
    const struct route *rt = NULL;
    for (size_t i = 0; i < routes_count && !rt; i++)
        if (strcmp(routes[i].id, ids[data[0] % 4]) == 0)
            rt = &routes[i];
    FUZZ_ASSERT(rt);
    json_t *body = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, NULL);
    if (!json_is_object(body)) {
        json_decref(body);
        return 0;
    }
    json_t *fields = NULL;
    struct spec_error e;
    spec_check(rt->fields, NULL, body, true, NULL, NULL, &fields, &e);
    json_decref(body);
    if (e.err != E_OK)
        return 0;
    switch (data[0] % 4) {
    case 0: detection(fields); break;
    case 1: flex(fields, true); break;
    case 2: flex(fields, false); break;
    default: udp(fields); break;
    }
    json_decref(fields);
    return 0;
}
