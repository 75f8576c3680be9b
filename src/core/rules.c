/* rules.c — see rules.h. */
#include "core/rules.h"

#include <stdio.h>
#include <string.h>

#include "base/dnsname.h"
#include "base/net.h"

static _Thread_local char message[DNS_WHY_MAX];

/* Replaces *value with a string of the canonical text, if it differs. */
static void replace_text(json_t **value, const char *canonical)
{
    if (strcmp(json_string_value(*value), canonical) != 0) {
        json_decref(*value);
        *value = json_string(canonical);
    }
}

const char *rule_ip_address(json_t **value, long flags)
{
    struct ip_addr a;
    if (ip_parse(json_string_value(*value), &a) != 0)
        return "must be an IPv4 or IPv6 address";
    if ((flags & RULE_IP_PUBLIC) && ip_is_special(&a))
        return "must not be a loopback, unspecified, multicast or link-local address";
    char text[NET_TEXT_MAX];
    ip_format(&a, text);
    replace_text(value, text);
    return NULL;
}

/* A name rewritten by its normaliser, or the normaliser's reason. */
static const char *canonical_name(json_t **value, int (*normalise)(const char *, char *, char *))
{
    char name[DNS_NAME_MAX + 1];
    if (normalise(json_string_value(*value), name, message) != 0)
        return message;
    replace_text(value, name);
    return NULL;
}

const char *rule_zone_name(json_t **value, long unused)
{
    (void)unused;
    return canonical_name(value, zone_name_normalise);
}

const char *rule_key_name(json_t **value, long unused)
{
    (void)unused;
    return canonical_name(value, key_name_normalise);
}

const char *rule_base64(const json_t *value, long min_bytes)
{
    long n = base64_decoded_length(json_string_value(value));
    if (n < 0)
        return "must be base64 (RFC 4648, with padding)";
    if (n < min_bytes) {
        snprintf(message, sizeof message, "must encode at least %ld bytes", min_bytes);
        return message;
    }
    return NULL;
}

const char *rule_cidr(json_t **value, long flags)
{
    struct cidr c;
    int rc = cidr_parse(json_string_value(*value),
                        ((flags & RULE_CIDR_BARE) ? CIDR_ALLOW_BARE : 0) |
                            ((flags & RULE_CIDR_STRICT) ? CIDR_REJECT_HOST_BITS : 0),
                        &c);
    if (rc != 0)
        return cidr_error(rc);
    if ((flags & RULE_CIDR_V4) && c.addr.family != NET_V4)
        return "must be an IPv4 block";
    if ((flags & RULE_CIDR_V6) && c.addr.family != NET_V6)
        return "must be an IPv6 block";
    if ((flags & RULE_CIDR_PUBLIC) && ip_is_special(&c.addr))
        return "must not be a loopback, unspecified, multicast or link-local block";
    char text[NET_TEXT_MAX];
    cidr_format(&c, text);
    replace_text(value, text);
    return NULL;
}

const char *rule_word(const json_t *value, long unused)
{
    (void)unused;
    const char *s = json_string_value(value);
    if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] != '\0')
        return "may hold only letters, digits and underscores";
    return NULL;
}
