/* nft_rules.c — see nft_rules.h. Site-wide rules match by source only (the
 * site's chain is entered for its blocks alone); a host's rules start with
 * `ip daddr` / `ip6 daddr` of its blocks. */
#include "dataplane/nftables/nft_rules.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/op/op_mitigation.h"
#include "base/net.h"
#include "base/strbuf.h"
#include "dataplane/bogons.h"
#include "dataplane/notes.h"

enum { ZERO_PAYLOAD_MAX = 16 }; /* nftables compares at most 128 bits of raw payload */

/* Where a host's rules apply: its blocks of each family. */
struct target {
    char scope[32];  /* "site" or "h<rid>" */
    json_t *blocks;  /* canonical CIDR strings (NULL: site-wide) */
};

/* A note in the deploy state (notes.h). */
#define note(r, ...) dataplane_note((r)->notes, "nftables", __VA_ARGS__)

static json_int_t on(const json_t *o)
{
    return json_integer_value(json_object_get(o, "is_enabled"));
}

static int family_of(const struct cidr *c)
{
    return c->addr.family == NET_V6 ? 6 : 4;
}

/* An element as nftables writes it: a full-length prefix as a bare address. */
static void element(const struct cidr *c, char out[NET_TEXT_MAX])
{
    if (c->prefix == (c->addr.family == NET_V6 ? 128 : 32))
        ip_format(&c->addr, out);
    else
        cidr_format(c, out);
}

int nft_block_set(struct strbuf *out, const json_t *texts, int fam)
{
    size_t n = json_array_size(texts), kept = 0;
    struct cidr *all = calloc(n + 1, sizeof *all);
    for (size_t i = 0; i < n; i++) {
        struct cidr c;
        if (cidr_parse(json_string_value(json_array_get(texts, i)), CIDR_ALLOW_BARE, &c) == 0 &&
            family_of(&c) == fam)
            all[kept++] = c;
    }
    int written = 0;
    for (size_t i = 0; i < kept; i++) {
        bool inside = false; /* in another block of the list (the first of equal ones stays) */
        for (size_t j = 0; j < kept && !inside; j++)
            inside = j != i && cidr_contains(&all[j], &all[i]) && (!cidr_equal(&all[j], &all[i]) || j < i);
        if (inside)
            continue;
        char text[NET_TEXT_MAX];
        element(&all[i], text);
        sb_printf(out, "%s%s", written++ ? ", " : "{ ", text);
    }
    if (written)
        sb_add(out, " }");
    free(all);
    return written;
}

/* The one protocol a rule's match allows (0: any or several): written as
 * the protocol of its counter's records. */
static int proto_of(const char *match, int fam)
{
    if (strstr(match, "meta l4proto { tcp, udp }"))
        return 0;
    if (strstr(match, "udp ") || strstr(match, "meta l4proto udp") || strstr(match, "ip protocol udp"))
        return 17;
    if (strstr(match, "tcp "))
        return 6;
    if (strstr(match, "meta l4proto ipv6-icmp"))
        return 58;
    if (strstr(match, "meta l4proto icmp"))
        return fam == 6 ? 58 : 1;
    return 0;
}

static void add(struct nft_rules *r, int fam, const struct target *t, const char *policy, const char *verdict,
                const char *match)
{
    if ((int)json_array_size(r->rules) >= NFT_SITE_RULES_MAX) {
        r->left_out++;
        return;
    }
    json_t *rule = json_pack("{s:i,s:s,s:s,s:s,s:s,s:i}", "fam", fam, "scope", t->scope, "policy", policy,
                             "verdict", verdict, "match", match, "proto", proto_of(match, fam));
    if (t->blocks) {
        json_t *mine = json_array();
        size_t i;
        json_t *v;
        json_array_foreach (t->blocks, i, v) {
            struct cidr c;
            if (cidr_parse(json_string_value(v), 0, &c) == 0 && family_of(&c) == fam)
                json_array_append(mine, v);
        }
        json_object_set_new(rule, "blocks", mine);
    }
    json_array_append_new(r->rules, rule);
}

/* One rule per family the target has blocks of: `ip daddr {..} MATCH`
 * (site-wide targets: MATCH alone, once per family of `fams`). match4 and
 * match6 are the family's texts (NULL: no rule of that family). */
static void for_target(struct nft_rules *r, const struct target *t, const char *policy, const char *verdict,
                       const char *match4, const char *match6)
{
    const char *match[2] = {match4, match6};
    for (int k = 0; k < 2; k++) {
        int fam = k ? 6 : 4;
        if (!match[k])
            continue;
        struct strbuf b = {0};
        if (t->blocks) {
            sb_add(&b, fam == 6 ? "ip6 daddr " : "ip daddr ");
            if (!nft_block_set(&b, t->blocks, fam)) {
                sb_free(&b);
                continue;
            }
            sb_add(&b, " ");
        }
        sb_add(&b, match[k]);
        add(r, fam, t, policy, verdict, sb_text(&b));
        sb_free(&b);
    }
}

/* The same match for both families (it names no address). */
static void for_both(struct nft_rules *r, const struct target *t, const char *policy, const char *verdict,
                     const char *match)
{
    for_target(r, t, policy, verdict, match, match);
}

/* Packet-rate and byte-rate limits {pps_member, bps_member}: a rule for each
 * given ("over" the rate: what exceeds it matches). Returns rules made. */
static int limits(struct nft_rules *r, const struct target *t, const char *policy, const char *match,
                  const json_t *o, const char *bps_member, const char *pps_member)
{
    uint64_t pps = op_rate_value(json_string_value(json_object_get(o, pps_member)) ?: "");
    uint64_t bps = op_rate_value(json_string_value(json_object_get(o, bps_member)) ?: "");
    char text[512];
    int made = 0;
    if (pps) {
        snprintf(text, sizeof text, "%s%slimit rate over %llu/second burst %llu packets", match, *match ? " " : "",
                 (unsigned long long)pps, (unsigned long long)pps);
        for_both(r, t, policy, "drop", text);
        made++;
    }
    if (bps >= 8) {
        snprintf(text, sizeof text, "%s%slimit rate over %llu bytes/second", match, *match ? " " : "",
                 (unsigned long long)(bps / 8));
        for_both(r, t, policy, "drop", text);
        made++;
    }
    return made;
}

/* Source lists {allow_list, block_list} of an OP site or a CP site or host. */
static void lists(struct nft_rules *r, const struct target *t, const json_t *owner)
{
    static const struct {
        const char *member, *policy, *verdict;
    } kinds[] = {{"allow_list", "allow_list", "accept"}, {"block_list", "block_list", "drop"}};
    for (int k = 0; k < 2; k++) {
        const json_t *l = json_object_get(owner, kinds[k].member);
        if (!on(l))
            continue;
        const json_t *ips = json_object_get(l, "source_ips");
        for (int fam = 4; fam <= 6; fam += 2) {
            struct strbuf b = {0};
            sb_add(&b, fam == 6 ? "ip6 saddr " : "ip saddr ");
            if (nft_block_set(&b, ips, fam))
                for_target(r, t, kinds[k].policy, kinds[k].verdict, fam == 4 ? sb_text(&b) : NULL,
                           fam == 6 ? sb_text(&b) : NULL);
            sb_free(&b);
        }
        const json_t *countries = json_object_get(l, "source_countries");
        if (!countries)
            countries = json_object_get(l, "src_countries");
        if (json_array_size(countries))
            note(r, "%s: source countries cannot be expressed (no country data in the kernel)", kinds[k].member);
    }
}

/* Martian sources (less the ranges a site block is in) and land attacks (a
 * source inside the block it is sent to). */
static void bogons(struct nft_rules *r, const struct target *site, const json_t *owner)
{
    const json_t *b = json_object_get(owner, "bogons"), *blocks = json_object_get(owner, "blocks");
    if (on(json_object_get(b, "martian_address"))) {
        const char *const *lists_of[2] = {dp_martians4, dp_martians6};
        for (int k = 0; k < 2; k++) {
            json_t *keep = json_array();
            for (const char *const *m = lists_of[k]; *m; m++) {
                struct cidr mc, bc;
                bool used = false;
                cidr_parse(*m, 0, &mc);
                size_t i;
                json_t *v;
                json_array_foreach (blocks, i, v)
                    if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &bc) == 0 && cidr_overlaps(&mc, &bc))
                        used = true; /* the site uses that range itself */
                if (!used)
                    json_array_append_new(keep, json_string(*m));
            }
            struct strbuf s = {0};
            sb_add(&s, k ? "ip6 saddr " : "ip saddr ");
            if (nft_block_set(&s, keep, k ? 6 : 4))
                for_target(r, site, "bogon", "drop", k ? NULL : sb_text(&s), k ? sb_text(&s) : NULL);
            sb_free(&s);
            json_decref(keep);
        }
    }
    if (on(json_object_get(b, "land_attack"))) {
        size_t i;
        json_t *v;
        json_array_foreach (blocks, i, v) {
            struct cidr c;
            if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) != 0)
                continue;
            char e[NET_TEXT_MAX], text[256];
            element(&c, e);
            bool v6 = family_of(&c) == 6;
            snprintf(text, sizeof text, "%s saddr %s %s daddr %s", v6 ? "ip6" : "ip", e, v6 ? "ip6" : "ip", e);
            for_target(r, site, "bogon", "drop", v6 ? NULL : text, v6 ? text : NULL);
        }
    }
}

/* A flex filter: protocol and ports (payload strings are searched anywhere
 * in the packet, which nftables cannot do). */
static void flex(struct nft_rules *r, const struct target *t, const json_t *f)
{
    const char *name = json_string_value(json_object_get(f, "filter_name")) ?: "";
    const char *action = json_string_value(json_object_get(f, "action")) ?: "";
    if (on(json_object_get(f, "payload_string"))) {
        note(r, "flex filter %s: payload strings cannot be expressed (nftables matches payload only at fixed "
                "offsets); the filter is not rendered",
             name);
        return;
    }
    const json_t *proto = json_object_get(f, "protocol"), *port = json_object_get(f, "port");
    const char *type = on(proto) ? json_string_value(json_object_get(proto, "type")) ?: "" : "";
    struct strbuf ports = {0};
    if (on(port)) {
        size_t i;
        json_t *v;
        json_array_foreach (json_object_get(port, "ports"), i, v)
            sb_printf(&ports, "%s%lld", i ? ", " : "", (long long)json_integer_value(v));
    }
    char m4[1200], m6[1200];
    bool tcp = strcmp(type, "tcp") == 0, udp = strcmp(type, "udp") == 0;
    if (ports.len) {
        const char *l4 = tcp ? "tcp" : udp ? "udp" : "th";
        snprintf(m4, sizeof m4, "%s%s dport { %s }", tcp || udp ? "" : "meta l4proto { tcp, udp } ", l4,
                 sb_text(&ports));
        snprintf(m6, sizeof m6, "%s", m4);
    } else if (tcp || udp) {
        snprintf(m4, sizeof m4, "meta l4proto %s", type);
        snprintf(m6, sizeof m6, "%s", m4);
    } else if (strcmp(type, "icmp") == 0) {
        snprintf(m4, sizeof m4, "meta l4proto icmp");
        snprintf(m6, sizeof m6, "meta l4proto ipv6-icmp");
    } else {
        m4[0] = m6[0] = '\0'; /* protocol ip: every packet toward the host */
    }
    sb_free(&ports);
    if (strcmp(action, "pass") == 0) {
        for_target(r, t, "flex_filter", "accept", m4, m6);
    } else if (strcmp(action, "drop") == 0) {
        for_target(r, t, "flex_filter", "drop", m4, m6);
    } else if (!limits(r, t, "flex_filter", m4, f, "bps_limit", "pps_limit")) {
        note(r, "flex filter %s: a rate-limit without a rate is not rendered", name);
    }
}

/* A UDP flood leaf: a packet length over `size`, or rates, on a port. */
static void udp_leaf(struct nft_rules *r, const struct target *t, const json_t *leaf, const char *port_match)
{
    if (!on(leaf))
        return;
    char match[256];
    const json_t *size = json_object_get(leaf, "size");
    if (size) {
        snprintf(match, sizeof match, "%s meta length > %lld", port_match, (long long)json_integer_value(size));
        for_both(r, t, "udp_flood", "drop", match);
    } else {
        limits(r, t, "udp_flood", port_match, leaf, "bps_limit", "pps_limit");
    }
}

static void udp_flood(struct nft_rules *r, const struct target *t, const json_t *u)
{
    const json_t *dns = json_object_get(u, "dns_flood_amplification"), *ntp = json_object_get(u, "ntp_amplification");
    const json_t *snmp = json_object_get(u, "snmp_amplification"), *ssdp = json_object_get(u, "ssdp_flood");
    if (on(dns)) {
        udp_leaf(r, t, json_object_get(dns, "dns_query_length"), "udp dport 53");
        udp_leaf(r, t, json_object_get(dns, "dns_query_rate_limit"), "udp dport 53");
        udp_leaf(r, t, json_object_get(dns, "dns_response_length"), "udp sport 53");
        udp_leaf(r, t, json_object_get(dns, "dns_response_rate_limit"), "udp sport 53");
    }
    if (on(ntp)) {
        udp_leaf(r, t, json_object_get(ntp, "ntp_response_length"), "udp sport 123");
        udp_leaf(r, t, json_object_get(ntp, "ntp_response_rate_limit"), "udp sport 123");
    }
    if (on(snmp))
        udp_leaf(r, t, json_object_get(snmp, "snmp_response_rate_limit"), "udp sport 161");
    if (on(ssdp) && on(json_object_get(ssdp, "drop_ssdp")))
        for_both(r, t, "udp_flood", "drop", "udp sport 1900");
    if (on(json_object_get(u, "udp_fragmentation")))
        for_target(r, t, "udp_flood", "drop", "ip protocol udp ip frag-off & 0x3fff != 0",
                   "exthdr frag exists meta l4proto udp");
    udp_leaf(r, t, json_object_get(u, "udp_rate_limit"), "meta l4proto udp");
    if (on(json_object_get(u, "no_data_payload")))
        for_both(r, t, "udp_flood", "drop", "udp length 8"); /* a bare UDP header */
    const json_t *zero = json_object_get(u, "zero_data_payload");
    if (on(zero)) {
        json_int_t n = json_integer_value(json_object_get(zero, "zero_payload_length"));
        if (n < 1 || n > ZERO_PAYLOAD_MAX) {
            note(r, "udp flood: zero data payload: nftables compares at most %d payload bytes, not %lld",
                 ZERO_PAYLOAD_MAX, (long long)n);
        } else {
            char match[128];
            snprintf(match, sizeof match, "udp length >= %lld @th,64,%lld 0", (long long)(8 + n), (long long)(8 * n));
            for_both(r, t, "udp_flood", "drop", match);
        }
    }
}

/* Per-source limits: a dynamic set per family keeps each source's limit. */
static void per_source(struct nft_rules *r, const struct target *t, const json_t *z, const char *rid)
{
    uint64_t pps = op_rate_value(json_string_value(json_object_get(z, "threshold_pps")) ?: "");
    uint64_t bps = op_rate_value(json_string_value(json_object_get(z, "threshold_bps")) ?: "");
    const char *action = json_string_value(json_object_get(z, "action")) ?: "";
    bool blacklist = strcmp(action, "blacklist") == 0;
    json_int_t timeout = json_integer_value(json_object_get(z, "blacklist_timeout"));
    if (blacklist && timeout < 1) {
        note(r, "zombie host: a blacklist without a timeout is not rendered");
        return;
    }
    for (int k = 0; k < 2; k++) {
        const char *ip = k ? "ip6" : "ip", *type = k ? "ipv6_addr" : "ipv4_addr";
        char bl[96], m4[512];
        snprintf(bl, sizeof bl, "%s_%s_zbl%d", r->prefix, rid, k ? 6 : 4);
        if (blacklist) {
            char decl[256];
            snprintf(decl, sizeof decl, "set %s { type %s; size 65536; flags dynamic,timeout; timeout %llds; }", bl,
                     type, (long long)timeout);
            json_array_append_new(r->sets, json_string(decl));
            snprintf(m4, sizeof m4, "%s saddr @%s", ip, bl);
            for_target(r, t, "zombie", "drop", k ? NULL : m4, k ? m4 : NULL);
        }
        const struct {
            uint64_t v;
            const char *what;
        } rates[2] = {{pps, "p"}, {bps / 8, "b"}};
        for (int j = 0; j < 2; j++) {
            if (!rates[j].v)
                continue;
            char set[96], decl[256], lim[96];
            snprintf(set, sizeof set, "%s_%s_z%s%d", r->prefix, rid, rates[j].what, k ? 6 : 4);
            snprintf(decl, sizeof decl, "set %s { type %s; size 65536; flags dynamic,timeout; timeout 60s; }", set,
                     type);
            json_array_append_new(r->sets, json_string(decl));
            if (j == 0)
                snprintf(lim, sizeof lim, "%llu/second burst %llu packets", (unsigned long long)rates[j].v,
                         (unsigned long long)rates[j].v);
            else
                snprintf(lim, sizeof lim, "%llu bytes/second", (unsigned long long)rates[j].v);
            int len = snprintf(m4, sizeof m4, "update @%s { %s saddr limit rate over %s }", set, ip, lim);
            if (blacklist)
                snprintf(m4 + len, sizeof m4 - (size_t)len, " add @%s { %s saddr }", bl, ip);
            for_target(r, t, "zombie", "drop", k ? NULL : m4, k ? m4 : NULL);
        }
    }
}

static void zombie(struct nft_rules *r, const struct target *t, const json_t *z, const char *rid)
{
    const json_t *host = json_object_get(z, "zombie_host"), *net = json_object_get(z, "zombie_network");
    if (on(host))
        per_source(r, t, host, rid);
    if (!on(net))
        return;
    const char *action = json_string_value(json_object_get(net, "action")) ?: "";
    if (strcmp(action, "ratelimit") != 0) {
        note(r, "zombie network: only a ratelimit is expressed (a blacklist of every source of the network's "
                "traffic would hold legitimate ones)");
        return;
    }
    limits(r, t, "zombie", "", net, "threshold_bps", "threshold_pps");
}

static void target_of(struct target *t, const json_t *host)
{
    snprintf(t->scope, sizeof t->scope, "h%lld", (long long)json_integer_value(json_object_get(host, "rid")));
    t->blocks = json_array();
    size_t i;
    json_t *v;
    json_array_foreach (json_object_get(host, "blocks"), i, v) {
        struct cidr c;
        char text[NET_TEXT_MAX];
        if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) == 0) {
            cidr_format(&c, text);
            json_array_append_new(t->blocks, json_string(text));
        }
    }
}

void nft_op_rules(struct nft_rules *r, const json_t *site)
{
    struct target all = {.scope = "site"};
    lists(r, &all, site);
    bogons(r, &all, site);
    size_t i, j, k;
    json_t *net, *host, *f;
    json_array_foreach (json_object_get(site, "networks"), i, net) {
        json_array_foreach (json_object_get(net, "hosts"), j, host) {
            struct target t;
            target_of(&t, host);
            json_array_foreach (json_object_get(host, "flex"), k, f)
                flex(r, &t, f);
            udp_flood(r, &t, json_object_get(host, "udp_flood"));
            zombie(r, &t, json_object_get(host, "zombie"), t.scope);
            json_decref(t.blocks);
        }
    }
}

void nft_cp_rules(struct nft_rules *r, const json_t *site)
{
    struct target all = {.scope = "site"};
    lists(r, &all, json_object_get(site, "lists"));
    size_t i;
    json_t *host;
    json_array_foreach (json_object_get(site, "hosts"), i, host) {
        struct target t;
        target_of(&t, host);
        lists(r, &t, json_object_get(host, "lists"));
        json_decref(t.blocks);
    }
}

void nft_rules_finish(struct nft_rules *r)
{
    if (r->left_out)
        note(r, "%d rules over the %d a site may have were left out", r->left_out, NFT_SITE_RULES_MAX);
}
