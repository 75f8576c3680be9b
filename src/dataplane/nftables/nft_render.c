/* nft_render.c — see nft_render.h. */
#include "dataplane/nftables/nft_render.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "base/net.h"
#include "base/strbuf.h"
#include "dataplane/nftables/nft_rules.h"

json_t *nft_render_header(const struct nft_settings *s)
{
    struct strbuf b = {0};
    sb_add(&b, "# " NFT_RULESET ": written by parapet from stored state; edits are overwritten.\n"
               "# One transaction: the table is made (when missing) and emptied of its rules, which are\n"
               "# added again; its counters keep counting (parapet deletes what is no longer rendered).\n");
    sb_printf(&b,
              "table inet %s\nflush table inet %s\ntable inet %s {\n"
              "\tchain scrub {\n\t\ttype filter hook prerouting priority -300; policy accept;\n\t}\n}\n",
              s->table, s->table, s->table);
    char *text = sb_take(&b);
    json_t *out = json_pack("{s:s,s:s,s:s}", NFT_RULESET, text, NFT_COUNTER_MAP,
                            "# counter\taddress\taction\tpolicy_type\tprotocol\n", NFT_OBJECTS, "chain scrub\n");
    free(text);
    return out;
}

/* What one site's fragment is made of while it is written. */
struct site_out {
    const char *prefix;  /* "op_3" */
    json_t *counters;    /* name -> [address, action, policy, protocol], in order of first use */
    struct strbuf chains;
};

/* The first address of the first valid block of a list, as counters.map
 * names it ("" when none is valid). */
static void first_address(const json_t *blocks, char out[NET_TEXT_MAX])
{
    struct cidr c;
    out[0] = '\0';
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)blocks, i, v)
        if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) == 0) {
            ip_format(&c.addr, out);
            return;
        }
}

/* A counter's name; its counters.map entry [address, action, policy,
 * protocol] is made at its first use (a protocol that differs between its
 * rules becomes 0). */
static const char *counter(struct site_out *o, const char *scope, const char *policy, const char *verdict,
                           const char *address, int proto, char name[128])
{
    bool pass = strcmp(verdict, "accept") == 0;
    snprintf(name, 128, "%s_%s_%s%s", o->prefix, scope, policy,
             pass && strcmp(policy, "allow_list") != 0 && strcmp(policy, "pass") != 0 ? "_pass" : "");
    json_t *had = json_object_get(o->counters, name);
    if (!had)
        json_object_set_new(o->counters, name,
                            json_pack("[s,s,s,i]", address, pass ? "pass" : "drop",
                                      strcmp(policy, "pass") == 0 ? "-" : policy, proto));
    else if (json_integer_value(json_array_get(had, 3)) != proto)
        json_array_set_new(had, 3, json_integer(0));
    return name;
}

/* `MATCH counter name "C" VERDICT` into the chain being written. */
static void rule_line(struct site_out *o, const char *match, const char *scope, const char *policy,
                      const char *verdict, const char *address, int proto)
{
    char name[128];
    counter(o, scope, policy, verdict, address, proto, name);
    sb_printf(&o->chains, "\t\t%s%scounter name \"%s\" %s\n", match, *match ? " " : "", name, verdict);
}

/* Where a rule's counter is stored in the site's own chain: the host's
 * first address for a host's rule, else the site's. */
static void rule_address(const json_t *rule, const char *site_address, char out[NET_TEXT_MAX])
{
    const json_t *blocks = json_object_get(rule, "blocks");
    if (blocks)
        first_address(blocks, out);
    else
        snprintf(out, NET_TEXT_MAX, "%s", site_address);
}

/* Does a rule apply to traffic toward `target` (a block of its family)? */
static bool applies(const json_t *rule, const struct cidr *target)
{
    if ((int)json_integer_value(json_object_get(rule, "fam")) != (target->addr.family == NET_V6 ? 6 : 4))
        return false;
    const json_t *blocks = json_object_get(rule, "blocks");
    if (!blocks)
        return true;
    size_t i;
    json_t *v;
    json_array_foreach (blocks, i, v) {
        struct cidr c;
        if (cidr_parse(json_string_value(v), 0, &c) == 0 && cidr_overlaps(&c, target))
            return true;
    }
    return false;
}

/* The addresses under attack: {"<block>": "divert" | "blackhole"} inside the
 * site's blocks (a blackhole wins), and the CleanPipe hosts blackholed by
 * their manual mode 3 (their blocks, as "blackhole-host <rid>"). */
static json_t *attacked(const json_t *site)
{
    json_t *out = json_object();
    const json_t *blocks = json_object_get(site, "blocks");
    size_t i, j;
    json_t *e, *b;
    json_array_foreach (json_object_get(site, "events"), i, e) {
        struct cidr c, sb;
        const char *how = json_string_value(json_object_get(e, "severity")) ?: "divert";
        if (cidr_parse(json_string_value(json_object_get(e, "site_ip")), CIDR_ALLOW_BARE, &c) != 0)
            continue;
        bool inside = false;
        json_array_foreach (blocks, j, b)
            if (cidr_parse(json_string_value(b), CIDR_ALLOW_BARE, &sb) == 0 && cidr_contains(&sb, &c))
                inside = true;
        if (!inside)
            continue; /* not this site's to drop */
        char text[NET_TEXT_MAX];
        cidr_format(&c, text);
        const char *had = json_string_value(json_object_get(out, text));
        if (!had || strcmp(how, "blackhole") == 0)
            json_object_set_new(out, text, json_string(strcmp(how, "blackhole") == 0 ? "blackhole" : "divert"));
    }
    return out;
}

static void scope_of_block(const char *block, char scope[16])
{
    char digest[65];
    sha256_hex(block, digest);
    snprintf(scope, 16, "e%.8s", digest);
}

static void element_of(const struct cidr *c, char out[NET_TEXT_MAX])
{
    if (c->prefix == (c->addr.family == NET_V6 ? 128 : 32))
        ip_format(&c->addr, out);
    else
        cidr_format(c, out);
}

/* Drops toward blackholed addresses: events, then CleanPipe hosts. */
static void blackholes(struct site_out *o, const json_t *under, const json_t *site, bool cp)
{
    const char *block, *how;
    json_t *v;
    json_object_foreach ((json_t *)under, block, v) {
        how = json_string_value(v);
        if (strcmp(how, "blackhole") != 0)
            continue;
        struct cidr c;
        cidr_parse(block, 0, &c);
        char scope[16], e[NET_TEXT_MAX], match[128], address[NET_TEXT_MAX];
        scope_of_block(block, scope);
        element_of(&c, e);
        ip_format(&c.addr, address);
        snprintf(match, sizeof match, "%s daddr %s", c.addr.family == NET_V6 ? "ip6" : "ip", e);
        rule_line(o, match, scope, "blackhole", "drop", address, 0);
    }
    if (!cp)
        return;
    size_t i;
    json_t *host;
    json_array_foreach (json_object_get(site, "hosts"), i, host) {
        const json_t *p = json_object_get(host, "policy");
        if (!json_integer_value(json_object_get(p, "is_customize")) ||
            json_integer_value(json_object_get(json_object_get(p, "manual"), "mode")) != 3)
            continue;
        char scope[32], address[NET_TEXT_MAX];
        snprintf(scope, sizeof scope, "h%lld", (long long)json_integer_value(json_object_get(host, "rid")));
        first_address(json_object_get(host, "blocks"), address);
        for (int fam = 4; fam <= 6; fam += 2) {
            struct strbuf m = {0};
            sb_add(&m, fam == 6 ? "ip6 daddr " : "ip daddr ");
            if (nft_block_set(&m, json_object_get(host, "blocks"), fam))
                rule_line(o, sb_text(&m), scope, "blackhole", "drop", address, 0);
            sb_free(&m);
        }
    }
}

/* The chain of an address under attack: the rules that apply to it, its
 * counters stored under it, then what is left passes (and is counted). */
static void event_chain(struct site_out *o, const json_t *rules, const char *block)
{
    struct cidr c;
    cidr_parse(block, 0, &c);
    char scope[16], address[NET_TEXT_MAX];
    scope_of_block(block, scope);
    ip_format(&c.addr, address);
    sb_printf(&o->chains, "\tchain %s_%s {\n", o->prefix, scope);
    size_t i;
    json_t *rule;
    json_array_foreach ((json_t *)rules, i, rule)
        if (applies(rule, &c))
            rule_line(o, json_string_value(json_object_get(rule, "match")), scope,
                      json_string_value(json_object_get(rule, "policy")),
                      json_string_value(json_object_get(rule, "verdict")), address,
                      (int)json_integer_value(json_object_get(rule, "proto")));
    rule_line(o, "", scope, "pass", "accept", address, 0);
    sb_add(&o->chains, "\t}\n");
}

/* What passes toward a host's (kind 'h') or a network's ('n') blocks is
 * counted apart and stored under its first address, so that the passed
 * traffic of an event's holder is known (active_mitigation's clean); hosts
 * first, as the most specific holder. */
static void holder_pass(struct site_out *o, const json_t *holder, char kind)
{
    char scope[32], address[NET_TEXT_MAX];
    const json_t *blocks = json_object_get(holder, "blocks");
    snprintf(scope, sizeof scope, "%c%lld", kind, (long long)json_integer_value(json_object_get(holder, "rid")));
    first_address(blocks, address);
    for (int fam = 4; fam <= 6; fam += 2) {
        struct strbuf m = {0};
        sb_add(&m, fam == 6 ? "ip6 daddr " : "ip daddr ");
        if (nft_block_set(&m, blocks, fam))
            rule_line(o, sb_text(&m), scope, "pass", "accept", address, 0);
        sb_free(&m);
    }
}

static void site_chain(struct site_out *o, const json_t *rules, const json_t *under, const json_t *site, bool cp,
                       const char *site_address)
{
    sb_printf(&o->chains, "\tchain %s {\n", o->prefix);
    blackholes(o, under, site, cp);
    const char *block;
    json_t *v;
    json_object_foreach ((json_t *)under, block, v) {
        if (strcmp(json_string_value(v), "divert") != 0)
            continue;
        struct cidr c;
        cidr_parse(block, 0, &c);
        char scope[16], e[NET_TEXT_MAX];
        scope_of_block(block, scope);
        element_of(&c, e);
        sb_printf(&o->chains, "\t\t%s daddr %s jump %s_%s\n", c.addr.family == NET_V6 ? "ip6" : "ip", e, o->prefix,
                  scope);
    }
    size_t i;
    json_t *rule;
    json_array_foreach ((json_t *)rules, i, rule) {
        char address[NET_TEXT_MAX];
        rule_address(rule, site_address, address);
        rule_line(o, json_string_value(json_object_get(rule, "match")),
                  json_string_value(json_object_get(rule, "scope")), json_string_value(json_object_get(rule, "policy")),
                  json_string_value(json_object_get(rule, "verdict")), address,
                  (int)json_integer_value(json_object_get(rule, "proto")));
    }
    if (cp) {
        json_array_foreach (json_object_get(site, "hosts"), i, v)
            holder_pass(o, v, 'h');
    } else {
        json_t *net, *host;
        size_t j;
        json_array_foreach (json_object_get(site, "networks"), i, net)
            json_array_foreach (json_object_get(net, "hosts"), j, host)
                holder_pass(o, host, 'h');
        json_array_foreach (json_object_get(site, "networks"), i, net)
            holder_pass(o, net, 'n');
    }
    char name[128];
    counter(o, "site", "pass", "accept", site_address, 0, name);
    sb_printf(&o->chains, "\t\tcounter name \"%s\"\n\t}\n", name);
    json_object_foreach ((json_t *)under, block, v)
        if (strcmp(json_string_value(v), "divert") == 0)
            event_chain(o, rules, block);
}

json_t *nft_render_site(const struct nft_settings *s, const json_t *site, const char *family, json_t *notes)
{
    bool cp = strcmp(family, "cp") == 0;
    const json_t *blocks = json_object_get(site, "blocks");
    struct strbuf jumps = {0};
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s_%lld", cp ? "cp" : "op", (long long)json_integer_value(json_object_get(site, "rid")));
    for (int fam = 4; fam <= 6; fam += 2) {
        struct strbuf set = {0};
        if (nft_block_set(&set, blocks, fam))
            sb_printf(&jumps, "add rule inet %s scrub %s daddr %s jump %s\n", s->table, fam == 6 ? "ip6" : "ip",
                      sb_text(&set), prefix);
        sb_free(&set);
    }
    if (!jumps.len) { /* no blocks: nothing reaches the site */
        sb_free(&jumps);
        return json_pack("{s:s,s:s,s:s}", NFT_RULESET, "", NFT_COUNTER_MAP, "", NFT_OBJECTS, "");
    }
    struct nft_rules r = {.prefix = prefix, .rules = json_array(), .sets = json_array(), .notes = notes};
    if (cp)
        nft_cp_rules(&r, site);
    else
        nft_op_rules(&r, site);
    nft_rules_finish(&r);
    char site_address[NET_TEXT_MAX];
    first_address(blocks, site_address);
    json_t *under = attacked(site);
    struct site_out o = {.prefix = prefix, .counters = json_object()};
    site_chain(&o, r.rules, under, site, cp, site_address);
    struct strbuf text = {0}, map = {0}, objects = {0};
    sb_printf(&text, "# %s site ", family);
    for (const char *c = json_string_value(json_object_get(site, "id")) ?: ""; *c; c++) /* a comment: one line */
        sb_printf(&text, "%c", *c >= 0x20 && *c < 0x7f ? *c : '?'); /* (signed char: not above 0x7f) */
    sb_printf(&text, "\ntable inet %s {\n", s->table);
    const char *name;
    json_t *v;
    json_object_foreach (o.counters, name, v) {
        sb_printf(&text, "\tcounter %s { }\n", name);
        sb_printf(&objects, "counter %s\n", name);
        sb_printf(&map, "%s\t%s\t%s\t%s\t%lld\n", name, json_string_value(json_array_get(v, 0)),
                  json_string_value(json_array_get(v, 1)), json_string_value(json_array_get(v, 2)),
                  (long long)json_integer_value(json_array_get(v, 3)));
    }
    size_t i;
    json_array_foreach (r.sets, i, v) {
        char set[128];
        sb_printf(&text, "\t%s\n", json_string_value(v));
        if (sscanf(json_string_value(v), "set %127s", set) == 1)
            sb_printf(&objects, "set %s\n", set);
    }
    sb_printf(&objects, "chain %s\n", prefix);
    const char *block;
    json_object_foreach (under, block, v)
        if (strcmp(json_string_value(v), "divert") == 0) {
            char scope[16];
            scope_of_block(block, scope);
            sb_printf(&objects, "chain %s_%s\n", prefix, scope);
        }
    sb_printf(&text, "%s}\n%s", sb_text(&o.chains), sb_text(&jumps));
    json_t *out = json_pack("{s:s,s:s,s:s}", NFT_RULESET, sb_text(&text), NFT_COUNTER_MAP, sb_text(&map), NFT_OBJECTS,
                            sb_text(&objects));
    sb_free(&text), sb_free(&map), sb_free(&objects), sb_free(&o.chains), sb_free(&jumps);
    json_decref(o.counters), json_decref(under), json_decref(r.rules), json_decref(r.sets);
    return out;
}
