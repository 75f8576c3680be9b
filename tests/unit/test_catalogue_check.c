/* test_catalogue_check.c — core/catalogue_check.h: an operator's value
 * keeps the shape of the shipped default. */
#include "core/catalogue_check.h"

#include "core/catalogue.h"
#include "unit.h"

static char why[320];

/* Checks `text` as catalogue value `key` against its shipped default. */
static int check(const char *key, const char *text)
{
    const char *none;
    json_t *def = catalogue_default_value(key, &none);
    json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
    CHECK(def != NULL);
    CHECK(v != NULL);
    why[0] = '\0';
    int rc = def && v ? catalogue_check(key, def, v, why, sizeof why) : -2;
    json_decref(def);
    json_decref(v);
    return rc;
}

TEST(every_shipped_default_passes)
{
    json_t *keys = catalogue_default_keys();
    size_t i;
    json_t *k;
    json_array_foreach (keys, i, k) {
        const char *key = json_string_value(k), *none;
        json_t *def = catalogue_default_value(key, &none);
        CHECK(def != NULL);
        if (def && catalogue_check(key, def, def, why, sizeof why) != 0) {
            fprintf(stderr, "  %s: %s\n", key, why);
            CHECK(0);
        }
        json_decref(def);
    }
    json_decref(keys);
}

TEST(records_keep_their_members)
{
    CHECK_INT(check("ap_cname_ttl", "300"), 0);
    CHECK_INT(check("ap_cname_ttl", "\"300\""), -1);
    CHECK_STR(why, "ap_cname_ttl: must be an integer like the shipped value, not a string");
    CHECK_INT(check("filter_tcp_flags", "{\"other\": {}, \"reserved\": {}}"), -1); /* flags are fixed names */
    CHECK_INT(check("cp_mitigation_group_profiles", "{\"ipv4\": [{\"profile_id\": 7, \"profile_name\": \"x\"}],"
                                                    " \"ipv6\": []}"),
              0);
    CHECK_INT(check("cp_mitigation_group_profiles", "{\"ipv4\": [{\"profile_id\": \"7\", \"profile_name\": \"x\"}],"
                                                    " \"ipv6\": []}"),
              -1);
    CHECK_STR(why, "cp_mitigation_group_profiles.ipv4[0].profile_id: must be an integer like the shipped value, "
                   "not a string");
    CHECK_INT(check("cp_mitigation_group_profiles", "{\"ipv4\": [{\"profile_id\": 7, \"profile_name\": \"x\", "
                                                    "\"extra\": 1}], \"ipv6\": []}"),
              -1);
    CHECK_STR(why, "cp_mitigation_group_profiles.ipv4[0].extra: is not a member of the shipped value");
    CHECK_INT(check("cp_mitigation_group_profiles", "{\"ipv4\": []}"), -1);
    CHECK_STR(why, "cp_mitigation_group_profiles.ipv6: is missing (the shipped value has it)");
}

TEST(ids_in_a_list_are_unique)
{
    CHECK_INT(check("cp_tcp_option_filter_sets",
                    "[{\"filter_set_id\": 1, \"filter_set_name\": \"a\", \"filter_set_desc\": \"\"},"
                    " {\"filter_set_id\": 1, \"filter_set_name\": \"b\", \"filter_set_desc\": \"\"}]"),
              -1);
    CHECK_STR(why, "cp_tcp_option_filter_sets: filter_set_id is repeated (elements 0 and 1)");
}

TEST(maps_take_new_keys_of_the_same_shape)
{
    CHECK_INT(check("countries", "{\"XK\": \"Kosovo\", \"FR\": \"France\"}"), 0);
    CHECK_INT(check("countries", "{\"XK\": 1}"), -1);
    CHECK_INT(check("ap_service_plans", "{\"gold\": {\"name\": \"Gold\", \"domains\": 5, \"bandwidth_mbps\": 10}}"),
              0);
    CHECK_INT(check("ap_service_plans", "{\"gold\": {\"name\": \"Gold\"}}"), -1);
    CHECK_STR(why, "ap_service_plans.gold.domains: is missing (the shipped value has it)");
    /* the detection tree: types and leaves are the operator's, a leaf's members are not */
    CHECK_INT(check("op_detection_defaults", "{\"sip\": {\"sip_flood\": {\"is_enabled\": 0, \"low_pps\": \"7K\","
                                             " \"high_pps\": \"9K\", \"direction_pps\": \"in\"}}}"),
              0);
    CHECK_INT(check("op_detection_defaults", "{\"sip\": {\"sip_flood\": {\"is_enabled\": 0}}}"), -1);
    CHECK_STR(why, "op_detection_defaults.sip.sip_flood.low_pps: is missing (the shipped value has it)");
}

TEST(values_shipped_empty_have_rules)
{
    CHECK_INT(check("collector_ip", "[\"192.0.2.1\", \"2001:db8::1\"]"), 0);
    CHECK_INT(check("collector_ip", "[\"scrubber-1\"]"), -1);
    CHECK_STR(why, "collector_ip[0]: must be an IP address");
    CHECK_INT(check("idc_name", "[\"Frankfurt\"]"), 0);
    CHECK_INT(check("idc_name", "[7]"), -1);
    CHECK_INT(check("ap_vip_pools", "{\"ipv4\": [\"198.51.100.0/28\"], \"ipv6\": [\"2001:db8:1::/120\"]}"), 0);
    CHECK_INT(check("ap_vip_pools", "{\"ipv4\": [\"2001:db8:1::/120\"], \"ipv6\": []}"), -1);
    CHECK_INT(check("ap_vip_pools", "{\"ipv4\": [\"198.51.100.1/28\"], \"ipv6\": []}"), -1);
    CHECK_INT(check("op_service_plans", "{\"default\": {\"service_plan\": \"standard\", \"service_type\": \"gre\"},"
                                        " \"by_customer\": {\"c1\": {\"service_plan\": \"gold\", "
                                        "\"service_type\": \"direct\"}}}"),
              0);
    CHECK_INT(check("op_service_plans", "{\"default\": {\"service_plan\": \"standard\", \"service_type\": \"gre\"},"
                                        " \"by_customer\": {\"c1\": \"gold\"}}"),
              -1);
    CHECK_STR(why, "op_service_plans.by_customer.c1: must be an object like the shipped value, not a string");
}

UNIT_MAIN(UNIT_CASE(every_shipped_default_passes), UNIT_CASE(records_keep_their_members),
          UNIT_CASE(ids_in_a_list_are_unique), UNIT_CASE(maps_take_new_keys_of_the_same_shape),
          UNIT_CASE(values_shipped_empty_have_rules))
