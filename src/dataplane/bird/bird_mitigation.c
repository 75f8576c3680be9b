/* bird_mitigation.c — see bird_mitigation.h. Every rule's destination is a
 * block of the level it protects (site, host): a FlowSpec rule without dst
 * passes `bird -p` but is invalid, and would match other customers. */
#include "dataplane/bird/bird_mitigation.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api/op/op_mitigation.h"
#include "base/net.h"
#include "dataplane/bird/bird_flow.h"
#include "dataplane/bogons.h"
#include "dataplane/notes.h"

enum { PROTO_TCP = 6, PROTO_UDP = 17 };

/* A note in the deploy state (notes.h). */
#define note(r, ...) dataplane_note((r)->notes, "bird", __VA_ARGS__)

static void add(struct bird_rules *r, const struct bird_flow *f)
{
    if (r->count >= r->max) {
        r->left_out++;
        return;
    }
    char why[256];
    struct bird_flow one = *f;
    if (one.comment && r->last_comment && strcmp(one.comment, r->last_comment) == 0)
        one.comment = NULL; /* one comment line above a run of rules of one purpose */
    if (bird_flow_write(strchr(f->dst, ':') ? r->v6 : r->v4, &one, why, sizeof why) != 0) {
        note(r, "%s: not expressible: %s", f->comment, why);
        return;
    }
    r->count++;
    snprintf(r->last_comment_buf, sizeof r->last_comment_buf, "%s", f->comment ? f->comment : "");
    r->last_comment = r->last_comment_buf;
}

void bird_rules_finish(struct bird_rules *r)
{
    if (r->left_out)
        note(r, "%d FlowSpec rules over the %d a site may have were left out", r->left_out, r->max);
}

/* Canonical block text of an address or block; "" when it is neither. */
static const char *canonical(const char *text, char out[NET_TEXT_MAX])
{
    struct cidr c;
    out[0] = '\0';
    if (text && cidr_parse(text, CIDR_ALLOW_BARE, &c) == 0)
        cidr_format(&c, out);
    return out;
}

static bool overlaps(const char *a, const char *b)
{
    struct cidr x, y;
    return cidr_parse(a, 0, &x) == 0 && cidr_parse(b, 0, &y) == 0 && cidr_overlaps(&x, &y);
}

static bool same_family(const char *a, const char *b)
{
    return (strchr(a, ':') != NULL) == (strchr(b, ':') != NULL);
}

/* `base` (its match and action) once for every destination block;
 * martian: base.src is a bogon range, left out where it meets the block. */
static void for_blocks_(struct bird_rules *r, const json_t *blocks, struct bird_flow base, bool martian)
{
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)blocks, i, v) {
        char dst[NET_TEXT_MAX];
        if (!*canonical(json_string_value(v), dst) || (base.src && !same_family(base.src, dst)))
            continue;
        if (martian && overlaps(base.src, dst))
            continue; /* the site uses that range itself */
        base.dst = dst;
        add(r, &base);
    }
}

static void for_blocks(struct bird_rules *r, const json_t *blocks, struct bird_flow base)
{
    for_blocks_(r, blocks, base, false);
}

static json_int_t on(const json_t *o)
{
    return json_integer_value(json_object_get(o, "is_enabled"));
}

/* A rate limit {bps_limit, pps_limit} as a traffic-rate in bytes/s; -1 when
 * only a packet rate is given (FlowSpec rates are bytes per second). */
static double rate_of(const json_t *limits, const char *bps_member)
{
    uint64_t bps = op_rate_value(json_string_value(json_object_get(limits, bps_member)) ?: "");
    return bps ? (double)bps / 8 : -1;
}

/* lists_owner holds {allow_list, block_list}: an OP site, a CP site's or
 * host's "lists". */
static void block_list(struct bird_rules *r, const json_t *lists_owner, const json_t *blocks)
{
    const json_t *bl = json_object_get(lists_owner, "block_list");
    const json_t *al = json_object_get(lists_owner, "allow_list");
    if (on(al))
        note(r, "the allow list cannot be expressed (FlowSpec has no exemption); it is not enforced by the data plane");
    if (!on(bl))
        return;
    size_t i;
    json_t *v;
    json_array_foreach (json_object_get(bl, "source_ips"), i, v) {
        char src[NET_TEXT_MAX];
        if (*canonical(json_string_value(v), src))
            for_blocks(r, blocks, (struct bird_flow){.src = src, .proto = -1, .comment = "block list"});
    }
    const json_t *countries = json_object_get(bl, "source_countries");
    if (!countries)
        countries = json_object_get(bl, "src_countries");
    if (json_array_size(countries))
        note(r, "block list: source countries cannot be expressed in FlowSpec");
}

static void bogons(struct bird_rules *r, const json_t *site)
{
    const json_t *b = json_object_get(site, "bogons"), *blocks = json_object_get(site, "blocks");
    if (on(json_object_get(b, "martian_address"))) {
        for (const char *const *m = dp_martians4; *m; m++)
            for_blocks_(r, blocks, (struct bird_flow){.src = *m, .proto = -1, .comment = "bogons: martian sources"}, true);
        for (const char *const *m = dp_martians6; *m; m++)
            for_blocks_(r, blocks, (struct bird_flow){.src = *m, .proto = -1, .comment = "bogons: martian sources"}, true);
    }
    if (on(json_object_get(b, "land_attack"))) { /* a source inside the block it is sent to */
        size_t i;
        json_t *v;
        json_array_foreach (blocks, i, v) {
            char block[NET_TEXT_MAX];
            if (*canonical(json_string_value(v), block))
                add(r, &(struct bird_flow){.dst = block, .src = block, .proto = -1, .comment = "bogons: land attack"});
        }
    }
}

/* A flex filter: protocol and ports only (FlowSpec cannot match payload). */
static void flex(struct bird_rules *r, const json_t *f, const json_t *blocks)
{
    const char *name = json_string_value(json_object_get(f, "filter_name")) ?: "";
    const char *action = json_string_value(json_object_get(f, "action")) ?: "";
    if (strcmp(action, "pass") == 0)
        return; /* passing is what happens without a rule */
    if (on(json_object_get(f, "payload_string"))) {
        note(r, "flex filter %s: payload strings cannot be expressed in FlowSpec; the filter is not rendered", name);
        return;
    }
    struct bird_flow base = {.proto = -1};
    const json_t *proto = json_object_get(f, "protocol");
    const char *type = json_string_value(json_object_get(proto, "type")) ?: "";
    if (on(proto))
        base.proto = strcmp(type, "tcp") == 0 ? PROTO_TCP : strcmp(type, "udp") == 0 ? PROTO_UDP : -1;
    char ports[512] = "";
    const json_t *port = json_object_get(f, "port");
    if (on(port)) {
        size_t i;
        json_t *v;
        json_array_foreach (json_object_get(port, "ports"), i, v) {
            size_t len = strlen(ports);
            snprintf(ports + len, sizeof ports - len, "%s%lld", len ? "," : "", (long long)json_integer_value(v));
        }
        if (*ports && base.proto < 0) {
            note(r, "flex filter %s: ports need protocol tcp or udp in FlowSpec; the filter is not rendered", name);
            return;
        }
        base.dport = *ports ? ports : NULL;
    }
    if (strcmp(action, "rate-limit") == 0) {
        base.rate_bytes = rate_of(f, "bps_limit");
        if (base.rate_bytes < 0) {
            note(r, "flex filter %s: a packet rate limit cannot be expressed in FlowSpec (bytes/s only)", name);
            return;
        }
    }
    char comment[128];
    snprintf(comment, sizeof comment, "flex filter %s", json_string_value(json_object_get(f, "id")) ?: name);
    base.comment = comment;
    for_blocks(r, blocks, base);
}

/* One UDP flood rule: a length above `size` or a rate on a well-known port. */
static void udp_leaf(struct bird_rules *r, const json_t *leaf, const json_t *blocks, const char *what, int sport,
                     int dport)
{
    if (!on(leaf))
        return;
    char sp[8], dp[8];
    snprintf(sp, sizeof sp, "%d", sport), snprintf(dp, sizeof dp, "%d", dport);
    struct bird_flow f = {.proto = PROTO_UDP, .sport = sport ? sp : NULL, .dport = dport ? dp : NULL, .comment = what};
    const json_t *size = json_object_get(leaf, "size");
    if (size) {
        f.length_min = (int)json_integer_value(size) + 1;
    } else if (json_object_get(leaf, "bps_limit")) {
        f.rate_bytes = rate_of(leaf, "bps_limit");
        if (f.rate_bytes < 0) {
            note(r, "%s: a packet rate limit cannot be expressed in FlowSpec (bytes/s only)", what);
            return;
        }
    }
    for_blocks(r, blocks, f);
}

static void udp_flood(struct bird_rules *r, const json_t *u, const json_t *blocks)
{
    const json_t *dns = json_object_get(u, "dns_flood_amplification"), *ntp = json_object_get(u, "ntp_amplification");
    const json_t *snmp = json_object_get(u, "snmp_amplification"), *ssdp = json_object_get(u, "ssdp_flood");
    if (on(dns)) {
        udp_leaf(r, json_object_get(dns, "dns_query_length"), blocks, "udp flood: dns query length", 0, 53);
        udp_leaf(r, json_object_get(dns, "dns_query_rate_limit"), blocks, "udp flood: dns query rate", 0, 53);
        udp_leaf(r, json_object_get(dns, "dns_response_length"), blocks, "udp flood: dns response length", 53, 0);
        udp_leaf(r, json_object_get(dns, "dns_response_rate_limit"), blocks, "udp flood: dns response rate", 53, 0);
    }
    if (on(ntp)) {
        udp_leaf(r, json_object_get(ntp, "ntp_response_length"), blocks, "udp flood: ntp response length", 123, 0);
        udp_leaf(r, json_object_get(ntp, "ntp_response_rate_limit"), blocks, "udp flood: ntp response rate", 123, 0);
    }
    if (on(snmp))
        udp_leaf(r, json_object_get(snmp, "snmp_response_rate_limit"), blocks, "udp flood: snmp response rate", 161,
                 0);
    if (on(ssdp) && on(json_object_get(ssdp, "drop_ssdp")))
        for_blocks(r, blocks,
                   (struct bird_flow){.proto = PROTO_UDP, .sport = "1900", .comment = "udp flood: ssdp"});
    if (on(json_object_get(u, "udp_fragmentation")))
        for_blocks(r, blocks,
                   (struct bird_flow){.proto = PROTO_UDP, .fragment = true, .comment = "udp flood: fragments"});
    udp_leaf(r, json_object_get(u, "udp_rate_limit"), blocks, "udp flood: udp rate", 0, 0);
    if (on(json_object_get(u, "no_data_payload"))) { /* an IP header and a bare UDP header */
        size_t i;
        json_t *v;
        json_array_foreach ((json_t *)blocks, i, v) {
            char dst[NET_TEXT_MAX];
            if (!*canonical(json_string_value(v), dst))
                continue;
            int len = strchr(dst, ':') ? 48 : 28;
            add(r, &(struct bird_flow){.dst = dst, .proto = PROTO_UDP, .length_min = len, .length_max = len,
                                       .comment = "udp flood: no data payload"});
        }
    }
    if (on(json_object_get(u, "zero_data_payload")))
        note(r, "udp flood: zero data payload matches payload bytes, which FlowSpec cannot express");
}

static void zombie(struct bird_rules *r, const json_t *z, const json_t *blocks)
{
    const json_t *net = json_object_get(z, "zombie_network");
    if (on(json_object_get(z, "zombie_host")))
        note(r, "zombie host: a per-source limit cannot be expressed in FlowSpec (its rates are aggregate)");
    if (!on(net))
        return;
    const char *action = json_string_value(json_object_get(net, "action")) ?: "";
    double rate = rate_of(net, "threshold_bps");
    if (strcmp(action, "ratelimit") != 0 || rate < 0) {
        note(r, "zombie network: only a ratelimit with threshold_bps is expressed in FlowSpec");
        return;
    }
    for_blocks(r, blocks, (struct bird_flow){.proto = -1, .rate_bytes = rate, .comment = "zombie network rate"});
}

void bird_op_rules(struct bird_rules *r, const json_t *site)
{
    block_list(r, site, json_object_get(site, "blocks"));
    bogons(r, site);
    size_t i, j, k;
    json_t *net, *host, *f;
    json_array_foreach (json_object_get(site, "networks"), i, net) {
        json_array_foreach (json_object_get(net, "hosts"), j, host) {
            const json_t *blocks = json_object_get(host, "blocks");
            json_array_foreach (json_object_get(host, "flex"), k, f)
                flex(r, f, blocks);
            udp_flood(r, json_object_get(host, "udp_flood"), blocks);
            zombie(r, json_object_get(host, "zombie"), blocks);
        }
    }
}

/* CleanPipe hosts hold bare addresses. */
static json_t *host_blocks(const json_t *host)
{
    json_t *out = json_array();
    size_t i;
    json_t *v;
    json_array_foreach (json_object_get(host, "blocks"), i, v) {
        char block[NET_TEXT_MAX];
        if (*canonical(json_string_value(v), block))
            json_array_append_new(out, json_string(block));
    }
    return out;
}

void bird_cp_rules(struct bird_rules *r, const json_t *site)
{
    block_list(r, json_object_get(site, "lists"), json_object_get(site, "blocks"));
    size_t i;
    json_t *host;
    json_array_foreach (json_object_get(site, "hosts"), i, host) {
        json_t *blocks = host_blocks(host);
        block_list(r, json_object_get(host, "lists"), blocks);
        json_decref(blocks);
    }
}
