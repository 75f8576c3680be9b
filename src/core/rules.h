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

#endif
