/* bird_render.c — see bird_render.h. The header and the diversion routes;
 * the FlowSpec rules come from bird_mitigation.c. */
#include "dataplane/bird/bird_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "base/strbuf.h"
#include "dataplane/bird/bird_mitigation.h"

static void endpoint(struct strbuf *b, const char *what, const char *addr, int port)
{
    sb_printf(b, "  %s %s", what, addr);
    if (port)
        sb_printf(b, " port %d", port);
}

json_t *bird_render_header(const struct bird_settings *c)
{
    struct strbuf b = {0};
    sb_add(&b, "# bird.conf: written by parapet from stored state; edits are overwritten.\n");
    sb_printf(&b, "log \"%s/bird.log\" all;\n", c->dir);
    sb_printf(&b, "router id %s;\n", c->router_id);
    sb_printf(&b, "define PARAPET_AS = %u;\n", c->as);
    sb_add(&b, "flow4 table flowtab4;\nflow6 table flowtab6;\n"
               "protocol device { scan time 60; }\n"
               "# diversion (PARAPET_AS, 100) and blackhole (65535, 666) announcements of every site\n"
               "protocol static parapet_divert4 {\n  ipv4 { table master4; };\n  include \"" BIRD_DIVERT4 "\";\n}\n"
               "protocol static parapet_divert6 {\n  ipv6 { table master6; };\n  include \"" BIRD_DIVERT6 "\";\n}\n"
               "# the mitigations FlowSpec expresses (RFC 8955)\n"
               "protocol static parapet_flow4 {\n  flow4 { table flowtab4; };\n  include \"" BIRD_FLOW4 "\";\n}\n"
               "protocol static parapet_flow6 {\n  flow6 { table flowtab6; };\n  include \"" BIRD_FLOW6 "\";\n}\n");
    if (c->peer) {
        sb_add(&b, "protocol bgp parapet_peer {\n");
        if (c->local) {
            endpoint(&b, "local", c->local, c->local_port);
            sb_add(&b, " as PARAPET_AS;\n  strict bind on;\n");
        } else {
            sb_add(&b, "  local as PARAPET_AS;\n");
        }
        endpoint(&b, "neighbor", c->peer, c->peer_port);
        sb_printf(&b, " as %u;\n", c->peer_as);
        /* multihop: a scrubber's route server is rarely on-link, and a
         * session on 127.0.0.x needs it (neigh_find refuses host scope) */
        sb_add(&b, "  multihop;\n  connect retry time 5;\n");
        sb_add(&b, "  ipv4 { import none; export where proto = \"parapet_divert4\";");
        if (c->next_hop4)
            sb_printf(&b, " next hop address %s;", c->next_hop4);
        sb_add(&b, " };\n");
        if (c->next_hop6)
            sb_printf(&b,
                      "  ipv6 { import none; export where proto = \"parapet_divert6\"; next hop address %s; };\n",
                      c->next_hop6);
        sb_add(&b, "  flow4 { table flowtab4; import none; export all; };\n"
                   "  flow6 { table flowtab6; import none; export all; };\n}\n");
    }
    char *text = sb_take(&b);
    json_t *out = json_pack("{s:s,s:s,s:s,s:s,s:s}", BIRD_CONF, text, BIRD_DIVERT4, "", BIRD_DIVERT6, "",
                            BIRD_FLOW4, "", BIRD_FLOW6, "");
    free(text);
    return out;
}

/* The announcements of one site: {"<block>": "divert" | "blackhole"} in the
 * order first asked for; a blackhole wins over a diversion of the block. */
static void announce(json_t *routes, const char *text, const char *how)
{
    struct cidr c;
    char block[NET_TEXT_MAX];
    if (!text || cidr_parse(text, CIDR_ALLOW_BARE, &c) != 0)
        return;
    cidr_format(&c, block);
    const char *had = json_string_value(json_object_get(routes, block));
    if (!had || strcmp(how, "blackhole") == 0)
        json_object_set_new(routes, block, json_string(how));
}

static void announce_all(json_t *routes, const json_t *blocks, const char *how)
{
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)blocks, i, v)
        announce(routes, json_string_value(v), how);
}

static json_int_t int_of(const json_t *o, const char *member)
{
    return json_integer_value(json_object_get(o, member));
}

/* Every ongoing DDoS event diverts its address; a blackhole event drops it. */
static void announce_events(json_t *routes, const json_t *site)
{
    size_t i;
    json_t *e;
    json_array_foreach (json_object_get(site, "events"), i, e)
        announce(routes, json_string_value(json_object_get(e, "site_ip")),
                 json_string_value(json_object_get(e, "severity")));
}

/* Origin Protection: mitigation switched on (the overview's mitigation_mode
 * of the site, a network or a host) diverts the level's blocks for good. */
static void op_routes(json_t *routes, const json_t *site)
{
    if (int_of(site, "mitigation_mode"))
        announce_all(routes, json_object_get(site, "blocks"), "divert");
    size_t i, j;
    json_t *net, *host;
    json_array_foreach (json_object_get(site, "networks"), i, net) {
        if (int_of(net, "mitigation_mode"))
            announce_all(routes, json_object_get(net, "blocks"), "divert");
        json_array_foreach (json_object_get(net, "hosts"), j, host)
            if (int_of(host, "mitigation_mode"))
                announce_all(routes, json_object_get(host, "blocks"), "divert");
    }
}

/* CleanPipe manual mitigation: the site's switch diverts its route template
 * (or, without one, its blocks); a customised host's mode 1 diverts it and
 * mode 3 blackholes it. */
static void cp_routes(json_t *routes, const json_t *site)
{
    const json_t *manual = json_object_get(json_object_get(site, "policy"), "manual");
    if (int_of(manual, "enable")) {
        json_int_t tid = int_of(manual, "template_profile_id");
        const json_t *blocks = json_object_get(site, "blocks");
        size_t i;
        json_t *t;
        json_array_foreach (json_object_get(site, "templates"), i, t) {
            const json_t *id = json_object_get(t, "id");
            if (tid && (json_is_integer(id) ? json_integer_value(id) : atoll(json_string_value(id) ?: "")) == tid)
                blocks = json_object_get(t, "blocks");
        }
        announce_all(routes, blocks, "divert");
    }
    size_t i;
    json_t *host;
    json_array_foreach (json_object_get(site, "hosts"), i, host) {
        const json_t *p = json_object_get(host, "policy");
        json_int_t mode = int_of(json_object_get(p, "manual"), "mode");
        if (int_of(p, "is_customize") && (mode == 1 || mode == 3))
            announce_all(routes, json_object_get(host, "blocks"), mode == 3 ? "blackhole" : "divert");
    }
}

static void write_routes(struct strbuf *v4, struct strbuf *v6, const json_t *routes)
{
    const char *block;
    json_t *how;
    json_object_foreach ((json_t *)routes, block, how) {
        bool blackhole = strcmp(json_string_value(how), "blackhole") == 0;
        sb_printf(strchr(block, ':') ? v6 : v4, "  route %s blackhole { bgp_community.add((%s)); };\n", block,
                  blackhole ? "65535, 666" : "PARAPET_AS, 100");
    }
}

/* Each part starts with a comment naming the site, when it has lines. */
static json_t *parts(const char *family, const json_t *site, struct strbuf *bufs[4])
{
    static const char *const names[4] = {BIRD_DIVERT4, BIRD_DIVERT6, BIRD_FLOW4, BIRD_FLOW6};
    json_t *out = json_pack("{s:s}", BIRD_CONF, "");
    for (int i = 0; i < 4; i++) {
        struct strbuf b = {0};
        if (bufs[i]->len)
            sb_printf(&b, "  # %s site %s\n%s", family, json_string_value(json_object_get(site, "id")),
                      sb_text(bufs[i]));
        json_object_set_new(out, names[i], json_string(b.len ? sb_text(&b) : ""));
        sb_free(&b);
    }
    return out;
}

json_t *bird_render_site(const json_t *site, const char *family, json_t *notes)
{
    bool op = strcmp(family, "op") == 0;
    json_t *routes = json_object();
    announce_events(routes, site);
    if (op)
        op_routes(routes, site);
    else
        cp_routes(routes, site);
    struct strbuf d4 = {0}, d6 = {0}, f4 = {0}, f6 = {0};
    write_routes(&d4, &d6, routes);
    json_decref(routes);
    struct bird_rules rules = {.v4 = &f4, .v6 = &f6, .notes = notes, .max = BIRD_SITE_RULES_MAX};
    if (op)
        bird_op_rules(&rules, site);
    else
        bird_cp_rules(&rules, site);
    bird_rules_finish(&rules);
    struct strbuf *bufs[4] = {&d4, &d6, &f4, &f6};
    json_t *out = parts(family, site, bufs);
    sb_free(&d4), sb_free(&d6), sb_free(&f4), sb_free(&f6);
    return out;
}
