/* test_cp_rules.c — the field rules of the CleanPipe route rows
 * (api/cp/rules.c): host addresses, allow/block list sources, manual mode. */
#include <stdlib.h>

#include "api/cp/cp.h"
#include "unit.h"

/* Runs a CANON rule on text: NULL when accepted (out holds the canonical
 * text), or the rule it broke. */
static const char *canon(const char *(*rule)(json_t **, long), const char *text, char *out, size_t size)
{
    json_t *v = json_string(text);
    const char *broken = rule(&v, 0);
    snprintf(out, size, "%s", json_string_value(v));
    json_decref(v);
    return broken;
}

TEST(host_addresses_bare_or_single_address_blocks)
{
    char out[64];
    CHECK(canon(cp_rule_host_address, "198.18.0.1", out, sizeof out) == NULL);
    CHECK_STR(out, "198.18.0.1");
    CHECK(canon(cp_rule_host_address, "198.18.0.1/32", out, sizeof out) == NULL);
    CHECK_STR(out, "198.18.0.1"); /* answered bare */
    CHECK(canon(cp_rule_host_address, "3FFF:0:0::1/128", out, sizeof out) == NULL);
    CHECK_STR(out, "3fff::1");
    CHECK(canon(cp_rule_host_address, "198.18.0.0/24", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_host_address, "198.18.0.1/31", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_host_address, "3fff::/64", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_host_address, "198.18.0.256", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_host_address, "host.example", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_host_address, "127.0.0.1", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_host_address, "ff02::1", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_host_address, "", out, sizeof out) != NULL);
}

TEST(sources_are_addresses_or_blocks_without_host_bits)
{
    char out[64];
    CHECK(canon(cp_rule_source, "192.0.2.1", out, sizeof out) == NULL);
    CHECK_STR(out, "192.0.2.1"); /* an address stays bare */
    CHECK(canon(cp_rule_source, "192.0.2.0/24", out, sizeof out) == NULL);
    CHECK_STR(out, "192.0.2.0/24");
    CHECK(canon(cp_rule_source, "2001:DB8:0:0::/32", out, sizeof out) == NULL);
    CHECK_STR(out, "2001:db8::/32");
    CHECK(canon(cp_rule_source, "0.0.0.0/0", out, sizeof out) == NULL);
    CHECK_STR(canon(cp_rule_source, "192.0.2.1/24", out, sizeof out),
              "must not have host bits set (write the block's first address)");
    CHECK(canon(cp_rule_source, "192.0.2.1/33", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_source, "192.0.2", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_source, "192.0.2.0/", out, sizeof out) != NULL);
    CHECK(canon(cp_rule_source, "/24", out, sizeof out) != NULL);
}

TEST(manual_mode_is_0_1_or_3)
{
    const long long good[] = {0, 1, 3}, bad[] = {2, 4, -1, 100};
    for (size_t i = 0; i < 3; i++) {
        json_t *v = json_integer(good[i]);
        CHECK(cp_rule_manual_mode(v, 0) == NULL);
        json_decref(v);
    }
    for (size_t i = 0; i < 4; i++) {
        json_t *v = json_integer(bad[i]);
        CHECK_STR(cp_rule_manual_mode(v, 0), "must be 0 (off), 1 (on) or 3 (blackhole)");
        json_decref(v);
    }
}

UNIT_MAIN(UNIT_CASE(host_addresses_bare_or_single_address_blocks),
          UNIT_CASE(sources_are_addresses_or_blocks_without_host_bits), UNIT_CASE(manual_mode_is_0_1_or_3))
