/* fuzz_nft_render.c — nft_render_site (the nftables scrubber) on an Origin
 * Protection or CleanPipe site whose stored values are arbitrary (as if
 * they had reached the store some other way than through the API): the
 * site's id, the blocks of the site, a network and a host, an ongoing
 * event's address, the allow and block lists' sources, a flex filter's
 * port and protocol, a UDP flood length, zombie rates and a blacklist
 * timeout. Input: a flag byte, then NUL-separated values.
 *
 * Invariants, from a re-parse of the three files: every line of the
 * ruleset is a comment of printable characters, or tokens each of which is
 * one of nftables' words parapet writes, a number, a canonical address or
 * block, or a name parapet makes (`op_3_h5_pass`, quoted after `name`, `@`
 * before a set); braces balance per line except the table's and chains'
 * opening and closing lines, which nest as table > chain; every counter a
 * rule names is declared, listed in counters.map and objects.list, and every
 * counters.map line is `name TAB address TAB drop|pass TAB policy TAB
 * protocol` with a canonical address. So no stored value can end a line, a
 * set, a rule, a chain or the table, or name an object of its own. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "dataplane/nftables/nft_render.h"
#include "fuzz_assert.h"
#include "fuzz_slots.h"

enum { SLOTS = 12 };

static const char *const WORDS[] = {
    "table", "inet", "flush", "chain", "type", "filter", "hook", "prerouting", "priority", "-300", "policy",
    "accept", "counter", "name", "drop", "jump", "add", "rule", "ip", "ip6", "saddr", "daddr", "dport", "sport",
    "meta", "length", "l4proto", "udp", "tcp", "icmp", "ipv6-icmp", "th", "limit", "rate", "over", "bytes/second",
    "packets", "burst", "set", "size", "flags", "dynamic,timeout", "timeout", "exthdr", "frag", "exists", "protocol",
    "frag-off", "&", "0x3fff", "!=", "update", ">", ">=", "ipv4_addr", "ipv6_addr", "scrub", "parapet", NULL};

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* A name parapet makes: op_N or cp_N then _[a-z0-9]+ parts. */
static bool made_name(const char *s)
{
    if (strncmp(s, "op_", 3) != 0 && strncmp(s, "cp_", 3) != 0)
        return false;
    for (const char *c = s + 3; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return false;
    return true;
}

static bool canonical_address(const char *t)
{
    struct cidr c;
    char back[NET_TEXT_MAX];
    if (cidr_parse(t, CIDR_ALLOW_BARE, &c) != 0)
        return false;
    if (strchr(t, '/'))
        cidr_format(&c, back);
    else
        ip_format(&c.addr, back);
    return strcmp(back, t) == 0;
}

static void token(const char *t, json_t *named)
{
    size_t n = strlen(t);
    for (const char *const *w = WORDS; *w; w++)
        if (!strcmp(*w, t))
            return;
    if (all_digits(t, n) || (t[0] == '-' && all_digits(t + 1, n - 1))) /* (a negative one nft refuses) */
        return;
    if (n > 7 && !strcmp(t + n - 7, "/second") && all_digits(t, n - 7)) /* a packet rate */
        return;
    if (n > 1 && t[n - 1] == 's' && all_digits(t, n - 1)) /* a set's timeout */
        return;
    if (!strncmp(t, "@th,64,", 7) && all_digits(t + 7, n - 7))
        return;
    if (t[0] == '@') { /* a set */
        FUZZ_ASSERT(made_name(t + 1));
        return;
    }
    if (t[0] == '"') { /* a counter's name */
        FUZZ_ASSERT(n > 2 && t[n - 1] == '"');
        char name[256];
        FUZZ_ASSERT(n - 2 < sizeof name);
        memcpy(name, t + 1, n - 2);
        name[n - 2] = '\0';
        FUZZ_ASSERT(made_name(name));
        json_object_set_new(named, name, json_true());
        return;
    }
    if (made_name(t) || !strcmp(t, "scrub"))
        return;
    FUZZ_ASSERT(canonical_address(t));
}

/* One line of the ruleset; *depth is 0 outside the table, 1 in it, 2 in a chain. */
static void ruleset_line(char *line, int *depth, json_t *named, json_t *declared)
{
    if (line[0] == '#') {
        for (const char *c = line; *c; c++)
            FUZZ_ASSERT((unsigned char)*c >= 0x20 && *c != 0x7f);
        return;
    }
    char *p = line;
    while (*p == '\t')
        p++;
    if (!strcmp(p, "}")) {
        FUZZ_ASSERT(*depth > 0);
        (*depth)--;
        return;
    }
    size_t n = strlen(p);
    bool opens = n >= 2 && !strcmp(p + n - 2, " {") && (!strncmp(p, "table ", 6) || !strncmp(p, "chain ", 6));
    if (opens) {
        FUZZ_ASSERT(!strncmp(p, "table inet parapet {", n) ? *depth == 0 : *depth == 1);
        p[n - 2] = '\0';
    }
    if (!strncmp(p, "counter ", 8) && *depth == 1) {
        char name[256];
        FUZZ_ASSERT(sscanf(p, "counter %255s", name) == 1 && made_name(name));
        FUZZ_ASSERT(!strcmp(p + 8 + strlen(name), " { }"));
        json_object_set_new(declared, name, json_true());
        return;
    }
    /* tokens: braces, commas and semicolons apart */
    int braces = 0;
    char tok[512];
    size_t k = 0;
    for (const char *c = p;; c++) {
        bool sep = *c == '\0' || *c == ' ' || *c == '{' || *c == '}' || *c == ',' || *c == ';';
        if (sep && !(*c == ',' && k > 0 && (!strcmp(tok, "dynamic") || !strncmp(tok, "@th", 3)))) {
            if (k) {
                tok[k] = '\0';
                token(tok, named);
                k = 0;
            }
            if (*c == '{')
                braces++;
            if (*c == '}')
                FUZZ_ASSERT(--braces >= 0);
            if (!*c)
                break;
            continue;
        }
        FUZZ_ASSERT((unsigned char)*c > 0x20 && *c != 0x7f && k + 1 < sizeof tok);
        tok[k++] = *c;
        tok[k] = '\0';
    }
    FUZZ_ASSERT(braces == 0);
    if (opens)
        (*depth)++;
    else
        FUZZ_ASSERT(*depth == 2 || (*depth == 1 && !strncmp(p, "set ", 4)) ||
                    (*depth == 0 && (!strncmp(p, "add rule inet parapet scrub ", 28) ||
                                     !strcmp(p, "table inet parapet") || !strcmp(p, "flush table inet parapet"))));
}

static void check_site(const json_t *out)
{
    const char *rules = json_string_value(json_object_get(out, NFT_RULESET));
    const char *map = json_string_value(json_object_get(out, NFT_COUNTER_MAP));
    const char *objects = json_string_value(json_object_get(out, NFT_OBJECTS));
    FUZZ_ASSERT(rules && map && objects);
    json_t *named = json_object(), *declared = json_object(), *mapped = json_object(), *listed = json_object();
    int depth = 0;
    char *copy = strdup(rules), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        ruleset_line(line, &depth, named, declared);
    FUZZ_ASSERT(depth == 0);
    free(copy);
    copy = strdup(map);
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') /* the header's */
            continue;
        char *f[6] = {0};
        int nf = 0;
        for (char *c = line; nf < 6; nf++) {
            f[nf] = c;
            c = strchr(c, '\t');
            if (!c) {
                nf++;
                break;
            }
            *c++ = '\0';
        }
        FUZZ_ASSERT(nf == 5 && made_name(f[0]) && canonical_address(f[1]));
        FUZZ_ASSERT(!strcmp(f[2], "drop") || !strcmp(f[2], "pass"));
        for (const char *c = f[3]; *c; c++)
            FUZZ_ASSERT((*c >= 'a' && *c <= 'z') || *c == '_' || *c == '-');
        FUZZ_ASSERT(all_digits(f[4], strlen(f[4])) && atoi(f[4]) <= 255);
        json_object_set_new(mapped, f[0], json_true());
    }
    free(copy);
    copy = strdup(objects);
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char kind[16], name[256];
        FUZZ_ASSERT(sscanf(line, "%15s %255s", kind, name) == 2 && (made_name(name) || !strcmp(name, "scrub")));
        FUZZ_ASSERT(!strcmp(kind, "chain") || !strcmp(kind, "counter") || !strcmp(kind, "set"));
        FUZZ_ASSERT(strlen(kind) + 1 + strlen(name) == strlen(line));
        if (!strcmp(kind, "counter"))
            json_object_set_new(listed, name, json_true());
    }
    free(copy);
    FUZZ_ASSERT(json_equal(declared, mapped) && json_equal(declared, listed));
    const char *name;
    json_t *v;
    json_object_foreach (named, name, v)
        FUZZ_ASSERT(json_object_get(declared, name));
    json_decref(named), json_decref(declared), json_decref(mapped), json_decref(listed);
}

static json_int_t number(const json_t *v)
{
    return (json_int_t)strtoll(json_string_value(v) ?: "", NULL, 10);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    unsigned flags = data[0];
    json_t *v[SLOTS];
    fuzz_slots(data + 1, size - 1, v, SLOTS);
    /* slots: id, site block, network block, host block, event address,
     * block list source, allow list source, flex port, flex protocol, UDP
     * flood size, zombie rate (pps and bps), blacklist timeout */
    json_t *lists = json_pack("{s:{s:i,s:[O]},s:{s:i,s:[O,s]}}", "allow_list", "is_enabled", 1, "source_ips", v[6],
                              "block_list", "is_enabled", 1, "source_ips", v[5], "2001:db8::/32");
    json_t *flex = json_pack("[{s:s,s:s,s:s,s:O,s:{s:i,s:O},s:{s:i,s:[I,I]},s:{s:i}}]", "id", "f1", "filter_name",
                             "f", "action", flags & 1 ? "drop" : flags & 2 ? "pass" : "rate-limit", "pps_limit", v[10],
                             "protocol", "is_enabled", 1, "type", v[8], "port", "is_enabled", 1, "ports", number(v[7]),
                             (json_int_t)53, "payload_string", "is_enabled", 0);
    json_t *udp = json_pack("{s:{s:i,s:{s:i,s:I}},s:i,s:{s:i,s:I}}", "ntp_amplification", "is_enabled", 1,
                            "ntp_response_length", "is_enabled", 1, "size", number(v[9]), "udp_fragmentation",
                            (int)((flags >> 2) & 1), "zero_data_payload", "is_enabled", 1, "zero_payload_length",
                            number(v[9]));
    json_t *zombie = json_pack("{s:{s:i,s:O,s:O,s:s,s:I},s:{s:i,s:s,s:O,s:O}}", "zombie_host", "is_enabled", 1,
                               "threshold_pps", v[10], "threshold_bps", v[10], "action",
                               flags & 8 ? "blacklist" : "ratelimit", "blacklist_timeout", number(v[11]),
                               "zombie_network", "is_enabled", 1, "action", "ratelimit", "threshold_bps", v[10],
                               "threshold_pps", v[10]);
    json_t *host = json_pack("{s:i,s:s,s:[O],s:o,s:o,s:o,s:O,s:{s:i,s:{s:i}}}", "rid", 5, "id", "h1", "blocks", v[3],
                             "flex", flex, "udp_flood", udp, "zombie", zombie, "lists", lists, "policy",
                             "is_customize", (int)((flags >> 4) & 1), "manual", "mode", flags & 32 ? 3 : 1);
    json_t *site;
    bool cp = flags & 64;
    if (cp)
        site = json_pack("{s:i,s:O,s:[O,O],s:O,s:[o],s:[{s:s,s:O,s:s}]}", "rid", 2, "id", v[0], "blocks", v[1], v[2],
                         "lists", lists, "hosts", host, "events", "alert_id", "e1", "site_ip", v[4], "severity",
                         flags & 128 ? "blackhole" : "divert");
    else
        site = json_pack("{s:i,s:O,s:[O],s:o,s:{s:i,s:[O]},s:{s:{s:i},s:{s:i}},s:[{s:i,s:s,s:[O],s:[o]}],"
                         "s:[{s:s,s:O,s:s}]}",
                         "rid", 3, "id", v[0], "blocks", v[1], "block_list",
                         json_pack("{s:i,s:[O]}", "is_enabled", 1, "source_ips", v[5]), "allow_list", "is_enabled",
                         1, "source_ips", v[6], "bogons", "land_attack", "is_enabled", (int)((flags >> 2) & 1),
                         "martian_address", "is_enabled", (int)((flags >> 3) & 1), "networks", "rid", 4, "id", "n1",
                         "blocks", v[2], "hosts", host, "events", "alert_id", "e1", "site_ip", v[4], "severity",
                         flags & 128 ? "blackhole" : "divert");
    FUZZ_ASSERT(site);
    static const struct nft_settings s = {.table = "parapet"};
    json_t *notes = json_array();
    json_t *out = nft_render_site(&s, site, cp ? "cp" : "op", notes);
    check_site(out);
    json_t *head = nft_render_header(&s);
    check_site(head);
    json_decref(head);
    json_decref(out);
    json_decref(notes);
    json_decref(site);
    json_decref(lists);
    fuzz_slots_free(v, SLOTS);
    return 0;
}
