/* test_net.c — base/net.h: address and CIDR parsing, formatting, set math. */
#include "base/net.h"

#include <stdint.h>

#include "unit.h"

/* ip_parse then ip_format: the canonical text, or "ERR" when refused. */
static const char *ip_canon(const char *s)
{
    static char out[NET_TEXT_MAX];
    struct ip_addr a;
    if (ip_parse(s, &a) != 0)
        return "ERR";
    ip_format(&a, out);
    return out;
}

/* cidr_parse then cidr_format: the canonical block, or "ERR<rc>". */
static const char *cidr_canon(const char *s, int flags)
{
    static char out[NET_TEXT_MAX];
    struct cidr c;
    int rc = cidr_parse(s, flags, &c);
    if (rc != 0) {
        snprintf(out, sizeof out, "ERR%d", rc);
        return out;
    }
    cidr_format(&c, out);
    return out;
}

static struct cidr C(const char *s) {
    struct cidr c;
    if (cidr_parse(s, CIDR_ALLOW_BARE, &c) != 0)
        fprintf(stderr, "  bad fixture %s\n", s);
    return c;
}

static struct ip_addr
A(const char *s) {
    struct ip_addr a;
    if (ip_parse(s, &a) != 0)
        fprintf(stderr, "  bad fixture %s\n", s);
    return a;
}

TEST(ipv4_valid)
{
    struct ip_addr a;
    CHECK_INT(ip_parse("192.0.2.10", &a), 0);
    CHECK_INT(a.family, NET_V4);
    CHECK(a.b[0] == 192 && a.b[1] == 0 && a.b[2] == 2 && a.b[3] == 10);
    CHECK_STR(ip_canon("0.0.0.0"), "0.0.0.0");
    CHECK_STR(ip_canon("255.255.255.255"), "255.255.255.255");
    CHECK_STR(ip_canon("10.0.0.0"), "10.0.0.0"); /* a lone 0 is not a leading zero */
}

TEST(ipv4_invalid)
{
    static const char *bad[] = {
        "",          "01.2.3.4",  "1.2.3.04", "1.2.3.00", "256.1.1.1",          "1.2.3.256", "1.2.3",
        "1.2.3.4.5", "1..3.4",    "1.2.3.4.", ".1.2.3.4", " 1.2.3.4",           "1.2.3.4 ",  "a.b.c.d",
        "-1.2.3.4",  "0x1.2.3.4", "1.2.3.4/", "1,2,3,4",  "999999999999.1.1.1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct ip_addr a;
        if (ip_parse(bad[i], &a) != -1) {
            fprintf(stderr, "  accepted \"%s\"\n", bad[i]);
            CHECK(0);
        }
    }
    struct ip_addr a;
    CHECK_INT(ip_parse(NULL, &a), -1);
}

TEST(ipv6_valid_and_canonical)
{
    struct ip_addr a;
    CHECK_INT(ip_parse("::", &a), 0);
    CHECK_INT(a.family, NET_V6);
    static const uint8_t zero[16];
    CHECK(memcmp(a.b, zero, 16) == 0);
    CHECK_STR(ip_canon("::1"), "::1");
    CHECK_STR(ip_canon("2001:0DB8:0000:0000:0000:0000:0000:0001"), "2001:db8::1");
    CHECK_STR(ip_canon("2001:db8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");    /* first longest run */
    CHECK_STR(ip_canon("2001:db8:0:1:1:1:1:1"), "2001:db8:0:1:1:1:1:1"); /* one 0 stays */
    CHECK_STR(ip_canon("1:2:3:4:5:6:7:8"), "1:2:3:4:5:6:7:8");
    CHECK_STR(ip_canon("fe80::"), "fe80::");
    CHECK_STR(ip_canon("0001:0db8::"), "1:db8::"); /* leading zeros in a group are fine in v6 */
}

TEST(ipv6_embedded_v4)
{
    struct ip_addr a;
    CHECK_INT(ip_parse("::ffff:192.0.2.1", &a), 0);
    CHECK_INT(a.family, NET_V6); /* v4-mapped stays a v6 address */
    CHECK(a.b[10] == 0xff && a.b[11] == 0xff && a.b[12] == 192 && a.b[15] == 1);
    CHECK_STR(ip_canon("::FFFF:192.0.2.1"), "::ffff:192.0.2.1");
    CHECK_STR(ip_canon("1:2:3:4:5:6:1.2.3.4"), "1:2:3:4:5:6:102:304");
    CHECK_STR(ip_canon("::ffff:01.2.3.4"), "ERR"); /* the v4 rules apply to the tail */
    CHECK_STR(ip_canon("::ffff:1.2.3.256"), "ERR");
    CHECK_STR(ip_canon("::ffff:1.2.3"), "ERR");
    CHECK_STR(ip_canon("::1.2.3.4:1"), "ERR");
}

TEST(ipv6_invalid)
{
    static const char *bad[] = {
        ":",
        ":::",
        "1::2::3",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7",
        "12345::",
        "00001::",
        "g::",
        "fe80::1%eth0",
        "fe80::1%1",
        "[::1]",
        "::1 ",
        " ::1",
        "1:2:3:4:5:6:7:8::",
        "2001:db8::/32",
        "::ffff:1.2.3.4.5",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct ip_addr a;
        if (ip_parse(bad[i], &a) != -1) {
            fprintf(stderr, "  accepted \"%s\"\n", bad[i]);
            CHECK(0);
        }
    }
}

TEST(ip_longest_text)
{
    /* the longest valid text (45 characters) parses; a 100-character one is refused */
    CHECK_STR(ip_canon("0000:0000:0000:0000:0000:ffff:255.255.255.255"), "::ffff:255.255.255.255");
    char s[100];
    memset(s, '1', sizeof s - 1);
    s[sizeof s - 1] = '\0';
    CHECK_STR(ip_canon(s), "ERR");
}

TEST(cidr_flags)
{
    CHECK_STR(cidr_canon("10.0.0.0/8", 0), "10.0.0.0/8");
    CHECK_STR(cidr_canon("10.1.2.3/8", 0), "10.0.0.0/8"); /* host bits cleared */
    CHECK_STR(cidr_canon("10.1.2.3/8", CIDR_REJECT_HOST_BITS), "ERR-2");
    CHECK_STR(cidr_canon("10.0.0.0/8", CIDR_REJECT_HOST_BITS), "10.0.0.0/8");
    CHECK_STR(cidr_canon("10.1.2.3", 0), "ERR-1"); /* bare not allowed */
    CHECK_STR(cidr_canon("10.1.2.3", CIDR_ALLOW_BARE), "10.1.2.3/32");
    CHECK_STR(cidr_canon("10.1.2.3", CIDR_ALLOW_BARE | CIDR_REJECT_HOST_BITS), "10.1.2.3/32");
    CHECK_STR(cidr_canon("2001:db8::1", CIDR_ALLOW_BARE), "2001:db8::1/128");
    CHECK_STR(cidr_canon("2001:db8::1", 0), "ERR-1");
    CHECK_STR(cidr_canon("2001:db8::1/32", 0), "2001:db8::/32");
    CHECK_STR(cidr_canon("2001:db8::1/32", CIDR_REJECT_HOST_BITS), "ERR-2");
    CHECK_STR(cidr_canon("2001:db8:8000::/33", CIDR_REJECT_HOST_BITS), "2001:db8:8000::/33");
    CHECK_STR(cidr_canon("2001:db8:8000::/32", CIDR_REJECT_HOST_BITS), "ERR-2");
    CHECK_STR(cidr_canon("10.0.0.128/25", CIDR_REJECT_HOST_BITS), "10.0.0.128/25");
    CHECK_STR(cidr_canon("10.0.0.129/25", 0), "10.0.0.128/25");
}

TEST(cidr_prefix_bounds)
{
    CHECK_STR(cidr_canon("0.0.0.0/0", CIDR_REJECT_HOST_BITS), "0.0.0.0/0");
    CHECK_STR(cidr_canon("1.2.3.4/0", CIDR_REJECT_HOST_BITS), "ERR-2");
    CHECK_STR(cidr_canon("1.2.3.4/0", 0), "0.0.0.0/0");
    CHECK_STR(cidr_canon("1.2.3.4/32", CIDR_REJECT_HOST_BITS), "1.2.3.4/32");
    CHECK_STR(cidr_canon("1.2.3.4/33", 0), "ERR-1");
    CHECK_STR(cidr_canon("::/0", CIDR_REJECT_HOST_BITS), "::/0");
    CHECK_STR(cidr_canon("::1/128", CIDR_REJECT_HOST_BITS), "::1/128");
    CHECK_STR(cidr_canon("::1/129", 0), "ERR-1");
    CHECK_STR(cidr_canon("::/999", 0), "ERR-1");
}

TEST(cidr_bad_syntax)
{
    static const char *bad[] = {
        "1.2.3.4/",   "/24",        "/",          "1.2.3.4/08",  "1.2.3.4/-1",
        "1.2.3.4/+8", "1.2.3.4/ 8", "1.2.3.4/8 ", "1.2.3.4/8/8", "1.2.3.4/0008",
        "1.2.3.4/1a", "01.2.3.4/8", "::1%lo/128", "1.2.3/24",    "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct cidr c;
        int rc = cidr_parse(bad[i], CIDR_ALLOW_BARE, &c);
        if (rc != -1) {
            fprintf(stderr, "  \"%s\" -> %d\n", bad[i], rc);
            CHECK(0);
        }
    }
    struct cidr c;
    CHECK_INT(cidr_parse(NULL, CIDR_ALLOW_BARE, &c), -1);
    CHECK_STR(cidr_error(-2), "has host bits set beyond its prefix length");
    CHECK_STR(cidr_error(-1), "is not a valid CIDR block");
}

TEST(cidr_contains_addresses)
{
    struct cidr net = C("10.0.0.0/8");
    struct ip_addr in = A("10.255.255.255"), out = A("11.0.0.0"), first = A("10.0.0.0");
    struct ip_addr mapped = A("::ffff:10.0.0.1");
    CHECK(cidr_contains_ip(&net, &in));
    CHECK(cidr_contains_ip(&net, &first));
    CHECK(!cidr_contains_ip(&net, &out));
    CHECK(!cidr_contains_ip(&net, &mapped)); /* families never mix */
    struct cidr all4 = C("0.0.0.0/0"), all6 = C("::/0");
    CHECK(cidr_contains_ip(&all4, &out));
    CHECK(!cidr_contains_ip(&all4, &mapped));
    CHECK(cidr_contains_ip(&all6, &mapped));
    struct cidr v6 = C("2001:db8:1::/48");
    struct ip_addr a6 = A("2001:db8:1:ffff::1"), b6 = A("2001:db8:2::1");
    CHECK(cidr_contains_ip(&v6, &a6));
    CHECK(!cidr_contains_ip(&v6, &b6));
    struct cidr host = C("192.0.2.7");
    struct ip_addr h7 = A("192.0.2.7"), h8 = A("192.0.2.8");
    CHECK(cidr_contains_ip(&host, &h7));
    CHECK(!cidr_contains_ip(&host, &h8));
}

TEST(cidr_contains_blocks)
{
    struct cidr a = C("10.0.0.0/8"), b = C("10.1.0.0/16"), c = C("11.0.0.0/16"), d = C("10.0.0.0/8");
    struct cidr e = C("::/0"), f = C("0.0.0.0/0");
    CHECK(cidr_contains(&a, &b));
    CHECK(!cidr_contains(&b, &a));
    CHECK(!cidr_contains(&a, &c));
    CHECK(cidr_contains(&a, &d) && cidr_contains(&d, &a));
    CHECK(!cidr_contains(&e, &a)); /* a v6 block never holds a v4 one */
    CHECK(cidr_contains(&f, &a));
    CHECK(cidr_overlaps(&a, &b) && cidr_overlaps(&b, &a));
    CHECK(!cidr_overlaps(&b, &c));
    CHECK(!cidr_overlaps(&e, &f));
    CHECK(cidr_equal(&a, &d));
    CHECK(!cidr_equal(&a, &b));
    struct cidr g = C("10.0.0.0/9");
    CHECK(!cidr_equal(&a, &g));
    struct cidr s24 = C("198.51.100.0/24"), s25 = C("198.51.100.128/25"), s25b = C("198.51.101.0/25");
    CHECK(cidr_contains(&s24, &s25));
    CHECK(!cidr_contains(&s24, &s25b));
}

TEST(cidr_lists)
{
    struct cidr outer[] = {C("10.0.0.0/8"), C("2001:db8::/32")};
    struct cidr inner_ok[] = {C("10.2.0.0/16"), C("2001:db8:5::/48"), C("10.0.0.1")};
    struct cidr inner_bad[] = {C("10.2.0.0/16"), C("192.0.2.0/24")};
    CHECK(cidrs_within(inner_ok, 3, outer, 2));
    CHECK(!cidrs_within(inner_bad, 2, outer, 2));
    CHECK(cidrs_within(inner_bad, 0, outer, 2)); /* nothing to check */
    CHECK(!cidrs_within(inner_ok, 1, outer, 0));

    struct cidr list[] = {C("192.0.2.0/25"), C("198.51.100.0/24"), C("192.0.2.128/25"), C("198.51.100.7")};
    size_t i = 99, j = 99;
    CHECK_INT(cidrs_first_overlap(list, 3, &i, &j), -1);
    CHECK_INT(cidrs_first_overlap(list, 4, &i, &j), 0);
    CHECK_INT(i, 1);
    CHECK_INT(j, 3);
    CHECK_INT(cidrs_first_overlap(list, 0, &i, &j), -1);
}

TEST(cidr_sizes)
{
    struct cidr a = C("1.2.3.4"), b = C("10.0.0.0/24"), c = C("0.0.0.0/0"), d = C("::/64"), e = C("::/65"),
                f = C("::/0"), g = C("::1");
    CHECK(cidr_size(&a) == 1);
    CHECK(cidr_size(&b) == 256);
    CHECK(cidr_size(&c) == 4294967296ULL);
    CHECK(cidr_size(&d) == UINT64_MAX); /* 2^64 saturates */
    CHECK(cidr_size(&e) == (1ULL << 63));
    CHECK(cidr_size(&f) == UINT64_MAX);
    CHECK(cidr_size(&g) == 1);
}

TEST(special_addresses)
{
    static const char *special[] = {"0.0.0.0",     "0.1.2.3",          "127.0.0.1",
                                    "169.254.0.1", "224.0.0.1",        "239.1.1.1",
                                    "240.0.0.1",   "255.255.255.255",  "::",
                                    "::1",         "ff02::1",          "fe80::1",
                                    "febf::1",     "::ffff:127.0.0.1", "::ffff:0.0.0.0"};
    static const char *ordinary[] = {
        "10.0.0.1",   "192.168.1.1", "192.0.2.1",   "1.0.0.0",         "126.255.255.255",
        "128.0.0.1",  "169.253.0.1", "169.255.0.1", "223.255.255.255", "2001:db8::1",
        "::2",        "fec0::1",     "fe7f::1",     "fc00::1",         "::ffff:192.0.2.1",
        "::127.0.0.1"};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        struct ip_addr a = A(special[i]);
        if (!ip_is_special(&a)) {
            fprintf(stderr, "  %s should be special\n", special[i]);
            CHECK(0);
        }
    }
    for (size_t i = 0; i < sizeof ordinary / sizeof ordinary[0]; i++) {
        struct ip_addr a = A(ordinary[i]);
        if (ip_is_special(&a)) {
            fprintf(stderr, "  %s should not be special\n", ordinary[i]);
            CHECK(0);
        }
    }
}

TEST(unmapping)
{
    struct ip_addr a = A("::ffff:192.0.2.7"), v4 = A("192.0.2.7");
    ip_unmap(&a);
    CHECK_INT(a.family, NET_V4);
    CHECK(memcmp(&a, &v4, sizeof a) == 0);
    struct ip_addr v6 = A("2001:db8::ffff:c000:207"), same = v6; /* not the mapped prefix */
    ip_unmap(&v6);
    CHECK(memcmp(&v6, &same, sizeof v6) == 0);
    struct ip_addr compat = A("::192.0.2.7"),
                   compat_same = compat; /* deprecated compatible form: left alone */
    ip_unmap(&compat);
    CHECK(memcmp(&compat, &compat_same, sizeof compat) == 0);
    ip_unmap(&v4);
    CHECK_INT(v4.family, NET_V4);
}

TEST(round_trips)
{
    static const char *blocks[] = {"10.0.0.0/8",         "192.0.2.128/25", "2001:db8::/32", "::/0",
                                   "::ffff:1.2.3.0/120", "fe80::/10",      "1.2.3.4/32"};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        char text[NET_TEXT_MAX];
        strcpy(text, cidr_canon(blocks[i], CIDR_REJECT_HOST_BITS));
        CHECK_STR(text, blocks[i]);
        CHECK_STR(cidr_canon(text, CIDR_REJECT_HOST_BITS), blocks[i]);
    }
    /* the longest address text still fits, with its prefix */
    CHECK_STR(cidr_canon("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255/128", 0),
              "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128");
    CHECK_STR(cidr_canon("::ffff:255.255.255.255", CIDR_ALLOW_BARE), "::ffff:255.255.255.255/128");
}

UNIT_MAIN(UNIT_CASE(ipv4_valid), UNIT_CASE(ipv4_invalid), UNIT_CASE(ipv6_valid_and_canonical),
          UNIT_CASE(ipv6_embedded_v4), UNIT_CASE(ipv6_invalid), UNIT_CASE(ip_longest_text),
          UNIT_CASE(cidr_flags), UNIT_CASE(cidr_prefix_bounds), UNIT_CASE(cidr_bad_syntax),
          UNIT_CASE(cidr_contains_addresses), UNIT_CASE(cidr_contains_blocks), UNIT_CASE(cidr_lists),
          UNIT_CASE(cidr_sizes), UNIT_CASE(special_addresses), UNIT_CASE(unmapping), UNIT_CASE(round_trips))
