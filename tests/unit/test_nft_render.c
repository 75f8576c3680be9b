/* test_nft_render.c — Origin Protection and CleanPipe sites as the nftables
 * scrubber's ruleset (dataplane/nftables/nft_render.h): the exact text of a
 * site, what cannot be expressed, and every rendered ruleset checked by the
 * kernel (a libnftables dry run, `nft -c`) in a network namespace of the
 * test's own; a refused ruleset's message. */
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "dataplane/nftables/nft_lib.h"
#include "dataplane/nftables/nft_render.h"
#include "unit/netns_private.h"
#include "unit/unit.h"

static const struct nft_settings settings = {.table = "parapet"};

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    if (!v)
        fprintf(stderr, "  bad JSON in test: %s (line %d)\n", e.text, e.line);
    return v;
}

static const char *part(const json_t *parts, const char *name)
{
    return json_string_value(json_object_get(parts, name));
}

/* A ruleset checked by the kernel from a file (as the plane does). */
static int nft_check_text(const char *text, char *why, size_t why_len)
{
    char path[] = "/tmp/parapet-nft-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        snprintf(why, why_len, "cannot write %s", path);
        return -1;
    }
    close(fd);
    int rc = nft_lib_file(path, true, why, why_len);
    unlink(path);
    return rc;
}

/* The header and the sites' fragments, as the plane assembles them, checked
 * by the kernel: 0 accepted, else nft's message is printed. */
static int kernel_check(const json_t *site, const char *family)
{
    json_t *h = nft_render_header(&settings), *f = nft_render_site(&settings, site, family, NULL);
    struct strbuf b = {0};
    sb_printf(&b, "%s%s", part(h, NFT_RULESET), part(f, NFT_RULESET));
    char why[1024] = "";
    int rc = nft_check_text(sb_text(&b), why, sizeof why);
    if (rc != 0)
        fprintf(stderr, "  nft -c refused (%d): %s\n%s", rc, why, sb_text(&b));
    sb_free(&b);
    json_decref(h), json_decref(f);
    return rc;
}

/* An OP site: a v4 and a v6 block, a block list with a country, one host
 * with a UDP flex rate limit and a DNS query length module; an ongoing event
 * diverts 10.1.0.10 (its chain holds the rules that reach it) and another
 * blackholes 10.1.0.20. */
#define OP_SITE                                                                                              \
    "{\"rid\": 3, \"id\": \"a1\", \"blocks\": [\"10.1.0.0/24\", \"2001:db8:1::/48\"], \"mitigation_mode\": 0," \
    " \"block_list\": {\"is_enabled\": 1, \"source_ips\": [\"198.51.100.7/32\", \"198.51.100.0/24\","        \
    "   \"2001:db8:99::1\"], \"source_countries\": [\"CN\"]},"                                                \
    " \"bogons\": {\"land_attack\": {\"is_enabled\": 0}, \"martian_address\": {\"is_enabled\": 0}},"          \
    " \"networks\": [{\"rid\": 4, \"id\": \"n1\", \"blocks\": [\"10.1.0.0/24\"], \"mitigation_mode\": 0,"    \
    "   \"hosts\": [{\"rid\": 5, \"id\": \"h1\", \"blocks\": [\"10.1.0.10/32\"], \"mitigation_mode\": 1,"    \
    "     \"flex\": [{\"id\": \"f1\", \"filter_name\": \"ntp\", \"action\": \"rate-limit\", \"bps_limit\": \"8M\"," \
    "       \"pps_limit\": \"1K\", \"protocol\": {\"is_enabled\": 1, \"type\": \"udp\"},"                      \
    "       \"port\": {\"is_enabled\": 1, \"ports\": [123, 5353]}, \"payload_string\": {\"is_enabled\": 0}},"   \
    "      {\"id\": \"f2\", \"filter_name\": \"get\", \"action\": \"drop\", \"protocol\": {\"is_enabled\": 0}," \
    "       \"port\": {\"is_enabled\": 0}, \"payload_string\": {\"is_enabled\": 1, \"string\": [\"GET\"]}}],"   \
    "     \"udp_flood\": {\"dns_flood_amplification\": {\"is_enabled\": 1,"                                   \
    "        \"dns_query_length\": {\"is_enabled\": 1, \"size\": 512}}},"                                      \
    "     \"zombie\": {}}]}],"                                                                                \
    " \"events\": [{\"alert_id\": \"e1\", \"site_ip\": \"10.1.0.20\", \"severity\": \"blackhole\"},"         \
    "   {\"alert_id\": \"e2\", \"site_ip\": \"10.1.0.10\", \"severity\": \"divert\"},"                       \
    "   {\"alert_id\": \"e3\", \"site_ip\": \"192.0.2.1\", \"severity\": \"blackhole\"}]}"

TEST(op_site_exact)
{
    json_t *site = parse(OP_SITE), *notes = json_array();
    json_t *out = nft_render_site(&settings, site, "op", notes);
    /* scopes of the event addresses: e + 8 hex of SHA-256 of the block */
    CHECK_STR(part(out, NFT_RULESET),
              "# op site a1\n"
              "table inet parapet {\n"
              "\tcounter op_3_ef2f0b421_blackhole { }\n"
              "\tcounter op_3_site_block_list { }\n"
              "\tcounter op_3_h5_flex_filter { }\n"
              "\tcounter op_3_h5_udp_flood { }\n"
              "\tcounter op_3_h5_pass { }\n"
              "\tcounter op_3_n4_pass { }\n"
              "\tcounter op_3_site_pass { }\n"
              "\tcounter op_3_e5cba616b_block_list { }\n"
              "\tcounter op_3_e5cba616b_flex_filter { }\n"
              "\tcounter op_3_e5cba616b_udp_flood { }\n"
              "\tcounter op_3_e5cba616b_pass { }\n"
              "\tchain op_3 {\n"
              "\t\tip daddr 10.1.0.20 counter name \"op_3_ef2f0b421_blackhole\" drop\n"
              "\t\tip daddr 10.1.0.10 jump op_3_e5cba616b\n"
              "\t\tip saddr { 198.51.100.0/24 } counter name \"op_3_site_block_list\" drop\n"
              "\t\tip6 saddr { 2001:db8:99::1 } counter name \"op_3_site_block_list\" drop\n"
              "\t\tip daddr { 10.1.0.10 } udp dport { 123, 5353 } limit rate over 1000/second burst 1000 packets "
              "counter name \"op_3_h5_flex_filter\" drop\n"
              "\t\tip daddr { 10.1.0.10 } udp dport { 123, 5353 } limit rate over 1000000 bytes/second "
              "counter name \"op_3_h5_flex_filter\" drop\n"
              "\t\tip daddr { 10.1.0.10 } udp dport 53 meta length > 512 counter name \"op_3_h5_udp_flood\" drop\n"
              /* what passes toward the holders, counted apart (most specific first) */
              "\t\tip daddr { 10.1.0.10 } counter name \"op_3_h5_pass\" accept\n"
              "\t\tip daddr { 10.1.0.0/24 } counter name \"op_3_n4_pass\" accept\n"
              "\t\tcounter name \"op_3_site_pass\"\n"
              "\t}\n"
              "\tchain op_3_e5cba616b {\n"
              "\t\tip saddr { 198.51.100.0/24 } counter name \"op_3_e5cba616b_block_list\" drop\n"
              "\t\tip daddr { 10.1.0.10 } udp dport { 123, 5353 } limit rate over 1000/second burst 1000 packets "
              "counter name \"op_3_e5cba616b_flex_filter\" drop\n"
              "\t\tip daddr { 10.1.0.10 } udp dport { 123, 5353 } limit rate over 1000000 bytes/second "
              "counter name \"op_3_e5cba616b_flex_filter\" drop\n"
              "\t\tip daddr { 10.1.0.10 } udp dport 53 meta length > 512 counter name "
              "\"op_3_e5cba616b_udp_flood\" drop\n"
              "\t\tcounter name \"op_3_e5cba616b_pass\" accept\n"
              "\t}\n"
              "}\n"
              "add rule inet parapet scrub ip daddr { 10.1.0.0/24 } jump op_3\n"
              "add rule inet parapet scrub ip6 daddr { 2001:db8:1::/48 } jump op_3\n");
    CHECK_STR(part(out, NFT_COUNTER_MAP), "op_3_ef2f0b421_blackhole\t10.1.0.20\tdrop\tblackhole\t0\n"
                                          "op_3_site_block_list\t10.1.0.0\tdrop\tblock_list\t0\n"
                                          "op_3_h5_flex_filter\t10.1.0.10\tdrop\tflex_filter\t17\n"
                                          "op_3_h5_udp_flood\t10.1.0.10\tdrop\tudp_flood\t17\n"
                                          "op_3_h5_pass\t10.1.0.10\tpass\t-\t0\n"
                                          "op_3_n4_pass\t10.1.0.0\tpass\t-\t0\n"
                                          "op_3_site_pass\t10.1.0.0\tpass\t-\t0\n"
                                          "op_3_e5cba616b_block_list\t10.1.0.10\tdrop\tblock_list\t0\n"
                                          "op_3_e5cba616b_flex_filter\t10.1.0.10\tdrop\tflex_filter\t17\n"
                                          "op_3_e5cba616b_udp_flood\t10.1.0.10\tdrop\tudp_flood\t17\n"
                                          "op_3_e5cba616b_pass\t10.1.0.10\tpass\t-\t0\n");
    CHECK_STR(part(out, NFT_OBJECTS), "counter op_3_ef2f0b421_blackhole\ncounter op_3_site_block_list\n"
                                      "counter op_3_h5_flex_filter\ncounter op_3_h5_udp_flood\ncounter op_3_h5_pass\n"
                                      "counter op_3_n4_pass\ncounter op_3_site_pass\n"
                                      "counter op_3_e5cba616b_block_list\ncounter op_3_e5cba616b_flex_filter\n"
                                      "counter op_3_e5cba616b_udp_flood\ncounter op_3_e5cba616b_pass\n"
                                      "chain op_3\nchain op_3_e5cba616b\n");
    const char *want[] = {
        "nftables: block_list: source countries cannot be expressed (no country data in the kernel)",
        "nftables: flex filter get: payload strings cannot be expressed (nftables matches payload only at fixed "
        "offsets); the filter is not rendered",
    };
    CHECK_INT(json_array_size(notes), 2);
    for (size_t i = 0; i < 2; i++)
        CHECK_STR(json_string_value(json_array_get(notes, i)), want[i]);
    /* deterministic */
    json_t *again = nft_render_site(&settings, site, "op", NULL);
    CHECK(json_equal(out, again));
    CHECK_INT(kernel_check(site, "op"), 0);
    json_decref(again), json_decref(out), json_decref(notes), json_decref(site);
}

/* Every countermeasure switched on, both families: the kernel takes it. */
TEST(op_site_everything)
{
    json_t *site = parse(
        "{\"rid\": 8, \"id\": \"all\", \"blocks\": [\"10.8.0.0/16\", \"2001:db8:8::/48\"],"
        " \"allow_list\": {\"is_enabled\": 1, \"source_ips\": [\"192.0.2.1\", \"2001:db8:77::/64\"]},"
        " \"block_list\": {\"is_enabled\": 1, \"source_ips\": [\"203.0.113.0/24\", \"203.0.113.9\"]},"
        " \"bogons\": {\"land_attack\": {\"is_enabled\": 1}, \"martian_address\": {\"is_enabled\": 1}},"
        " \"networks\": [{\"rid\": 9, \"id\": \"n\", \"blocks\": [\"10.8.1.0/24\"], \"hosts\": [{\"rid\": 10,"
        "  \"id\": \"h\", \"blocks\": [\"10.8.1.5\", \"2001:db8:8::5\"],"
        "  \"flex\": [{\"filter_name\": \"a\", \"action\": \"pass\", \"protocol\": {\"is_enabled\": 1, \"type\": \"tcp\"},"
        "     \"port\": {\"is_enabled\": 1, \"ports\": [443]}, \"payload_string\": {\"is_enabled\": 0}},"
        "    {\"filter_name\": \"b\", \"action\": \"drop\", \"protocol\": {\"is_enabled\": 0},"
        "     \"port\": {\"is_enabled\": 1, \"ports\": [11211]}, \"payload_string\": {\"is_enabled\": 0}},"
        "    {\"filter_name\": \"c\", \"action\": \"drop\", \"protocol\": {\"is_enabled\": 1, \"type\": \"icmp\"},"
        "     \"port\": {\"is_enabled\": 0}, \"payload_string\": {\"is_enabled\": 0}}],"
        "  \"udp_flood\": {\"dns_flood_amplification\": {\"is_enabled\": 1,"
        "     \"dns_query_length\": {\"is_enabled\": 1, \"size\": 512},"
        "     \"dns_query_rate_limit\": {\"is_enabled\": 1, \"bps_limit\": \"100M\", \"pps_limit\": \"50K\"},"
        "     \"dns_response_length\": {\"is_enabled\": 1, \"size\": 1232},"
        "     \"dns_response_rate_limit\": {\"is_enabled\": 1, \"bps_limit\": \"100M\", \"pps_limit\": \"50K\"}},"
        "   \"ntp_amplification\": {\"is_enabled\": 1, \"ntp_response_length\": {\"is_enabled\": 1, \"size\": 468},"
        "     \"ntp_response_rate_limit\": {\"is_enabled\": 1, \"bps_limit\": \"10M\", \"pps_limit\": \"5K\"}},"
        "   \"snmp_amplification\": {\"is_enabled\": 1, \"snmp_response_rate_limit\": {\"is_enabled\": 1,"
        "     \"bps_limit\": \"10M\", \"pps_limit\": \"5K\"}},"
        "   \"ssdp_flood\": {\"is_enabled\": 1, \"drop_ssdp\": {\"is_enabled\": 1}},"
        "   \"no_data_payload\": {\"is_enabled\": 1}, \"udp_fragmentation\": {\"is_enabled\": 1},"
        "   \"udp_rate_limit\": {\"is_enabled\": 1, \"bps_limit\": \"1G\", \"pps_limit\": \"500K\"},"
        "   \"zero_data_payload\": {\"is_enabled\": 1, \"zero_payload_length\": 8}},"
        "  \"zombie\": {\"zombie_host\": {\"is_enabled\": 1, \"action\": \"blacklist\", \"blacklist_timeout\": 600,"
        "     \"threshold_bps\": \"100M\", \"threshold_pps\": \"50K\"},"
        "   \"zombie_network\": {\"is_enabled\": 1, \"action\": \"ratelimit\", \"blacklist_timeout\": 600,"
        "     \"threshold_bps\": \"100M\", \"threshold_pps\": \"50K\"}}}]}],"
        " \"events\": [{\"alert_id\": \"e\", \"site_ip\": \"2001:db8:8::5\", \"severity\": \"divert\"}]}");
    json_t *notes = json_array();
    json_t *out = nft_render_site(&settings, site, "op", notes);
    const char *t = part(out, NFT_RULESET);
    CHECK_INT(json_array_size(notes), 0);
    CHECK(strstr(t, "\t\tip saddr { 192.0.2.1 } counter name \"op_8_site_allow_list\" accept\n") != NULL);
    CHECK(strstr(t, "ip saddr { 203.0.113.0/24 } counter name \"op_8_site_block_list\" drop\n") != NULL);
    CHECK(strstr(t, "ip saddr { 0.0.0.0/8, 10.0.0.0/8,") == NULL); /* the site is in 10/8 */
    CHECK(strstr(t, "ip saddr { 0.0.0.0/8, 100.64.0.0/10,") != NULL);
    CHECK(strstr(t, "ip saddr 10.8.0.0/16 ip daddr 10.8.0.0/16 counter name \"op_8_site_bogon\" drop") != NULL);
    CHECK(strstr(t, "tcp dport { 443 } counter name \"op_8_h10_flex_filter_pass\" accept") != NULL);
    CHECK(strstr(t, "meta l4proto { tcp, udp } th dport { 11211 } counter") != NULL);
    CHECK(strstr(t, "ip6 daddr { 2001:db8:8::5 } meta l4proto ipv6-icmp counter") != NULL);
    CHECK(strstr(t, "ip daddr { 10.8.1.5 } udp length 8 counter name \"op_8_h10_udp_flood\" drop") != NULL);
    CHECK(strstr(t, "udp length >= 16 @th,64,64 0 counter") != NULL);
    CHECK(strstr(t, "ip6 daddr { 2001:db8:8::5 } exthdr frag exists meta l4proto udp counter") != NULL);
    CHECK(strstr(t, "set op_8_h10_zbl4 { type ipv4_addr; size 65536; flags dynamic,timeout; timeout 600s; }") !=
          NULL);
    CHECK(strstr(t, "update @op_8_h10_zp4 { ip saddr limit rate over 50000/second burst 50000 packets } add "
                    "@op_8_h10_zbl4 { ip saddr } counter name \"op_8_h10_zombie\" drop") != NULL);
    CHECK(strstr(t, "ip daddr { 10.8.1.5 } limit rate over 12500000 bytes/second counter name "
                    "\"op_8_h10_zombie\" drop") != NULL);
    CHECK(strstr(t, "\t\tip6 daddr 2001:db8:8::5 jump op_8_e") != NULL);
    /* the flex filters' counter mixes TCP, any and ICMP: no one protocol */
    CHECK(strstr(part(out, NFT_COUNTER_MAP), "op_8_h10_flex_filter\t10.8.1.5\tdrop\tflex_filter\t0\n") != NULL);
    CHECK(strstr(part(out, NFT_COUNTER_MAP), "op_8_h10_flex_filter_pass\t10.8.1.5\tpass\tflex_filter\t6\n") != NULL);
    CHECK_INT(kernel_check(site, "op"), 0);
    json_decref(out), json_decref(notes), json_decref(site);
}

/* CleanPipe: the site's and a host's block lists, a customised host in
 * manual mode 3 blackholed; a site without blocks renders nothing. */
TEST(cp_site)
{
    json_t *site = parse("{\"rid\": 2, \"id\": \"c1\", \"blocks\": [\"198.18.0.0/24\"],"
                         " \"policy\": {\"manual\": {\"enable\": 1}},"
                         " \"lists\": {\"block_list\": {\"is_enabled\": 1, \"source_ips\": [\"192.0.2.9\"]}},"
                         " \"templates\": [],"
                         " \"hosts\": [{\"rid\": 9, \"id\": \"x\", \"blocks\": [\"198.18.0.5\"],"
                         "   \"policy\": {\"is_customize\": 1, \"manual\": {\"mode\": 3}}, \"lists\": {}},"
                         "  {\"rid\": 10, \"id\": \"y\", \"blocks\": [\"198.18.0.6\"],"
                         "   \"policy\": {\"is_customize\": 0, \"manual\": {\"mode\": 3}},"
                         "   \"lists\": {\"block_list\": {\"is_enabled\": 1, \"source_ips\": [\"192.0.2.10\"]}}}],"
                         " \"events\": []}");
    json_t *out = nft_render_site(&settings, site, "cp", NULL);
    CHECK_STR(part(out, NFT_RULESET),
              "# cp site c1\n"
              "table inet parapet {\n"
              "\tcounter cp_2_h9_blackhole { }\n"
              "\tcounter cp_2_site_block_list { }\n"
              "\tcounter cp_2_h10_block_list { }\n"
              "\tcounter cp_2_h9_pass { }\n"
              "\tcounter cp_2_h10_pass { }\n"
              "\tcounter cp_2_site_pass { }\n"
              "\tchain cp_2 {\n"
              "\t\tip daddr { 198.18.0.5 } counter name \"cp_2_h9_blackhole\" drop\n"
              "\t\tip saddr { 192.0.2.9 } counter name \"cp_2_site_block_list\" drop\n"
              "\t\tip daddr { 198.18.0.6 } ip saddr { 192.0.2.10 } counter name \"cp_2_h10_block_list\" drop\n"
              "\t\tip daddr { 198.18.0.5 } counter name \"cp_2_h9_pass\" accept\n"
              "\t\tip daddr { 198.18.0.6 } counter name \"cp_2_h10_pass\" accept\n"
              "\t\tcounter name \"cp_2_site_pass\"\n"
              "\t}\n"
              "}\n"
              "add rule inet parapet scrub ip daddr { 198.18.0.0/24 } jump cp_2\n");
    CHECK_INT(kernel_check(site, "cp"), 0);
    json_decref(out), json_decref(site);
    site = parse("{\"rid\": 4, \"id\": \"empty\", \"blocks\": [], \"hosts\": [], \"events\": []}");
    out = nft_render_site(&settings, site, "cp", NULL);
    CHECK_STR(part(out, NFT_RULESET), "");
    CHECK_STR(part(out, NFT_COUNTER_MAP), "");
    CHECK_STR(part(out, NFT_OBJECTS), "");
    json_decref(out), json_decref(site);
}

/* Stored values the API would refuse: a site id that would end the
 * comment line, a first block that does not parse (the counters are stored
 * under the first valid one). */
TEST(odd_stored_values)
{
    json_t *site = parse("{\"rid\": 6, \"id\": \"a\\nflush ruleset\", \"blocks\": [\"garbage\", \"10.6.0.0/24\"],"
                         " \"networks\": [{\"rid\": 7, \"blocks\": [\"x\", \"10.6.0.0/25\"], \"hosts\": []}],"
                         " \"events\": []}");
    json_t *out = nft_render_site(&settings, site, "op", NULL);
    const char *head = "# op site a?flush ruleset\ntable inet parapet {\n";
    CHECK(strncmp(part(out, NFT_RULESET), head, strlen(head)) == 0);
    CHECK_STR(part(out, NFT_COUNTER_MAP), "op_6_n7_pass\t10.6.0.0\tpass\t-\t0\n"
                                          "op_6_site_pass\t10.6.0.0\tpass\t-\t0\n");
    CHECK_INT(kernel_check(site, "op"), 0);
    json_decref(out), json_decref(site);
}

/* The header alone is a valid ruleset, and one replaces the other. */
TEST(header)
{
    json_t *h = nft_render_header(&(struct nft_settings){.table = "scrub_x"});
    const char *t = part(h, NFT_RULESET);
    CHECK(strstr(t, "table inet scrub_x\nflush table inet scrub_x\ntable inet scrub_x {\n") != NULL);
    CHECK_STR(part(h, NFT_OBJECTS), "chain scrub\n");
    CHECK(strstr(t, "type filter hook prerouting priority -300; policy accept;") != NULL);
    char why[512];
    CHECK_INT(nft_check_text(t, why, sizeof why), 0);
    json_decref(h);
}

/* nftables' refusals come back with the line they point at; nothing is
 * applied by a dry run. */
TEST(refusals)
{
    char why[512] = "";
    CHECK_INT(nft_check_text("table inet t {\n\tchain fwd {\n\t}\n}\n", why, sizeof why), 1);
    CHECK_STR(why, "nftables refused the ruleset: line 2: syntax error, unexpected fwd, expecting string, in: "
                   "chain fwd {");
    CHECK_INT(nft_check_text("table inet t {\n\tset s {\n\t\ttype ipv4_addr\n\t\telements = { 10.0.0.0/33 }\n\t}\n}\n", why,
                          sizeof why),
              1);
    CHECK(strstr(why, "Prefix length 33 is invalid") != NULL);
    /* a rule that parses but that the kernel refuses (a counter that does not exist) */
    CHECK_INT(nft_check_text("table inet t {\n\tchain c {\n\t\tcounter name \"nosuch\" drop\n\t}\n}\n", why, sizeof why), 1);
    CHECK_STR(why, "nftables refused the ruleset: line 3: Could not process rule: No such file or directory, in: "
                   "counter name \"nosuch\" drop");
    CHECK_INT(nft_check_text("table inet t {\n\tchain c {\n\t\ttype filter hook prerouting priority 0;\n\t}\n}\n", why,
                          sizeof why),
              0);
    char *json = NULL;
    CHECK_INT(nft_lib_json("list tables", &json, why, sizeof why), 0);
    CHECK(json && strstr(json, "\"table\"") == NULL); /* the dry runs left nothing */
    free(json);
}

int main(void)
{
    if (netns_private() != 0) {
        printf("unit %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    static const struct unit_case cases[] = {UNIT_CASE(op_site_exact), UNIT_CASE(op_site_everything),
                                              UNIT_CASE(cp_site), UNIT_CASE(odd_stored_values), UNIT_CASE(header), UNIT_CASE(refusals)};
    return unit_run(__FILE__, cases, sizeof cases / sizeof cases[0]);
}
