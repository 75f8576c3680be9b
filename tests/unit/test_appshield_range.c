/* test_appshield_range.c — AppShield IP list entries (api/ap/appshield_range.c):
 * the three forms, their canonical text, overlap, and list parsing. */
#include "api/ap/appshield.h"

#include "unit.h"

/* The canonical text of one entry, or "ERR: <why>". */
static const char *canon(const char *s)
{
    static char out[APPSHIELD_ENTRY_TEXT_MAX + 8];
    struct ip_range r;
    const char *why = NULL;
    if (ip_range_parse(s, &r, out, &why) != 0)
        snprintf(out, sizeof out, "ERR: %s", why);
    return out;
}

static struct ip_range R(const char *s) {
    struct ip_range r;
    char text[APPSHIELD_ENTRY_TEXT_MAX];
    const char *why;
    if (ip_range_parse(s, &r, text, &why) != 0)
        fprintf(stderr, "  bad fixture %s\n", s);
    return r;
}

TEST(single_addresses)
{
    CHECK_STR(canon("192.0.2.1"), "192.0.2.1");
    CHECK_STR(canon("  192.0.2.1 "), "192.0.2.1");
    CHECK_STR(canon("2001:DB8:0:0::1"), "2001:db8::1");
    CHECK_STR(canon("192.0.2.256"), "ERR: must be an address, a block (addr/len) or a range (first-last)");
    CHECK_STR(canon("01.2.3.4"), "ERR: must be an address, a block (addr/len) or a range (first-last)");
    CHECK_STR(canon(""), "ERR: must not be empty");
    CHECK_STR(canon("   "), "ERR: must not be empty");
    CHECK_STR(canon("example.com"), "ERR: must be an address, a block (addr/len) or a range (first-last)");
}

TEST(blocks)
{
    CHECK_STR(canon("198.51.100.0/24"), "198.51.100.0/24");
    CHECK_STR(canon("2001:db8:0::/48"), "2001:db8::/48");
    CHECK_STR(canon("198.51.100.1/24"), "ERR: must be a block without host bits set (e.g. 192.0.2.0/24)");
    CHECK_STR(canon("198.51.100.0/33"),
              "ERR: must be an address, a block (addr/len) or a range (first-last)");
    CHECK_STR(canon("198.51.100.0/"), "ERR: must be an address, a block (addr/len) or a range (first-last)");
    struct ip_range r = R("198.51.100.0/24");
    CHECK(r.first.b[3] == 0 && r.last.b[3] == 255 && r.last.b[2] == 100);
    r = R("0.0.0.0/0");
    CHECK(r.first.b[0] == 0 && r.last.b[0] == 255 && r.last.b[3] == 255);
}

TEST(ranges)
{
    CHECK_STR(canon("203.0.113.1-203.0.113.9"), "203.0.113.1-203.0.113.9");
    CHECK_STR(canon("203.0.113.1 - 203.0.113.9"), "203.0.113.1-203.0.113.9");
    CHECK_STR(canon("203.0.113.5-203.0.113.5"), "203.0.113.5"); /* one address */
    CHECK_STR(canon("2001:db8::1-2001:db8::ff"), "2001:db8::1-2001:db8::ff");
    CHECK_STR(canon("203.0.113.9-203.0.113.1"),
              "ERR: must be a range whose first address is not above its last");
    CHECK_STR(canon("203.0.113.1-2001:db8::1"), "ERR: must be a range of two addresses of one family");
    CHECK_STR(canon("203.0.113.1-"), "ERR: must be a range of two addresses (first-last)");
    CHECK_STR(canon("203.0.113.0/24-203.0.114.0"), "ERR: must be a range of two addresses (first-last)");
    CHECK_STR(canon("1-2-3"), "ERR: must be a range of two addresses (first-last)");
    /* the longest canonical text fits */
    CHECK_STR(canon("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
              "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
}

TEST(overlaps)
{
    struct ip_range block = R("198.51.100.0/24"), inside = R("198.51.100.7"),
                    edge = R("198.51.100.255-198.51.101.3"), after = R("198.51.101.0-198.51.101.255"),
                    v6 = R("::/0");
    CHECK(ip_range_overlaps(&block, &inside));
    CHECK(ip_range_overlaps(&inside, &block));
    CHECK(ip_range_overlaps(&block, &edge));
    CHECK(!ip_range_overlaps(&block, &after));
    CHECK(!ip_range_overlaps(&block, &v6)); /* families never overlap */
    json_t *list = json_pack("[s,s,s]", "192.0.2.1", "2001:db8::/32", "198.51.100.0/24");
    CHECK_INT(ip_list_find_overlap(list, &inside), 2);
    CHECK_INT(ip_list_find_overlap(list, &after), -1);
    struct ip_range in6 = R("2001:db8::5-2001:db9::");
    CHECK_INT(ip_list_find_overlap(list, &in6), 1);
    json_decref(list);
}

TEST(comma_lists)
{
    char err[256] = "";
    json_t *l = ip_entries_parse("192.0.2.1, 198.51.100.0/24,2001:DB8::1-2001:db8::9", "ip_black_list", 10,
                                 err, sizeof err);
    CHECK(l != NULL);
    CHECK_INT(json_array_size(l), 3);
    CHECK_STR(json_string_value(json_array_get(l, 2)), "2001:db8::1-2001:db8::9");
    json_decref(l);
    CHECK(!ip_entries_parse("192.0.2.1,,192.0.2.2", "ip_black_list", 10, err, sizeof err));
    CHECK_STR(err, "ip_black_list[1]: must not be empty");
    CHECK(!ip_entries_parse("192.0.2.0/24,192.0.2.9", "ip_white_list", 10, err, sizeof err));
    CHECK_STR(err, "ip_white_list[1]: 192.0.2.9 overlaps 192.0.2.0/24 given before");
    CHECK(!ip_entries_parse("192.0.2.1,192.0.2.1", "ip_white_list", 10, err, sizeof err));
    CHECK_STR(err, "ip_white_list[1]: 192.0.2.1 overlaps 192.0.2.1 given before");
    CHECK(!ip_entries_parse("192.0.2.1,192.0.2.2,192.0.2.3", "ip_black_list", 2, err, sizeof err));
    CHECK_STR(err, "ip_black_list: must hold at most 2 entries");
    CHECK(!ip_entries_parse("192.0.2.1,nope", "ip_black_list", 10, err, sizeof err));
    CHECK_STR(err, "ip_black_list[1]: must be an address, a block (addr/len) or a range (first-last)");
    char longer[400];
    memset(longer, '1', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK(!ip_entries_parse(longer, "ip_black_list", 10, err, sizeof err));
    CHECK_STR(err, "ip_black_list[0]: is too long for an address, block or range");
}

UNIT_MAIN(UNIT_CASE(single_addresses), UNIT_CASE(blocks), UNIT_CASE(ranges), UNIT_CASE(overlaps),
          UNIT_CASE(comma_lists))
