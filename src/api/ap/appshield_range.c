/* appshield_range.c — AppShield IP list entries: a single address, a block
 * or an "a-b" range, as first/last addresses (see appshield.h). Pure. */
#include <stdio.h>
#include <string.h>

#include "api/ap/appshield.h"

static int addr_cmp(const struct ip_addr *a, const struct ip_addr *b)
{
    return memcmp(a->b, b->b, a->family == NET_V4 ? 4 : 16);
}

/* The last address of a block: its host bits set. */
static struct ip_addr block_last(const struct cidr *c)
{
    struct ip_addr last = c->addr;
    int bits = c->addr.family == NET_V4 ? 32 : 128;
    for (int i = c->prefix; i < bits; i++)
        last.b[i / 8] |= (uint8_t)(0x80 >> (i % 8));
    return last;
}

/* Copies s without surrounding spaces into buf; NULL if it does not fit. */
static const char *trimmed(const char *s, size_t n, char *buf, size_t size)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= size)
        return NULL;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

int ip_range_parse(const char *s, struct ip_range *out, char text[APPSHIELD_ENTRY_TEXT_MAX], const char **why)
{
    char buf[APPSHIELD_ENTRY_TEXT_MAX];
    if (!trimmed(s, strlen(s), buf, sizeof buf)) {
        *why = "is too long for an address, block or range";
        return -1;
    }
    if (!*buf) {
        *why = "must not be empty";
        return -1;
    }
    const char *dash = strchr(buf, '-');
    if (dash) {
        char a[APPSHIELD_ENTRY_TEXT_MAX], b[APPSHIELD_ENTRY_TEXT_MAX];
        if (!trimmed(buf, (size_t)(dash - buf), a, sizeof a) ||
            !trimmed(dash + 1, strlen(dash + 1), b, sizeof b) || ip_parse(a, &out->first) != 0 ||
            ip_parse(b, &out->last) != 0) {
            *why = "must be a range of two addresses (first-last)";
            return -1;
        }
        if (out->first.family != out->last.family) {
            *why = "must be a range of two addresses of one family";
            return -1;
        }
        int c = addr_cmp(&out->first, &out->last);
        if (c > 0) {
            *why = "must be a range whose first address is not above its last";
            return -1;
        }
        char fa[NET_TEXT_MAX], la[NET_TEXT_MAX];
        ip_format(&out->first, fa);
        ip_format(&out->last, la);
        if (c == 0)
            snprintf(text, APPSHIELD_ENTRY_TEXT_MAX, "%s", fa);
        else
            snprintf(text, APPSHIELD_ENTRY_TEXT_MAX, "%s-%s", fa, la);
        return 0;
    }
    if (strchr(buf, '/')) {
        struct cidr c;
        int rc = cidr_parse(buf, CIDR_REJECT_HOST_BITS, &c);
        if (rc != 0) {
            *why = rc == -2 ? "must be a block without host bits set (e.g. 192.0.2.0/24)"
                            : "must be an address, a block (addr/len) or a range (first-last)";
            return -1;
        }
        out->first = c.addr;
        out->last = block_last(&c);
        cidr_format(&c, text);
        return 0;
    }
    if (ip_parse(buf, &out->first) != 0) {
        *why = "must be an address, a block (addr/len) or a range (first-last)";
        return -1;
    }
    out->last = out->first;
    ip_format(&out->first, text);
    return 0;
}

bool ip_range_overlaps(const struct ip_range *a, const struct ip_range *b)
{
    return a->first.family == b->first.family && addr_cmp(&a->first, &b->last) <= 0 &&
           addr_cmp(&b->first, &a->last) <= 0;
}

long ip_list_find_overlap(const json_t *list, const struct ip_range *entry)
{
    size_t i;
    json_t *v;
    json_array_foreach (list, i, v) {
        struct ip_range have;
        char text[APPSHIELD_ENTRY_TEXT_MAX];
        const char *why;
        if (json_is_string(v) && ip_range_parse(json_string_value(v), &have, text, &why) == 0 &&
            ip_range_overlaps(&have, entry))
            return (long)i;
    }
    return -1;
}

json_t *ip_entries_parse(const char *value, const char *field, size_t max, char *err, size_t errlen)
{
    json_t *out = json_array();
    struct ip_range ranges[APPSHIELD_LIST_MAX];
    const char *p = value;
    for (size_t i = 0;; i++) {
        size_t n = strcspn(p, ",");
        if (i >= max || i >= APPSHIELD_LIST_MAX) {
            snprintf(err, errlen, "%s: must hold at most %zu entries", field, max);
            goto fail;
        }
        char one[APPSHIELD_ENTRY_TEXT_MAX * 2], text[APPSHIELD_ENTRY_TEXT_MAX];
        const char *why = "is too long for an address, block or range";
        bool fits = n < sizeof one;
        if (fits) {
            memcpy(one, p, n);
            one[n] = '\0';
        }
        if (!fits || ip_range_parse(one, &ranges[i], text, &why) != 0) {
            snprintf(err, errlen, "%s[%zu]: %s", field, i, why);
            goto fail;
        }
        for (size_t j = 0; j < i; j++) {
            if (ip_range_overlaps(&ranges[j], &ranges[i])) {
                snprintf(err, errlen, "%s[%zu]: %s overlaps %s given before", field, i, text,
                         json_string_value(json_array_get(out, j)));
                goto fail;
            }
        }
        json_array_append_new(out, json_string(text));
        if (!p[n])
            break;
        p += n + 1;
    }
    return out;
fail:
    json_decref(out);
    return NULL;
}
