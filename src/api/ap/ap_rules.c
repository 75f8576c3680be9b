/* ap_rules.c — field rules of Application Protection (src/routes.def). */
#include <string.h>

#include "api/ap/ap_common.h"
#include "base/net.h"
#include "core/rules.h"

/* Private and shared address space: never a protected asset's public
 * address (RFC 1918, RFC 6598, RFC 4193). Documentation ranges pass. */
static bool is_private(const struct ip_addr *a)
{
    const uint8_t *b = a->b;
    if (a->family == NET_V4)
        return b[0] == 10 || (b[0] == 172 && (b[1] & 0xF0) == 16) || (b[0] == 192 && b[1] == 168) ||
               (b[0] == 100 && (b[1] & 0xC0) == 64);
    return (b[0] & 0xFE) == 0xFC;
}

const char *ap_rule_public_ip(json_t **value, long unused)
{
    (void)unused;
    const char *why = rule_ip_address(value, RULE_IP_PUBLIC);
    if (why)
        return why;
    struct ip_addr a;
    if (ip_parse(json_string_value(*value), &a) == 0) {
        ip_unmap(&a);
        if (is_private(&a))
            return "must be a public address (not private or shared address space)";
    }
    return NULL;
}

const char *ap_rule_hostname(json_t **value, long unused)
{
    (void)unused;
    const char *s = json_string_value(*value);
    if (s && strchr(s, '*'))
        return "must be a host name, not a wildcard";
    return rule_zone_name(value, 0);
}

const char *ap_rule_site_name(const json_t *value, long unused)
{
    (void)unused;
    const unsigned char *s = (const unsigned char *)json_string_value(value);
    bool visible = false;
    for (; s && *s; s++) {
        if (*s < 0x20 || *s == 0x7F)
            return "must not contain control characters";
        if (*s != ' ')
            visible = true;
    }
    return visible ? NULL : "must not be blank";
}
