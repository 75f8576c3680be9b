/* flex_rules.c — a flex (advanced payload) filter from the fields of a POST
 * or PUT: every conditional rule of the document, and the stored document,
 * which is the read shape without filter_id. Pure: no request, no store. */
#include <string.h>
#include <strings.h>

#include "api/op/op_mitigation.h"

/* A1.5: the rate-limit action is spelled two ways in the descriptions; any
 * letter case of "rate-limit" (and "ratelimit", zombie's spelling) is taken,
 * and "rate-limit" is what is stored and answered. */
static const char *action_of(const char *sent)
{
    static const char *const known[][2] = {
        {"pass", "pass"}, {"drop", "drop"}, {"rate-limit", "rate-limit"}, {"ratelimit", "rate-limit"}};
    for (size_t i = 0; sent && i < sizeof known / sizeof known[0]; i++)
        if (strcasecmp(sent, known[i][0]) == 0)
            return known[i][1];
    return NULL;
}

static long flag(const json_t *fields, const char *name)
{
    return (long)json_integer_value(json_object_get(fields, name));
}

static int no_duplicates(const json_t *list, const char *field, struct op_refusal *why)
{
    long dup = op_first_duplicate(list);
    if (dup < 0)
        return 0;
    op_refuse(why, E_FIELD_INVALID, "%s[%ld]: is given twice", field, dup);
    return -1;
}

json_t *op_flex_doc(const json_t *fields, bool need_enabled, struct op_refusal *why)
{
    const char *sent = json_string_value(json_object_get(fields, "action"));
    const char *action = action_of(sent);
    if (!action) {
        op_refuse(why, E_FIELD_INVALID, "action: must be one of pass, drop, rate-limit");
        return NULL;
    }
    bool limit = strcmp(action, "rate-limit") == 0;
    static const char *const limits[] = {"bps_limit", "pps_limit"};
    for (int i = 0; i < 2; i++) {
        bool given = json_object_get(fields, limits[i]) != NULL;
        if (limit && !given) {
            op_refuse(why, E_FIELD_MISSING, "%s: is required when action is rate-limit", limits[i]);
            return NULL;
        }
        if (!limit && given) {
            op_refuse(why, E_RULE, "%s: only a rate-limit action takes limits", limits[i]);
            return NULL;
        }
    }
    long proto_on = flag(fields, "protocol_enabled"), port_on = flag(fields, "port_enabled"),
         payload_on = flag(fields, "payload_string_enabled");
    const char *protocol = json_string_value(json_object_get(fields, "protocol"));
    json_t *ports = json_object_get(fields, "port"), *strings = json_object_get(fields, "payload_string");
    bool ip = protocol && strcmp(protocol, "ip") == 0;
    if (proto_on && !protocol) {
        op_refuse(why, E_FIELD_MISSING, "protocol: is required when protocol_enabled is 1");
        return NULL;
    }
    if (port_on && json_array_size(ports) == 0 && !ip) {
        op_refuse(why, E_FIELD_MISSING, "port: is required when port_enabled is 1 (unless protocol is ip)");
        return NULL;
    }
    if (ip && json_array_size(ports) > 0) {
        op_refuse(why, E_RULE, "port: protocol ip has no ports");
        return NULL;
    }
    if (payload_on && json_array_size(strings) == 0) {
        op_refuse(why, E_FIELD_MISSING, "payload_string: is required when payload_string_enabled is 1");
        return NULL;
    }
    if (need_enabled && !proto_on && !port_on && !payload_on) {
        op_refuse(
            why, E_RULE,
            "protocol_enabled: at least one of protocol_enabled, port_enabled and payload_string_enabled "
            "must be 1");
        return NULL;
    }
    if (no_duplicates(ports, "port", why) || no_duplicates(strings, "payload_string", why))
        return NULL;
    json_t *limit_of[2];
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(fields, limits[i]);
        limit_of[i] = v ? json_incref(v) : json_string("");
    }
    json_t *port_list = ports ? json_incref(ports) : json_array();
    json_t *string_list = strings ? json_incref(strings) : json_array();
    return json_pack("{s:O,s:s,s:o,s:o,s:{s:i,s:s},s:{s:i,s:o},s:{s:i,s:o}}", "filter_name",
                     json_object_get(fields, "filter_name"), "action", action, "bps_limit", limit_of[0],
                     "pps_limit", limit_of[1], "protocol", "is_enabled", (int)proto_on, "type",
                     protocol ? protocol : "", "port", "is_enabled", (int)port_on, "ports", port_list,
                     "payload_string", "is_enabled", (int)payload_on, "string", string_list);
}
