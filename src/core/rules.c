/* rules.c — see rules.h. */
#include "core/rules.h"

#include <stdio.h>
#include <string.h>

#include "core/dnsname.h"
#include "core/net.h"

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
