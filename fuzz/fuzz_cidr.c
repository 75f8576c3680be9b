/* fuzz_cidr.c — ip/cidr parsing and formatting. Input: [flags] text, where
 * a '\n' splits the text into two blocks whose relations are checked too.
 * Invariants: canonical text parses back to the same value and formats to
 * itself; a parsed block has no host bits and a prefix within the family;
 * containment, overlap and equality agree with each other. */
#include <stdint.h>
#include <string.h>

#include "base/net.h"
#include "fuzz_assert.h"

static void check_ip(const char *s)
{
    struct ip_addr a, b;
    if (ip_parse(s, &a) != 0)
        return;
    FUZZ_ASSERT(a.family == NET_V4 || a.family == NET_V6);
    char t[NET_TEXT_MAX], t2[NET_TEXT_MAX];
    ip_format(&a, t);
    FUZZ_ASSERT(ip_parse(t, &b) == 0);
    FUZZ_ASSERT(a.family == b.family && memcmp(a.b, b.b, sizeof a.b) == 0);
    ip_format(&b, t2);
    FUZZ_ASSERT(strcmp(t, t2) == 0);
    struct cidr host;
    FUZZ_ASSERT(cidr_parse(s, CIDR_ALLOW_BARE | CIDR_REJECT_HOST_BITS, &host) == 0);
    FUZZ_ASSERT(cidr_contains_ip(&host, &a) && cidr_size(&host) == 1);
    (void)ip_is_special(&a);
}

/* Parses with flags and checks what a block must be; returns 0 if parsed. */
static int check_cidr(const char *s, int flags, struct cidr *c)
{
    int rc = cidr_parse(s, flags, c);
    FUZZ_ASSERT(rc == 0 || rc == -1 || rc == -2);
    if (rc == -2) {
        FUZZ_ASSERT(flags & CIDR_REJECT_HOST_BITS);
        struct cidr loose;
        FUZZ_ASSERT(cidr_parse(s, flags & ~CIDR_REJECT_HOST_BITS, &loose) == 0);
        FUZZ_ASSERT(cidr_contains_ip(&loose, &loose.addr));
        return rc;
    }
    if (rc != 0)
        return rc;
    int bits = c->addr.family == NET_V4 ? 32 : 128;
    FUZZ_ASSERT(c->prefix >= 0 && c->prefix <= bits);
    struct cidr other;
    FUZZ_ASSERT(cidr_parse(s, flags | CIDR_ALLOW_BARE, &other) == 0 && cidr_equal(c, &other));
    char t[NET_TEXT_MAX];
    cidr_format(c, t);
    struct cidr back;
    FUZZ_ASSERT(cidr_parse(t, CIDR_REJECT_HOST_BITS, &back) == 0); /* host bits are clear */
    FUZZ_ASSERT(cidr_equal(c, &back));
    char t2[NET_TEXT_MAX];
    cidr_format(&back, t2);
    FUZZ_ASSERT(strcmp(t, t2) == 0);
    FUZZ_ASSERT(cidr_contains(c, c) && cidr_overlaps(c, c) && cidr_contains_ip(c, &c->addr));
    FUZZ_ASSERT(cidr_size(c) >= 1);
    return 0;
}

static void check_pair(const struct cidr *a, const struct cidr *b)
{
    bool ab = cidr_contains(a, b), ba = cidr_contains(b, a);
    FUZZ_ASSERT((ab && ba) == cidr_equal(a, b));
    FUZZ_ASSERT(cidr_overlaps(a, b) == cidr_overlaps(b, a));
    FUZZ_ASSERT(cidr_overlaps(a, b) == (ab || ba));
    if (ab) {
        FUZZ_ASSERT(cidr_contains_ip(a, &b->addr));
        FUZZ_ASSERT(cidr_size(b) <= cidr_size(a));
        FUZZ_ASSERT(cidrs_within(b, 1, a, 1));
    }
    if (a->addr.family != b->addr.family)
        FUZZ_ASSERT(!cidr_overlaps(a, b));
    struct cidr list[2] = {*a, *b};
    size_t i, j;
    FUZZ_ASSERT((cidrs_first_overlap(list, 2, &i, &j) == 0) == cidr_overlaps(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 256)
        return 0;
    int flags = data[0] & 3;
    char text[256];
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char *second = strchr(text, '\n');
    if (second)
        *second++ = '\0';
    check_ip(text);
    struct cidr a, b;
    int ra = check_cidr(text, flags, &a);
    if (second) {
        check_ip(second);
        if (check_cidr(second, flags, &b) == 0 && ra == 0)
            check_pair(&a, &b);
    }
    return 0;
}
