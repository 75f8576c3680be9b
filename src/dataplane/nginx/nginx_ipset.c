/* nginx_ipset.c — see nginx_ipset.h. */
#include "dataplane/nginx/nginx_ipset.h"

#include "api/ap/appshield.h"
#include "base/net.h"

typedef unsigned __int128 u128;

static u128 to_num(const struct ip_addr *a, int bytes)
{
    u128 v = 0;
    for (int i = 0; i < bytes; i++)
        v = (v << 8) | a->b[i];
    return v;
}

static void add_block(json_t *out, int family, int bytes, u128 v, int prefix)
{
    struct cidr c = {.addr.family = family, .prefix = prefix};
    for (int i = bytes - 1; i >= 0; i--, v >>= 8)
        c.addr.b[i] = (uint8_t)(v & 0xFF);
    char text[NET_TEXT_MAX];
    if (prefix == bytes * 8)
        ip_format(&c.addr, text);
    else
        cidr_format(&c, text);
    json_array_append_new(out, json_string(text));
}

/* lo..hi as aligned blocks, largest first from lo upwards. */
static void add_range(json_t *out, const struct ip_range *r)
{
    int family = r->first.family, bytes = family == NET_V4 ? 4 : 16, width = bytes * 8;
    u128 lo = to_num(&r->first, bytes), hi = to_num(&r->last, bytes);
    for (;;) {
        int k = 0; /* the block holds 2^k addresses */
        while (k < width) {
            u128 size = (u128)1 << (k + 1);
            if (k + 1 == width) { /* the whole space: only from 0 to the top */
                if (lo == 0 && hi == (width == 128 ? ~(u128)0 : ((u128)1 << width) - 1))
                    k++;
                break;
            }
            if ((lo & (size - 1)) != 0 || lo + size - 1 > hi)
                break;
            k++;
        }
        add_block(out, family, bytes, lo, width - k);
        u128 last = k == width ? hi : lo + (((u128)1 << k) - 1);
        if (last >= hi)
            return;
        lo = last + 1;
    }
}

json_t *nginx_ipset_blocks(const json_t *entries)
{
    json_t *out = json_array();
    size_t i;
    json_t *e;
    json_array_foreach (entries, i, e) {
        struct ip_range r;
        char text[APPSHIELD_ENTRY_TEXT_MAX];
        const char *why;
        if (json_is_string(e) && ip_range_parse(json_string_value(e), &r, text, &why) == 0)
            add_range(out, &r);
    }
    return out;
}
