/* test_op_mitigation.c — the pure rules of Origin Protection part B
 * (api/op/op_mitigation.h): detection leaves against the catalogue's tree,
 * flex filter documents, UDP flood modules, settings over defaults. */
#include "api/op/op_mitigation.h"

#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "unit.h"

static json_t *catalogue(const char *key)
{
    const char *why = NULL;
    json_t *v = catalogue_default_value(key, &why);
    if (!v)
        fprintf(stderr, "  catalogue %s: %s\n", key, why ? why : "?");
    return v;
}

/* fields of a detection write, as the route's spec hands them over */
static json_t *det(const char *type, const char *name, const char *low, const char *high)
{
    return json_pack("{s:s,s:s,s:i,s:s,s:s}", "type", type, "name", name, "is_enabled", 1, "low_pps", low,
                     "high_pps", high);
}

TEST(detection_tree_has_every_leaf_of_the_document)
{
    json_t *tree = catalogue("op_detection_defaults");
    CHECK(tree != NULL);
    const char *groups[][2] = {{"tcp", "5"}, {"udp", "15"}, {"icmp", "3"},         {"ip", "3"},
                               {"sip", "1"}, {"http", "2"}, {"total_traffic", "1"}};
    for (size_t i = 0; i < 7; i++)
        CHECK_INT(json_object_size(json_object_get(tree, groups[i][0])), atoi(groups[i][1]));
    json_t *read = op_detection_read(tree, NULL, 1);
    CHECK_INT(json_integer_value(json_object_get(read, "model")), 1);
    json_t *tt = json_object_get(json_object_get(read, "total_traffic"), "total_traffic");
    CHECK(json_object_get(tt, "blackhole_time") != NULL);
    CHECK_STR(json_string_value(json_object_get(tt, "direction_bps")), "in");
    json_t *syn = json_object_get(json_object_get(read, "tcp"), "tcp_syn");
    CHECK_INT(json_object_size(syn), 4); /* is_enabled, low_pps, high_pps, direction_pps */
    json_decref(read);
    json_decref(tree);
}

TEST(detection_leaf_rules)
{
    json_t *tree = catalogue("op_detection_defaults");
    struct op_refusal why;
    json_t *f = det("tcp", "tcp_syn", "2.5K", "1M"), *leaf = op_detection_leaf(tree, NULL, f, &why);
    CHECK(leaf != NULL);
    CHECK_STR(json_string_value(json_object_get(leaf, "low_pps")), "2.5K");
    CHECK_STR(json_string_value(json_object_get(leaf, "direction_pps")), "in"); /* kept from the default */
    json_decref(leaf);
    json_decref(f);

    f = det("tcp", "udp_total", "1", "2"); /* a name of another group */
    CHECK(op_detection_leaf(tree, NULL, f, &why) == NULL);
    CHECK_INT(why.err, E_RULE);
    CHECK(strstr(why.msg, "name: udp_total is not a detection of type tcp") == why.msg);
    json_decref(f);

    f = det("icmp", "icmp_total", "1001", "1K"); /* low above high: exact, decimal units */
    CHECK(op_detection_leaf(tree, NULL, f, &why) == NULL);
    CHECK(strstr(why.msg, "low_pps: 1001 must not be above high_pps 1K") == why.msg);
    json_decref(f);
    f = det("icmp", "icmp_total", "1000", "1K");
    leaf = op_detection_leaf(tree, NULL, f, &why);
    CHECK(leaf != NULL);
    json_decref(leaf);
    json_decref(f);

    f = det("udp", "dns_flood", "1", "2"); /* bps values only for total_traffic */
    json_object_set_new(f, "low_bps", json_string("1G"));
    CHECK(op_detection_leaf(tree, NULL, f, &why) == NULL);
    CHECK(strncmp(why.msg, "low_bps: only the total_traffic", 31) == 0);
    json_decref(f);
    json_decref(tree);
}

TEST(detection_total_traffic_needs_five_fields)
{
    json_t *tree = catalogue("op_detection_defaults");
    struct op_refusal why;
    json_t *f = det("total_traffic", "total_traffic", "1K", "2K");
    const char *need[] = {"low_bps", "high_bps", "blackhole_bps", "blackhole_pps"};
    const char *val[] = {"1G", "2G", "10G", "5K"};
    for (int i = 0; i < 4; i++) {
        CHECK(op_detection_leaf(tree, NULL, f, &why) == NULL);
        CHECK_INT(why.err, E_FIELD_MISSING);
        CHECK(strncmp(why.msg, need[i], strlen(need[i])) == 0);
        json_object_set_new(f, need[i], json_string(val[i]));
    }
    CHECK(op_detection_leaf(tree, NULL, f, &why) == NULL);
    CHECK(strncmp(why.msg, "blackhole_time: is required", 27) == 0);
    json_object_set_new(f, "blackhole_time", json_integer(300));
    json_t *leaf = op_detection_leaf(tree, NULL, f, &why);
    CHECK(leaf != NULL);
    CHECK_INT(json_integer_value(json_object_get(leaf, "blackhole_time")), 300);
    json_decref(leaf);
    json_object_set_new(f, "blackhole_pps", json_string("1.999K")); /* below high_pps 2K */
    CHECK(op_detection_leaf(tree, NULL, f, &why) == NULL);
    CHECK(strstr(why.msg, "blackhole_pps: 1.999K must not be below high_pps 2K") == why.msg);
    json_decref(f);
    json_decref(tree);
}

TEST(detection_keeps_stored_leaf_members)
{
    json_t *tree = catalogue("op_detection_defaults");
    json_t *stored = json_pack("{s:{s:{s:s}}}", "sip", "sip_flood", "direction_pps", "both");
    struct op_refusal why;
    json_t *f = det("sip", "sip_flood", "1", "1"), *leaf = op_detection_leaf(tree, stored, f, &why);
    CHECK_STR(json_string_value(json_object_get(leaf, "direction_pps")), "both");
    json_decref(leaf);
    json_decref(f);
    json_decref(stored);
    json_decref(tree);
}

TEST(detection_read_lays_stored_leaves_over_defaults)
{
    json_t *tree = catalogue("op_detection_defaults");
    json_t *stored = json_pack("{s:{s:{s:i,s:s}}}", "tcp", "tcp_rst", "is_enabled", 0, "low_pps", "1");
    json_t *read = op_detection_read(tree, stored, 0);
    json_t *rst = json_object_get(json_object_get(read, "tcp"), "tcp_rst");
    CHECK_INT(json_integer_value(json_object_get(rst, "is_enabled")), 0);
    CHECK_STR(json_string_value(json_object_get(rst, "low_pps")), "1");
    CHECK_STR(json_string_value(json_object_get(rst, "high_pps")), "200K"); /* the default's */
    CHECK(json_equal(json_object_get(json_object_get(read, "tcp"), "tcp_syn"),
                     json_object_get(json_object_get(tree, "tcp"), "tcp_syn")));
    CHECK(json_equal(json_object_get(read, "udp"), json_object_get(tree, "udp")));
    CHECK_INT(json_object_size(read), json_object_size(tree) + 1); /* + model */
    /* the catalogue's tree is left as it was */
    CHECK_STR(json_string_value(
                  json_object_get(json_object_get(json_object_get(tree, "tcp"), "tcp_rst"), "low_pps")),
              "50K");
    json_decref(read);
    json_decref(stored);
    json_decref(tree);
}

static json_t *flex(const char *action)
{
    return json_pack("{s:s,s:s,s:i,s:i,s:i}", "filter_name", "f1", "action", action, "protocol_enabled", 0,
                     "port_enabled", 0, "payload_string_enabled", 0);
}

TEST(flex_rules)
{
    struct op_refusal why;
    json_t *f = flex("drop");
    CHECK(op_flex_doc(f, true, &why) == NULL); /* customer doors: one flag must be on */
    CHECK_INT(why.err, E_RULE);
    json_t *doc = op_flex_doc(f, false, &why); /* site doors: not required */
    CHECK(doc != NULL);
    CHECK_INT(json_array_size(json_object_get(json_object_get(doc, "port"), "ports")), 0);
    json_decref(doc);

    json_object_set_new(f, "protocol_enabled", json_integer(1));
    CHECK(op_flex_doc(f, true, &why) == NULL);
    CHECK(strncmp(why.msg, "protocol: is required", 21) == 0);
    json_object_set_new(f, "protocol", json_string("udp"));
    json_object_set_new(f, "port_enabled", json_integer(1));
    CHECK(op_flex_doc(f, true, &why) == NULL);
    CHECK(strncmp(why.msg, "port: is required", 17) == 0);
    json_object_set_new(f, "protocol", json_string("ip")); /* ip: no port needed, none taken */
    doc = op_flex_doc(f, true, &why);
    CHECK(doc != NULL);
    json_decref(doc);
    json_object_set_new(f, "port", json_pack("[i]", 53));
    CHECK(op_flex_doc(f, true, &why) == NULL);
    json_object_set_new(f, "protocol", json_string("udp"));
    json_object_set_new(f, "port", json_pack("[i,i,i]", 53, 0, 53));
    CHECK(op_flex_doc(f, true, &why) == NULL);
    CHECK_STR(why.msg, "port[2]: is given twice");
    json_object_set_new(f, "payload_string_enabled", json_integer(1));
    json_object_set_new(f, "port", json_pack("[i,i]", 53, 65535));
    CHECK(op_flex_doc(f, true, &why) == NULL);
    CHECK(strncmp(why.msg, "payload_string: is required", 27) == 0);
    json_object_set_new(f, "payload_string", json_pack("[s]", "GET /"));
    doc = op_flex_doc(f, true, &why);
    CHECK(doc != NULL);
    CHECK_STR(json_string_value(json_object_get(json_object_get(doc, "protocol"), "type")), "udp");
    json_decref(doc);
    json_decref(f);
}

TEST(flex_rate_limit_spellings)
{
    struct op_refusal why;
    const char *spellings[] = {"rate-limit", "Rate-Limit", "RATE-LIMIT", "ratelimit", "RateLimit"};
    for (int i = 0; i < 5; i++) {
        json_t *f = flex(spellings[i]);
        json_object_set_new(f, "protocol_enabled", json_integer(1));
        json_object_set_new(f, "protocol", json_string("tcp"));
        CHECK(op_flex_doc(f, true, &why) == NULL); /* limits required */
        CHECK(strncmp(why.msg, "bps_limit: is required when action is rate-limit", 48) == 0);
        json_object_set_new(f, "bps_limit", json_string("1M"));
        json_object_set_new(f, "pps_limit", json_string("1K"));
        json_t *doc = op_flex_doc(f, true, &why);
        CHECK_STR(json_string_value(json_object_get(doc, "action")), "rate-limit");
        json_decref(doc);
        json_decref(f);
    }
    json_t *f = flex("Drop");
    json_object_set_new(f, "protocol_enabled", json_integer(1));
    json_object_set_new(f, "protocol", json_string("tcp"));
    json_object_set_new(f, "pps_limit", json_string("1K"));
    CHECK(op_flex_doc(f, true, &why) == NULL); /* limits only with rate-limit */
    CHECK_INT(why.err, E_RULE);
    json_object_set_new(f, "action", json_string("rate_limit"));
    CHECK(op_flex_doc(f, true, &why) == NULL);
    CHECK_INT(why.err, E_FIELD_INVALID);
    json_decref(f);
}

TEST(udp_modules)
{
    json_t *defaults = catalogue("op_mitigation_defaults");
    json_t *state = op_merge(json_object_get(defaults, "udp_flood"), NULL);
    struct op_refusal why;
    json_t *f = json_pack("{s:s,s:i}", "module", "dns_query_length", "size", 700);
    CHECK_INT(op_udp_policy(state, f, &why), 0);
    CHECK_INT(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(state, "dns_flood_amplification"), "dns_query_length"), "size")),
        700);
    json_object_set_new(f, "bps_limit", json_string("1M"));
    CHECK_INT(op_udp_policy(state, f, &why), -1); /* length modules take size only */
    json_decref(f);
    f = json_pack("{s:s,s:i}", "module", "udp_rate_limit", "size", 10);
    CHECK_INT(op_udp_policy(state, f, &why), -1);
    CHECK(strncmp(why.msg, "size: module udp_rate_limit", 27) == 0);
    json_object_del(f, "size");
    CHECK_INT(op_udp_policy(state, f, &why), -1); /* a rate module needs a limit */
    json_object_set_new(f, "pps_limit", json_string("20K"));
    CHECK_INT(op_udp_policy(state, f, &why), 0);
    CHECK_STR(json_string_value(json_object_get(json_object_get(state, "udp_rate_limit"), "pps_limit")),
              "20K");
    json_decref(f);
    f = json_pack("{s:s}", "module", "drop_ssdp"); /* a switch-only module */
    CHECK_INT(op_udp_policy(state, f, &why), -1);
    CHECK_INT(why.err, E_FIELD_INVALID);
    json_decref(f);

    CHECK_INT(op_udp_policy_switch(state, "udp_rate_limit", 1, &why), -1); /* not in that list */
    CHECK_INT(op_udp_policy_switch(state, "drop_ssdp", 1, &why), 0);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(state, "ssdp_flood"), "is_enabled")), 1);
    CHECK_INT(op_udp_policy_switch(state, "ntp_response_length", 1, &why), 0);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(state, "ntp_amplification"), "is_enabled")),
              1);
    CHECK_INT(op_udp_policy_switch(state, "ntp_response_length", 0, &why), 0);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(state, "ntp_amplification"), "is_enabled")),
              0);
    CHECK_INT(op_udp_switch(state, "drop_ssdp", 1, &why), -1);
    CHECK_INT(op_udp_switch(state, "zero_data_payload", 1, &why), 0);
    CHECK_INT(op_udp_zero_payload(state, 0, &why), -1);
    CHECK_INT(op_udp_zero_payload(state, 129, &why), -1);
    CHECK_INT(op_udp_zero_payload(state, 128, &why), 0);
    CHECK_INT(json_integer_value(
                  json_object_get(json_object_get(state, "zero_data_payload"), "zero_payload_length")),
              128);
    json_decref(state);
    json_decref(defaults);
}

TEST(merge_and_duplicates)
{
    json_t *def = json_pack("{s:i,s:{s:i,s:s}}", "a", 1, "b", "x", 2, "y", "d");
    json_t *mine = json_pack("{s:{s:i},s:i}", "b", "x", 5, "stray", 9);
    json_t *m = op_merge(def, mine);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(m, "b"), "x")), 5);
    CHECK_STR(json_string_value(json_object_get(json_object_get(m, "b"), "y")), "d");
    CHECK(json_object_get(m, "stray") == NULL);
    json_decref(m);
    json_decref(mine);
    json_decref(def);
    json_t *a = json_pack("[s,s,s]", "1.2.3.4/32", "::/0", "1.2.3.4/32");
    CHECK_INT(op_first_duplicate(a), 2);
    json_decref(a);
    a = json_pack("[i,i]", 1, 2);
    CHECK_INT(op_first_duplicate(a), -1);
    json_decref(a);
    const char *rates[][2] = {
        {"1.5", "bad"}, {"10T", "bad"}, {"10000G", "ok"}, {"10001G", "bad"} /* above OP_RATE_MAX */};
    for (int i = 0; i < 4; i++) {
        json_t *v = json_string(rates[i][0]);
        CHECK((op_rule_rate(v, 0) == NULL) == (strcmp(rates[i][1], "ok") == 0));
        json_decref(v);
    }
    CHECK_INT(op_rate_value("2.5K"), 2500);
}

UNIT_MAIN(UNIT_CASE(detection_tree_has_every_leaf_of_the_document), UNIT_CASE(detection_leaf_rules),
          UNIT_CASE(detection_total_traffic_needs_five_fields),
          UNIT_CASE(detection_keeps_stored_leaf_members),
          UNIT_CASE(detection_read_lays_stored_leaves_over_defaults), UNIT_CASE(flex_rules),
          UNIT_CASE(flex_rate_limit_spellings), UNIT_CASE(udp_modules), UNIT_CASE(merge_and_duplicates))
