/* test_op_rules.c — api/op/op_rules.h: the network and host block forms,
 * and whether blocks belong to an ASN's registered prefixes (ROA max length). */
#include <string.h>

#include "api/op/op_rules.h"
#include "unit.h"

/* Runs a CANON rule on text: NULL when accepted (out gets the canonical
 * form), else the rule broken. */
static const char *canon(const char *(*rule)(json_t **, long), const char *text, char out[64])
{
    json_t *v = json_string(text);
    const char *why = rule(&v, 0);
    snprintf(out, 64, "%s", json_string_value(v));
    json_decref(v);
    return why;
}

static struct cidr block(const char *text)
{
    struct cidr c;
    CHECK_INT(cidr_parse(text, CIDR_ALLOW_BARE, &c), 0);
    return c;
}

TEST(network_blocks_are_class_c)
{
    char out[64];
    CHECK(canon(op_rule_network_block, "10.3.0.0/24", out) == NULL);
    CHECK_STR(out, "10.3.0.0/24");
    CHECK(canon(op_rule_network_block, "2001:DB8:0300:0::/48", out) != NULL); /* class C only */
    CHECK(canon(op_rule_network_block, "10.3.0.0/23", out) != NULL);
    CHECK(canon(op_rule_network_block, "10.3.0.0/25", out) != NULL);
    CHECK(canon(op_rule_network_block, "2001:db8::/47", out) != NULL);
    CHECK(canon(op_rule_network_block, "2001:db8::/64", out) != NULL);
    CHECK(canon(op_rule_network_block, "10.3.0.1/24", out) != NULL); /* host bits */
    CHECK(canon(op_rule_network_block, "10.3.0.0", out) != NULL);    /* a bare address */
    CHECK(canon(op_rule_network_block, "127.0.0.0/24", out) != NULL);
    CHECK(canon(op_rule_network_block, "", out) != NULL);
}

TEST(host_addresses_are_single)
{
    char out[64];
    CHECK(canon(op_rule_host_address, "10.4.0.10", out) == NULL);
    CHECK_STR(out, "10.4.0.10/32");
    CHECK(canon(op_rule_host_address, "10.4.0.10/32", out) == NULL);
    CHECK(canon(op_rule_host_address, "2001:DB8::A", out) != NULL); /* networks are IPv4 */
    CHECK(canon(op_rule_host_address, "2001:db8::a/128", out) != NULL);
    CHECK(canon(op_rule_host_address, "10.4.0.8/31", out) != NULL);
    CHECK(canon(op_rule_host_address, "2001:db8::/127", out) != NULL);
    CHECK(canon(op_rule_host_address, "224.0.0.1", out) != NULL);
    CHECK(canon(op_rule_host_address, "10.4.0.256", out) != NULL);
}

TEST(blocks_belong_to_the_asn_within_max_length)
{
    json_t *prefixes = json_loads("[{\"prefix\":\"10.0.0.0/8\",\"max_length\":24},"
                                  "{\"prefix\":\"172.16.0.0/12\",\"max_length\":16}]",
                                  0, NULL);
    char why[160];
    struct cidr ok[] = {block("10.0.0.0/8"), block("10.9.9.0/24"), block("172.16.0.0/16"),
                        block("172.16.0.0/12")};
    CHECK_INT(op_blocks_outside_asn(ok, 4, 64500, prefixes, why, sizeof why), -1);
    struct cidr longer[] = {block("10.1.0.0/16"), block("172.16.5.0/24")};
    CHECK_INT(op_blocks_outside_asn(longer, 2, 64500, prefixes, why, sizeof why), 1);
    CHECK_STR(why, "is longer than /16, the ROA max length of 172.16.0.0/12 (AS64500)");
    struct cidr host[] = {block("10.1.2.3")};
    CHECK_INT(op_blocks_outside_asn(host, 1, 64500, prefixes, why, sizeof why), 0);
    struct cidr outside[] = {block("192.168.0.0/24")};
    CHECK_INT(op_blocks_outside_asn(outside, 1, 64500, prefixes, why, sizeof why), 0);
    CHECK_STR(why, "is not inside a prefix registered for AS64500");
    struct cidr wider[] = {block("10.0.0.0/7")}; /* only partly inside */
    CHECK_INT(op_blocks_outside_asn(wider, 1, 64500, prefixes, why, sizeof why), 0);
    struct cidr v6[] = {block("::ffff:10.0.0.0/120")}; /* the families stay apart */
    CHECK_INT(op_blocks_outside_asn(v6, 1, 64500, prefixes, why, sizeof why), 0);
    json_t *none = json_array();
    CHECK_INT(op_blocks_outside_asn(ok, 1, 64500, none, why, sizeof why), 0);
    json_decref(none);
    json_decref(prefixes);
}

UNIT_MAIN(UNIT_CASE(network_blocks_are_class_c), UNIT_CASE(host_addresses_are_single),
          UNIT_CASE(blocks_belong_to_the_asn_within_max_length))
