/* bird_flow.c — see bird_flow.h. */
#include "dataplane/bird/bird_flow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"

static int refuse(char *why, size_t len, const char *msg, const char *what)
{
    snprintf(why, len, "%s%s%s", msg, what ? ": " : "", what ? what : "");
    return -1;
}

static int family_of(const char *text, struct cidr *c)
{
    char back[NET_TEXT_MAX];
    if (!text || !strchr(text, '/') || cidr_parse(text, 0, c) != 0)
        return 0;
    cidr_format(c, back);
    return strcmp(back, text) == 0 ? (strchr(text, ':') ? 6 : 4) : 0;
}

/* A BIRD numeric match of ports: values and ranges a..b, comma separated. */
static bool ports_ok(const char *s)
{
    if (!*s)
        return false;
    for (const char *p = s; *p;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0 || lo > 65535)
            return false;
        if (end[0] == '.' && end[1] == '.') {
            p = end + 2;
            hi = strtol(p, &end, 10);
            if (end == p || hi < lo || hi > 65535)
                return false;
        }
        if (*end != ',' && *end)
            return false;
        p = *end ? end + 1 : end;
    }
    return true;
}

int bird_flow_check(const struct bird_flow *f, char *why, size_t len)
{
    struct cidr d, s;
    int fam = family_of(f->dst, &d);
    if (!f->dst)
        return refuse(why, len, "a FlowSpec rule needs a destination (dst)", NULL);
    if (!fam)
        return refuse(why, len, "dst is not a canonical CIDR", f->dst);
    if (f->src && family_of(f->src, &s) != fam)
        return refuse(why, len, "src is not a canonical CIDR of dst's family", f->src);
    if (f->proto < -1 || f->proto > 255)
        return refuse(why, len, "proto must be 0 to 255", NULL);
    if ((f->dport && !ports_ok(f->dport)) || (f->sport && !ports_ok(f->sport)))
        return refuse(why, len, "ports must be values or ranges of 0 to 65535", f->dport ? f->dport : f->sport);
    if ((f->dport || f->sport) && f->proto != 6 && f->proto != 17)
        return refuse(why, len, "ports need proto 6 or 17", NULL);
    if (f->length_min < 0 || f->length_max < 0 || f->length_min > BIRD_MAX_LENGTH ||
        f->length_max > BIRD_MAX_LENGTH || (f->length_max && f->length_min > f->length_max))
        return refuse(why, len, "packet lengths must be a non-empty range within 0 to 9216", NULL);
    if (f->rate_bytes < 0 || f->rate_bytes > 1e12)
        return refuse(why, len, "traffic-rate must be 0 to 10^12 bytes/s", NULL);
    return 0;
}

unsigned bird_rate_bits(double bytes_per_s)
{
    float v = (float)bytes_per_s;
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

int bird_flow_write(struct strbuf *b, const struct bird_flow *f, char *why, size_t len)
{
    if (bird_flow_check(f, why, len) != 0)
        return -1;
    bool v6 = strchr(f->dst, ':') != NULL;
    if (f->comment)
        sb_printf(b, "  # %s\n", f->comment);
    sb_printf(b, "  route flow%c { dst %s;", v6 ? '6' : '4', f->dst);
    if (f->src)
        sb_printf(b, " src %s;", f->src);
    if (f->proto >= 0)
        sb_printf(b, " %s %d;", v6 ? "next header" : "proto", f->proto);
    if (f->dport)
        sb_printf(b, " dport %s;", f->dport);
    if (f->sport)
        sb_printf(b, " sport %s;", f->sport);
    if (f->length_min && f->length_max)
        sb_printf(b, " length %d..%d;", f->length_min, f->length_max);
    else if (f->length_min)
        sb_printf(b, " length >= %d;", f->length_min);
    else if (f->length_max)
        sb_printf(b, " length <= %d;", f->length_max);
    if (f->fragment)
        sb_add(b, " fragment is_fragment;");
    sb_printf(b, " } { bgp_ext_community.add((generic, 0x80060000, 0x%08X)); };\n", bird_rate_bits(f->rate_bytes));
    return 0;
}
