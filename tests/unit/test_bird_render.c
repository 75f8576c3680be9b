/* test_bird_render.c — Origin Protection and CleanPipe sites as BIRD 2
 * configuration (dataplane/bird/bird_render.h): diversions, blackholes, the
 * FlowSpec rules and what cannot be expressed; single FlowSpec rules and
 * their checks (bird_flow.h). */
#include <stdlib.h>
#include <string.h>

#include "dataplane/bird/bird_flow.h"
#include "dataplane/bird/bird_render.h"
#include "unit/unit.h"

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

/* An OP site: blocks 10.1.0.0/24 and 2001:db8:1::/48; bogons off; a block
 * list with one source and a country; one network with a host 10.1.0.10
 * (mitigation on) carrying a flex filter, a payload filter, DNS length and
 * NTP rate modules; an ongoing blackhole event on 10.1.0.20. */
#define OP_SITE                                                                                              \
    "{\"rid\": 3, \"id\": \"a1\", \"blocks\": [\"10.1.0.0/24\", \"2001:db8:1::/48\"], \"mitigation_mode\": 0," \
    " \"allow_list\": {\"is_enabled\": 1, \"source_ips\": [\"192.0.2.1/32\"]},"                               \
    " \"block_list\": {\"is_enabled\": 1, \"source_ips\": [\"198.51.100.7/32\"], \"source_countries\": [\"CN\"]}," \
    " \"bogons\": {\"land_attack\": {\"is_enabled\": 0}, \"martian_address\": {\"is_enabled\": 0}},"          \
    " \"networks\": [{\"rid\": 4, \"id\": \"n1\", \"blocks\": [\"10.1.0.0/24\"], \"mitigation_mode\": 0,"    \
    "   \"hosts\": [{\"rid\": 5, \"id\": \"h1\", \"blocks\": [\"10.1.0.10/32\"], \"mitigation_mode\": 1,"    \
    "     \"flex\": [{\"id\": \"f1\", \"filter_name\": \"ntp\", \"action\": \"rate-limit\", \"bps_limit\": \"8M\"," \
    "       \"pps_limit\": \"1K\", \"protocol\": {\"is_enabled\": 1, \"type\": \"udp\"},"                      \
    "       \"port\": {\"is_enabled\": 1, \"ports\": [123, 5353]}, \"payload_string\": {\"is_enabled\": 0}},"   \
    "      {\"id\": \"f2\", \"filter_name\": \"get\", \"action\": \"drop\", \"protocol\": {\"is_enabled\": 0}," \
    "       \"port\": {\"is_enabled\": 0}, \"payload_string\": {\"is_enabled\": 1, \"string\": [\"GET\"]}}],"   \
    "     \"udp_flood\": {\"dns_flood_amplification\": {\"is_enabled\": 1,"                                   \
    "        \"dns_query_length\": {\"is_enabled\": 1, \"size\": 512}},"                                       \
    "      \"ntp_amplification\": {\"is_enabled\": 1, \"ntp_response_rate_limit\": {\"is_enabled\": 1,"       \
    "        \"bps_limit\": \"\", \"pps_limit\": \"5K\"}}},"                                                   \
    "     \"zombie\": {}}]}],"                                                                                \
    " \"events\": [{\"alert_id\": \"e1\", \"site_ip\": \"10.1.0.20\", \"severity\": \"blackhole\"}]}"

TEST(op_site_routes_and_rules)
{
    json_t *site = parse(OP_SITE), *notes = json_array();
    json_t *out = bird_render_site(site, "op", notes);
    CHECK_STR(part(out, BIRD_CONF), "");
    CHECK_STR(part(out, BIRD_DIVERT4), "  # op site a1\n"
                                       "  route 10.1.0.20/32 blackhole { bgp_community.add((65535, 666)); };\n"
                                       "  route 10.1.0.10/32 blackhole { bgp_community.add((PARAPET_AS, 100)); };\n");
    CHECK_STR(part(out, BIRD_DIVERT6), "");
    CHECK_STR(part(out, BIRD_FLOW4),
              "  # op site a1\n"
              "  # block list\n"
              "  route flow4 { dst 10.1.0.0/24; src 198.51.100.7/32; } "
              "{ bgp_ext_community.add((generic, 0x80060000, 0x00000000)); };\n"
              "  # flex filter f1\n"
              "  route flow4 { dst 10.1.0.10/32; proto 17; dport 123,5353; } "
              "{ bgp_ext_community.add((generic, 0x80060000, 0x49742400)); };\n"
              "  # udp flood: dns query length\n"
              "  route flow4 { dst 10.1.0.10/32; proto 17; dport 53; length >= 513; } "
              "{ bgp_ext_community.add((generic, 0x80060000, 0x00000000)); };\n");
    CHECK_STR(part(out, BIRD_FLOW6), "");
    const char *want[] = {
        "bird: the allow list cannot be expressed (FlowSpec has no exemption); it is not enforced by the data plane",
        "bird: block list: source countries cannot be expressed in FlowSpec",
        "bird: flex filter get: payload strings cannot be expressed in FlowSpec; the filter is not rendered",
        "bird: udp flood: ntp response rate: a packet rate limit cannot be expressed in FlowSpec "
        "(bytes/s only)",
    };
    CHECK_INT(json_array_size(notes), 4);
    for (size_t i = 0; i < 4; i++)
        CHECK_STR(json_string_value(json_array_get(notes, i)), want[i]);
    json_decref(out), json_decref(notes), json_decref(site);
}

/* Bogons: martian sources toward each block, except a range the block is
 * in; land attacks as the block toward itself; IPv6 blocks in flow6. */
TEST(bogons)
{
    json_t *site = parse("{\"rid\": 1, \"id\": \"b1\", \"blocks\": [\"10.9.0.0/24\", \"2001:db8:9::/48\"],"
                         " \"bogons\": {\"land_attack\": {\"is_enabled\": 1}, \"martian_address\": {\"is_enabled\": 1}},"
                         " \"networks\": [], \"events\": []}");
    json_t *out = bird_render_site(site, "op", NULL);
    const char *f4 = part(out, BIRD_FLOW4), *f6 = part(out, BIRD_FLOW6);
    CHECK(strstr(f4, "route flow4 { dst 10.9.0.0/24; src 0.0.0.0/8; }") != NULL);
    CHECK(strstr(f4, "src 10.0.0.0/8;") == NULL); /* the site is in it */
    CHECK(strstr(f4, "route flow4 { dst 10.9.0.0/24; src 10.9.0.0/24; }") != NULL);
    CHECK(strstr(f4, "  # bogons: martian sources\n") == strstr(f4, "  # bogons:")); /* one comment for the run */
    CHECK(strstr(f6, "route flow6 { dst 2001:db8:9::/48; src fc00::/7; }") != NULL);
    CHECK(strstr(f6, "src 2001:db8::/32;") == NULL);
    CHECK(strstr(f6, "route flow6 { dst 2001:db8:9::/48; src 2001:db8:9::/48; }") != NULL);
    json_decref(out), json_decref(site);
}

/* CleanPipe: the manual switch diverts the chosen route template; a
 * customised host in mode 3 is blackholed; an ongoing event diverts its
 * address; the block list discards by source. */
TEST(cp_site)
{
    json_t *site = parse("{\"rid\": 2, \"id\": \"c1\", \"blocks\": [\"198.18.0.0/24\"],"
                         " \"policy\": {\"manual\": {\"enable\": 1, \"template_profile_id\": 7}},"
                         " \"lists\": {\"block_list\": {\"is_enabled\": 1, \"source_ips\": [\"192.0.2.9\"]}},"
                         " \"templates\": [{\"id\": 6, \"blocks\": [\"198.18.0.0/26\"]},"
                         "   {\"id\": 7, \"blocks\": [\"198.18.0.128/25\"]}],"
                         " \"hosts\": [{\"rid\": 9, \"id\": \"x\", \"blocks\": [\"198.18.0.5\"],"
                         "   \"policy\": {\"is_customize\": 1, \"manual\": {\"mode\": 3}}, \"lists\": {}},"
                         "  {\"rid\": 10, \"id\": \"y\", \"blocks\": [\"198.18.0.6\"],"
                         "   \"policy\": {\"is_customize\": 0, \"manual\": {\"mode\": 3}}, \"lists\": {}}],"
                         " \"events\": [{\"alert_id\": \"e\", \"site_ip\": \"198.18.0.77\", \"severity\": \"divert\"}]}");
    json_t *out = bird_render_site(site, "cp", NULL);
    CHECK_STR(part(out, BIRD_DIVERT4), "  # cp site c1\n"
                                       "  route 198.18.0.77/32 blackhole { bgp_community.add((PARAPET_AS, 100)); };\n"
                                       "  route 198.18.0.128/25 blackhole { bgp_community.add((PARAPET_AS, 100)); };\n"
                                       "  route 198.18.0.5/32 blackhole { bgp_community.add((65535, 666)); };\n");
    CHECK_STR(part(out, BIRD_FLOW4), "  # cp site c1\n  # block list\n"
                                     "  route flow4 { dst 198.18.0.0/24; src 192.0.2.9/32; } "
                                     "{ bgp_ext_community.add((generic, 0x80060000, 0x00000000)); };\n");
    json_decref(out), json_decref(site);
}

/* A site with more rules than it may have: the first BIRD_SITE_RULES_MAX
 * are kept, and the rest is said. */
TEST(rule_cap)
{
    json_t *sources = json_array();
    for (int i = 0; i < BIRD_SITE_RULES_MAX + 20; i++) {
        char ip[32];
        snprintf(ip, sizeof ip, "192.0.%d.%d", 2 + i / 250, 1 + i % 250);
        json_array_append_new(sources, json_string(ip));
    }
    json_t *site = json_pack("{s:i,s:s,s:[s],s:{s:i,s:o},s:[],s:[]}", "rid", 1, "id", "cap", "blocks", "10.2.0.0/24",
                             "block_list", "is_enabled", 1, "source_ips", sources, "networks", "events");
    json_t *notes = json_array();
    json_t *out = bird_render_site(site, "op", notes);
    const char *f4 = part(out, BIRD_FLOW4);
    int lines = 0;
    for (const char *p = f4; (p = strstr(p, "route flow4")); p++)
        lines++;
    CHECK_INT(lines, BIRD_SITE_RULES_MAX);
    CHECK_STR(json_string_value(json_array_get(notes, 0)),
              "bird: 20 FlowSpec rules over the 500 a site may have were left out");
    json_decref(out), json_decref(notes), json_decref(site);
}

TEST(header_with_peer)
{
    struct bird_settings st = {.dir = "/srv/bird", .router_id = "192.0.2.1", .as = 64512, .peer = "127.0.0.2",
                               .peer_port = 11180, .peer_as = 64513, .local = "127.0.0.1", .local_port = 11179,
                               .next_hop4 = "192.0.2.1"};
    json_t *h = bird_render_header(&st);
    const char *conf = part(h, BIRD_CONF);
    CHECK(strstr(conf, "router id 192.0.2.1;\ndefine PARAPET_AS = 64512;\n") != NULL);
    CHECK(strstr(conf, "  local 127.0.0.1 port 11179 as PARAPET_AS;\n  strict bind on;\n"
                       "  neighbor 127.0.0.2 port 11180 as 64513;\n  multihop;\n") != NULL);
    CHECK(strstr(conf, "next hop address 192.0.2.1;") != NULL);
    CHECK(strstr(conf, "ipv6 {") == NULL || strstr(conf, "ipv6 { import none") == NULL); /* no v6 next hop */
    CHECK(strstr(conf, "include \"flow4.conf\";") != NULL);
    CHECK_STR(part(h, BIRD_FLOW4), "");
    json_decref(h);
    st.peer = NULL;
    h = bird_render_header(&st);
    CHECK(strstr(part(h, BIRD_CONF), "protocol bgp") == NULL);
    json_decref(h);
}

/* A rule is refused before it reaches BIRD: no dst (which bird -p would
 * take), lengths beyond a jumbo frame, ports without TCP/UDP, mixed families. */
TEST(flow_checks)
{
    char why[256];
    CHECK_INT(bird_flow_check(&(struct bird_flow){.proto = -1, .src = "10.0.0.0/8"}, why, sizeof why), -1);
    CHECK_STR(why, "a FlowSpec rule needs a destination (dst)");
    CHECK_INT(bird_flow_check(&(struct bird_flow){.dst = "10.0.0.1/8", .proto = -1}, why, sizeof why), -1);
    CHECK_INT(bird_flow_check(&(struct bird_flow){.dst = "10.0.0.0/8", .proto = 17, .length_min = 99971},
                              why, sizeof why),
              -1);
    CHECK_INT(bird_flow_check(&(struct bird_flow){.dst = "10.0.0.0/8", .proto = -1, .dport = "53"}, why, sizeof why),
              -1);
    CHECK_STR(why, "ports need proto 6 or 17");
    CHECK_INT(bird_flow_check(&(struct bird_flow){.dst = "10.0.0.0/8", .src = "2001:db8::/32", .proto = -1}, why,
                              sizeof why),
              -1);
    CHECK_INT(bird_flow_check(&(struct bird_flow){.dst = "10.0.0.0/8", .proto = 6, .dport = "1..1023,8080"}, why,
                              sizeof why),
              0);
    CHECK_INT(bird_flow_check(&(struct bird_flow){.dst = "10.0.0.0/8", .proto = 6, .dport = "70000"}, why, sizeof why),
              -1);
    CHECK_INT(bird_rate_bits(125000), 0x47F42400);
    CHECK_INT(bird_rate_bits(0), 0);
}

UNIT_MAIN(UNIT_CASE(op_site_routes_and_rules), UNIT_CASE(bogons), UNIT_CASE(cp_site), UNIT_CASE(rule_cap),
          UNIT_CASE(header_with_peer), UNIT_CASE(flow_checks))
