/* test_ap_rules.c — the field rules of Application Protection
 * (src/api/ap/ap_rules.c): public backend addresses, host names, site names. */
#include "api/ap/ap.h"
#include "unit.h"

/* Runs a CANON rule: the canonical value, or "ERR: <why>". */
static const char *canon(const char *(*fn)(json_t **, long), const char *in)
{
    static char out[300];
    json_t *v = json_string(in);
    const char *why = fn(&v, 0);
    snprintf(out, sizeof out, "%s%s", why ? "ERR: " : "", why ? why : json_string_value(v));
    json_decref(v);
    return out;
}

static const char *site_name(const char *in)
{
    json_t *v = json_string(in);
    const char *why = ap_rule_site_name(v, 0);
    json_decref(v);
    return why ? why : "ok";
}

TEST(public_addresses)
{
    CHECK_STR(canon(ap_rule_public_ip, "203.0.113.7"), "203.0.113.7");
    CHECK_STR(canon(ap_rule_public_ip, "2001:DB8:0::1"), "2001:db8::1");
    CHECK_STR(canon(ap_rule_public_ip, "8.8.8.8"), "8.8.8.8");
    const char *refused[] = {"10.0.0.1",    "172.16.0.1", "172.31.255.255",  "192.168.1.1", "100.64.0.1",
                             "fd00::1",     "fc00::1",    "127.0.0.1",       "::1",         "0.0.0.0",
                             "224.0.0.1",   "fe80::1",    "::ffff:10.0.0.1", "1.2.3",       "203.0.113.0/24",
                             "host.example"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        CHECK(strncmp(canon(ap_rule_public_ip, refused[i]), "ERR: ", 5) == 0);
    /* the edges of the private blocks are public */
    CHECK_STR(canon(ap_rule_public_ip, "172.32.0.1"), "172.32.0.1");
    CHECK_STR(canon(ap_rule_public_ip, "100.128.0.1"), "100.128.0.1");
    CHECK_STR(canon(ap_rule_public_ip, "fe00::1"), "fe00::1");
}

TEST(host_names)
{
    CHECK_STR(canon(ap_rule_hostname, "Origin.Example.COM."), "origin.example.com");
    CHECK_STR(canon(ap_rule_hostname, "bücher.example"), "xn--bcher-kva.example");
    CHECK_STR(canon(ap_rule_hostname, "*.example.com"), "ERR: must be a host name, not a wildcard");
    CHECK(strncmp(canon(ap_rule_hostname, "under_score.example"), "ERR: ", 5) == 0);
    CHECK(strncmp(canon(ap_rule_hostname, "-a.example"), "ERR: ", 5) == 0);
    CHECK(strncmp(canon(ap_rule_hostname, "localhost"), "ERR: ", 5) == 0);
}

TEST(site_names)
{
    CHECK_STR(site_name("Shop front"), "ok");
    CHECK_STR(site_name("Bücher-Laden_2"), "ok");
    CHECK_STR(site_name("   "), "must not be blank");
    CHECK_STR(site_name("a\tb"), "must not contain control characters");
    CHECK_STR(site_name("a\x7f"), "must not contain control characters");
}

UNIT_MAIN(UNIT_CASE(public_addresses), UNIT_CASE(host_names), UNIT_CASE(site_names))
