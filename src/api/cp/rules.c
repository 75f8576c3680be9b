/* rules.c — field rules of the CleanPipe route rows (cp.h). */
#include <string.h>

#include "api/cp/cp.h"
#include "base/net.h"

static void replace_text(json_t **value, const char *text)
{
    if (strcmp(json_string_value(*value), text) != 0) {
        json_decref(*value);
        *value = json_string(text);
    }
}

const char *cp_rule_host_address(json_t **value, long unused)
{
    (void)unused;
    struct cidr c;
    if (cidr_parse(json_string_value(*value), CIDR_ALLOW_BARE | CIDR_REJECT_HOST_BITS, &c) != 0 ||
        c.prefix != (c.addr.family == NET_V4 ? 32 : 128))
        return "must be one IPv4 or IPv6 address (written bare, or as /32 or /128)";
    if (ip_is_special(&c.addr))
        return "must not be a loopback, unspecified, multicast or link-local address";
    char text[NET_TEXT_MAX];
    ip_format(&c.addr, text);
    replace_text(value, text);
    return NULL;
}

const char *cp_rule_source(json_t **value, long unused)
{
    (void)unused;
    const char *s = json_string_value(*value);
    char text[NET_TEXT_MAX];
    if (!strchr(s, '/')) {
        struct ip_addr a;
        if (ip_parse(s, &a) != 0)
            return "must be an IPv4 or IPv6 address or block";
        ip_format(&a, text);
    } else {
        struct cidr c;
        int rc = cidr_parse(s, CIDR_REJECT_HOST_BITS, &c);
        if (rc == -2)
            return "must not have host bits set (write the block's first address)";
        if (rc != 0)
            return "must be an IPv4 or IPv6 address or block";
        cidr_format(&c, text);
    }
    replace_text(value, text);
    return NULL;
}

const char *cp_rule_manual_mode(const json_t *value, long unused)
{
    (void)unused;
    json_int_t m = json_integer_value(value);
    return m == 0 || m == 1 || m == 3 ? NULL : "must be 0 (off), 1 (on) or 3 (blackhole)";
}
