/* rules.h — field rules shared by the route table's specs (spec.h): RULE()
 * checks and CANON() rules that also bring a value to its canonical form.
 * Each returns NULL when the value is fine, or the rule it breaks phrased to
 * follow the field name; messages live in a per-thread buffer until the
 * next call. */
#ifndef PARAPET_RULES_H
#define PARAPET_RULES_H

#include <jansson.h>

enum {
    RULE_IP_ANY = 0,
    RULE_IP_PUBLIC = 1, /* refuse loopback, unspecified, multicast, link-local (ip_is_special) */
};

/* CANON: an IPv4 or IPv6 address, rewritten in canonical text (RFC 5952). */
const char *rule_ip_address(json_t **value, long flags);
/* CANON: a zone name, rewritten as lowercase Punycode without a trailing dot. */
const char *rule_zone_name(json_t **value, long unused);
/* CANON: a TSIG key name, rewritten in lowercase without a trailing dot. */
const char *rule_key_name(json_t **value, long unused);
/* RULE: standard base64 encoding at least min_bytes bytes. */
const char *rule_base64(const json_t *value, long min_bytes);

/* Flags of rule_cidr (or-ed). */
enum {
    RULE_CIDR_V4 = 1 << 0,     /* IPv4 only */
    RULE_CIDR_V6 = 1 << 1,     /* IPv6 only (neither flag: both families) */
    RULE_CIDR_BARE = 1 << 2,   /* a bare address is taken as /32 or /128 */
    RULE_CIDR_STRICT = 1 << 3, /* host bits set ("10.0.0.1/24") is an error, not cleared */
    RULE_CIDR_PUBLIC = 1 << 4, /* refuse loopback, multicast, link-local, unspecified (ip_is_special) */
};
/* CANON: an address block, rewritten as canonical "addr/len". */
const char *rule_cidr(json_t **value, long flags);
/* RULE: ASCII letters, digits and underscore only (names of sites, hosts, ...). */
const char *rule_word(const json_t *value, long unused);

#endif
