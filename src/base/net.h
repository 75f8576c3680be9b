/* net.h — IPv4/IPv6 addresses and CIDR blocks: strict parsing, canonical
 * formatting, and the set arithmetic the API's rules need (containment,
 * overlap). Pure functions, no allocation. */
#ifndef PARAPET_NET_H
#define PARAPET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { NET_V4 = 4, NET_V6 = 6 };

struct ip_addr {
    int family;    /* NET_V4 or NET_V6 */
    uint8_t b[16]; /* network order; v4 uses b[0..3] */
};

struct cidr {
    struct ip_addr addr; /* host bits cleared */
    int prefix;
};

#define NET_TEXT_MAX 64 /* any formatted address or block, with NUL */

/* IPv4: four decimal octets 0..255 without leading zeros ("01.2.3.4" is
 * refused: octal to some parsers). IPv6: RFC 4291 text, including an
 * embedded IPv4 tail; no zone id, no brackets. No spaces anywhere.
 * Returns 0, or -1 when invalid. */
int ip_parse(const char *s, struct ip_addr *out);
void ip_format(const struct ip_addr *a, char out[NET_TEXT_MAX]); /* RFC 5952 for v6 */

enum {
    CIDR_ALLOW_BARE = 1,       /* a bare address means /32 or /128 */
    CIDR_REJECT_HOST_BITS = 2, /* "10.0.0.1/24" is an error (otherwise cleared) */
};
/* Parses "addr/len" (decimal len, no leading zeros). Returns 0; -1 when not a
 * block; -2 when host bits are set and CIDR_REJECT_HOST_BITS was given. */
int cidr_parse(const char *s, int flags, struct cidr *out);
void cidr_format(const struct cidr *c, char out[NET_TEXT_MAX]); /* always "addr/len" */
/* The rule a cidr_parse result breaks, phrased after a field name. */
const char *cidr_error(int rc);

bool cidr_contains_ip(const struct cidr *c, const struct ip_addr *a);
bool cidr_contains(const struct cidr *outer, const struct cidr *inner);
bool cidr_overlaps(const struct cidr *a, const struct cidr *b);
bool cidr_equal(const struct cidr *a, const struct cidr *b);
/* Every block of inner lies inside some block of outer. */
bool cidrs_within(const struct cidr *inner, size_t n_inner, const struct cidr *outer, size_t n_outer);
/* The first overlapping pair (i < j) in a list: returns 0 and sets *i, *j,
 * or -1 when the blocks are disjoint. */
int cidrs_first_overlap(const struct cidr *list, size_t n, size_t *i, size_t *j);
/* Addresses in the block, saturating at UINT64_MAX. */
uint64_t cidr_size(const struct cidr *c);
/* Unspecified, loopback, multicast, link-local or limited broadcast: never a
 * customer's address (also as an IPv4-mapped IPv6 address). Private and
 * documentation ranges are not special. */
bool ip_is_special(const struct ip_addr *a);
/* An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as a dual-stack socket
 * reports IPv4 clients) becomes the IPv4 address; others are unchanged. */
void ip_unmap(struct ip_addr *a);

#endif
