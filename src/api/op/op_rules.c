/* op_rules.c — see op_rules.h. */
#include "api/op/op_rules.h"

#include <stdbool.h>
#include <stdio.h>

#include "core/rules.h"

/* Parses the canonical text rule_cidr left in *value. */
static struct cidr parsed(const json_t *value)
{
    struct cidr c = {0};
    cidr_parse(json_string_value(value), CIDR_ALLOW_BARE, &c);
    return c;
}

const char *op_rule_network_block(json_t **value, long unused)
{
    (void)unused;
    const char *why = rule_cidr(value, RULE_CIDR_STRICT | RULE_CIDR_PUBLIC);
    if (why)
        return why;
    struct cidr c = parsed(*value);
    if (c.addr.family != NET_V4 || c.prefix != OP_NETWORK_V4_PREFIX)
        return "must be a class C block: IPv4 /24";
    return NULL;
}

const char *op_rule_host_address(json_t **value, long unused)
{
    (void)unused;
    const char *why = rule_cidr(value, RULE_CIDR_BARE | RULE_CIDR_STRICT | RULE_CIDR_PUBLIC);
    if (why)
        return why;
    struct cidr c = parsed(*value);
    if (c.addr.family != NET_V4 || c.prefix != 32)
        return "must be a single IPv4 address (bare or /32)";
    return NULL;
}

long op_blocks_outside_asn(const struct cidr *b, size_t n, long long asn, const json_t *prefixes, char *why,
                           size_t why_len)
{
    for (size_t i = 0; i < n; i++) {
        const char *too_long = NULL; /* a prefix holds it, but only up to its max length */
        long max_len = 0;
        size_t k;
        json_t *p;
        bool ok = false;
        json_array_foreach (prefixes, k, p) {
            struct cidr pc;
            if (cidr_parse(json_string_value(json_object_get(p, "prefix")), 0, &pc) != 0 ||
                !cidr_contains(&pc, &b[i]))
                continue;
            long ml = (long)json_integer_value(json_object_get(p, "max_length"));
            if (b[i].prefix <= ml) {
                ok = true;
                break;
            }
            too_long = json_string_value(json_object_get(p, "prefix"));
            max_len = ml;
        }
        if (ok)
            continue;
        if (too_long)
            snprintf(why, why_len, "is longer than /%ld, the ROA max length of %s (AS%lld)", max_len,
                     too_long, asn);
        else
            snprintf(why, why_len, "is not inside a prefix registered for AS%lld", asn);
        return (long)i;
    }
    return -1;
}
