/* detection.c — a host's detection: its mode (0 normal, 1 rapid) and its
 * policy, one leaf per detection of the catalogue's tree
 * (op_detection_defaults). Stored in the host's "op.host.detection"
 * document: {model, policy: {group: {leaf name: leaf}}} holding only the
 * leaves the client wrote; the read lays them over the defaults. */
#include <string.h>

#include "api/op/op_mitigation.h"
#include "core/catalogue.h"
#include "core/resource.h"

int op_detection_mode_set(struct req *r)
{
    struct op_path p;
    struct resource det;
    if (op_path_load(r, false, &p) != 0 || op_settings_load(r, &OP_HOST_DETECTION, &p.host, &det) != 0)
        return 0;
    json_object_set_new(det.doc, "model", json_integer(strcmp(field_str(r, "model"), "1") == 0 ? 1 : 0));
    if (op_settings_save(r, &OP_HOST_DETECTION, &p.host, &det) != 0)
        return 0;
    return reply_result(r, NULL);
}

int op_detection_policy_set(struct req *r)
{
    struct op_path p;
    struct resource det;
    if (op_path_load(r, false, &p) != 0 || op_settings_load(r, &OP_HOST_DETECTION, &p.host, &det) != 0)
        return 0;
    json_t *tree = op_catalogue(r, "op_detection_defaults");
    if (!tree)
        return 0;
    json_t *policy = json_object_get(det.doc, "policy");
    struct op_refusal why;
    json_t *leaf = op_detection_leaf(tree, policy, r->fields, &why);
    if (!leaf)
        return reply_refusal(r, &why);
    if (!json_is_object(policy)) {
        policy = json_object();
        json_object_set_new(det.doc, "policy", policy);
    }
    const char *type = field_str(r, "type");
    json_t *group = json_object_get(policy, type);
    if (!json_is_object(group)) {
        group = json_object();
        json_object_set_new(policy, type, group);
    }
    json_object_set_new(group, field_str(r, "name"), leaf);
    if (op_settings_save(r, &OP_HOST_DETECTION, &p.host, &det) != 0)
        return 0;
    return reply_result(r, NULL);
}

int op_detection_policy_get(struct req *r)
{
    struct op_path p;
    struct resource det;
    if (op_path_load(r, false, &p) != 0 || op_settings_load(r, &OP_HOST_DETECTION, &p.host, &det) != 0)
        return 0;
    json_t *tree = op_catalogue(r, "op_detection_defaults");
    if (!tree)
        return 0;
    long model = (long)json_integer_value(json_object_get(det.doc, "model"));
    return reply_result(r, op_detection_read(tree, json_object_get(det.doc, "policy"), model));
}
