/* net.c — see net.h. inet_pton/inet_ntop do the heavy lifting; the
 * strictness rules glibc does not enforce are checked here first. */
#include "base/net.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bits_of(int family)
{
    return family == NET_V4 ? 32 : 128;
}

/* glibc's inet_pton(AF_INET) is already strict about the dotted quad;
 * leading zeros are the one thing refused here explicitly. */
static bool v4_text_ok(const char *s)
{
    int digits = 0;
    for (const char *p = s;; p++) {
        if (*p >= '0' && *p <= '9') {
            if (digits == 1 && p[-1] == '0')
                return false; /* a leading zero */
            digits++;
        } else if (*p == '.' || *p == '\0') {
            if (digits == 0)
                return false;
            digits = 0;
            if (*p == '\0')
                return true;
        } else {
            return false;
        }
    }
}

int ip_parse(const char *s, struct ip_addr *out)
{
    memset(out, 0, sizeof *out);
    if (!s || !*s || strlen(s) >= NET_TEXT_MAX)
        return -1;
    if (strchr(s, ':')) {
        /* an embedded IPv4 tail must follow the same rules */
        const char *tail = strrchr(s, ':') + 1;
        if (strchr(tail, '.') && !v4_text_ok(tail))
            return -1;
        if (inet_pton(AF_INET6, s, out->b) != 1)
            return -1;
        out->family = NET_V6;
        return 0;
    }
    if (!v4_text_ok(s) || inet_pton(AF_INET, s, out->b) != 1)
        return -1;
    out->family = NET_V4;
    return 0;
}

void ip_format(const struct ip_addr *a, char out[NET_TEXT_MAX])
{
    if (!inet_ntop(a->family == NET_V4 ? AF_INET : AF_INET6, a->b, out, NET_TEXT_MAX))
        snprintf(out, NET_TEXT_MAX, "?");
}

/* Clears the bits past `prefix`. */
static void mask(struct ip_addr *a, int prefix)
{
    int bytes = bits_of(a->family) / 8;
    for (int i = 0; i < bytes; i++) {
        int keep = prefix - 8 * i; /* bits of this byte inside the prefix */
        if (keep >= 8)
            continue;
        a->b[i] &= keep <= 0 ? 0 : (uint8_t)(0xFF << (8 - keep));
    }
}

int cidr_parse(const char *s, int flags, struct cidr *out)
{
    memset(out, 0, sizeof *out);
    if (!s)
        return -1;
    const char *slash = strchr(s, '/');
    char addr[NET_TEXT_MAX];
    size_t alen = slash ? (size_t)(slash - s) : strlen(s);
    if (alen == 0 || alen >= sizeof addr)
        return -1;
    memcpy(addr, s, alen);
    addr[alen] = '\0';
    if (ip_parse(addr, &out->addr) != 0)
        return -1;
    int max = bits_of(out->addr.family);
    if (!slash) {
        if (!(flags & CIDR_ALLOW_BARE))
            return -1;
        out->prefix = max;
        return 0;
    }
    const char *p = slash + 1;
    size_t plen = strlen(p);
    if (plen == 0 || plen > 3 || strspn(p, "0123456789") != plen || (p[0] == '0' && plen > 1))
        return -1;
    int prefix = atoi(p);
    if (prefix > max)
        return -1;
    out->prefix = prefix;
    struct ip_addr masked = out->addr;
    mask(&masked, prefix);
    if (memcmp(masked.b, out->addr.b, sizeof masked.b) != 0 && (flags & CIDR_REJECT_HOST_BITS))
        return -2;
    out->addr = masked;
    return 0;
}

void cidr_format(const struct cidr *c, char out[NET_TEXT_MAX])
{
    ip_format(&c->addr, out); /* at most 45 characters: "/128" fits */
    size_t n = strlen(out);
    snprintf(out + n, NET_TEXT_MAX - n, "/%d", c->prefix & 0xff);
}

const char *cidr_error(int rc)
{
    return rc == -2 ? "has host bits set beyond its prefix length" : "is not a valid CIDR block";
}

bool cidr_contains_ip(const struct cidr *c, const struct ip_addr *a)
{
    if (c->addr.family != a->family)
        return false;
    struct ip_addr m = *a;
    mask(&m, c->prefix);
    return memcmp(m.b, c->addr.b, sizeof m.b) == 0;
}

bool cidr_contains(const struct cidr *outer, const struct cidr *inner)
{
    return outer->prefix <= inner->prefix && cidr_contains_ip(outer, &inner->addr);
}

bool cidr_overlaps(const struct cidr *a, const struct cidr *b)
{
    return cidr_contains(a, b) || cidr_contains(b, a);
}

bool cidr_equal(const struct cidr *a, const struct cidr *b)
{
    return a->addr.family == b->addr.family && a->prefix == b->prefix &&
           memcmp(a->addr.b, b->addr.b, sizeof a->addr.b) == 0;
}

bool cidrs_within(const struct cidr *inner, size_t n_inner, const struct cidr *outer, size_t n_outer)
{
    for (size_t i = 0; i < n_inner; i++) {
        bool inside = false;
        for (size_t k = 0; k < n_outer && !inside; k++)
            inside = cidr_contains(&outer[k], &inner[i]);
        if (!inside)
            return false;
    }
    return true;
}

int cidrs_first_overlap(const struct cidr *list, size_t n, size_t *i_out, size_t *j_out)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            if (cidr_overlaps(&list[i], &list[j])) {
                *i_out = i;
                *j_out = j;
                return 0;
            }
        }
    }
    return -1;
}

uint64_t cidr_size(const struct cidr *c)
{
    int host_bits = bits_of(c->addr.family) - c->prefix;
    return host_bits >= 64 ? UINT64_MAX : (uint64_t)1 << host_bits;
}

static const uint8_t v4_mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};

void ip_unmap(struct ip_addr *a)
{
    if (a->family != NET_V6 || memcmp(a->b, v4_mapped_prefix, 12) != 0)
        return;
    memmove(a->b, a->b + 12, 4);
    memset(a->b + 4, 0, 12);
    a->family = NET_V4;
}

bool ip_is_special(const struct ip_addr *a)
{
    const uint8_t *b = a->b;
    if (a->family == NET_V4) {
        return b[0] == 0                       /* 0.0.0.0/8: "this network" */
               || b[0] == 127                  /* loopback */
               || (b[0] == 169 && b[1] == 254) /* link-local */
               || b[0] >= 224;                 /* multicast, reserved, broadcast */
    }
    static const uint8_t zero[16];
    if (memcmp(b, v4_mapped_prefix, 12) == 0) { /* ::ffff:a.b.c.d reaches the IPv4 address */
        struct ip_addr v4 = *a;
        ip_unmap(&v4);
        return ip_is_special(&v4);
    }
    if (memcmp(b, zero, 15) == 0 && (b[15] == 0 || b[15] == 1))
        return true;                                   /* :: and ::1 */
    return b[0] == 0xFF                                /* multicast */
           || (b[0] == 0xFE && (b[1] & 0xC0) == 0x80); /* fe80::/10 link-local */
}
