/* fnm_render.c — see fnm_render.h. */
#include "dataplane/fastnetmon/fnm_render.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/op/op_mitigation.h"
#include "base/net.h"
#include "base/strbuf.h"

json_t *fnm_render_header(const struct fnm_settings *c)
{
    struct strbuf b = {0};
    sb_add(&b, "# fastnetmon.conf: written by parapet from stored state; edits are overwritten.\n"
               "# FastNetMon 1.2.4 takes only whole-line comments.\n");
    sb_add(&b, "disable_usage_report = on\n"
               "enable_ban = on\n"
               "unban_only_if_attack_finished = on\n"
               "enable_connection_tracking = on\n"
               "monitor_local_ip_addresses = off\n"
               "enable_api = off\n"
               "prometheus = off\n"
               "sflow = off\n"
               "mirror_afpacket = off\n"
               "process_incoming_traffic = on\n"
               "process_outgoing_traffic = on\n");
    sb_printf(&b, "ban_time = %d\n", c->ban_time);
    sb_printf(&b, "average_calculation_time = %d\n", c->average_calculation_time);
    sb_printf(&b, "networks_list_path = %s/" FNM_NETWORKS "\n", c->dir);
    sb_printf(&b, "white_list_path = %s/" FNM_WHITELIST "\n", c->dir);
    sb_printf(&b, "pid_path = %s/fastnetmon.pid\n", c->dir);
    sb_printf(&b, "cli_stats_file_path = %s/fastnetmon.dat\n", c->dir);
    sb_printf(&b, "cli_stats_ipv6_file_path = %s/fastnetmon_ipv6.dat\n", c->dir);
    sb_add(&b, "netflow = on\n");
    sb_printf(&b, "netflow_host = %s\n", c->netflow_host);
    sb_printf(&b, "netflow_port = %d\n", c->netflow_port);
    sb_add(&b, "netflow_sampling_ratio = 1\n");
    if (c->notify_script)
        sb_printf(&b, "notify_script_path = %s\n", c->notify_script);
    if (c->graphite_host) {
        sb_add(&b, "graphite = on\n");
        sb_printf(&b, "graphite_host = %s\n", c->graphite_host);
        sb_printf(&b, "graphite_port = %d\n", c->graphite_port);
        sb_add(&b, "graphite_prefix = fastnetmon\ngraphite_push_period = 1\n");
    } else {
        sb_add(&b, "graphite = off\n");
    }
    /* Addresses outside every hostgroup are not parapet's: never banned. */
    sb_add(&b, "ban_for_pps = off\nban_for_bandwidth = off\nban_for_flows = off\n");
    char *conf = sb_take(&b);
    json_t *out = json_pack("{s:s,s:s,s:s}", FNM_CONF, conf, FNM_NETWORKS, "", FNM_WHITELIST, "");
    free(conf);
    return out;
}

/* A leaf's low (detection) rate, or 0 when the leaf is off or absent. */
static uint64_t leaf_rate(const json_t *tree, const char *group, const char *leaf, const char *member)
{
    const json_t *l = json_object_get(json_object_get(tree, group), leaf);
    if (json_integer_value(json_object_get(l, "is_enabled")) != 1)
        return 0;
    return op_rate_value(json_string_value(json_object_get(l, member)));
}

/* The lowest enabled low_pps of a group (CE counts all TCP packets alike:
 * a SYN, ACK or RST flood is detected as TCP packets per second). */
static uint64_t group_min_pps(const json_t *tree, const char *group)
{
    uint64_t min = 0;
    const char *name;
    json_t *leaf;
    json_object_foreach ((json_t *)json_object_get(tree, group), name, leaf) {
        uint64_t v = leaf_rate(tree, group, name, "low_pps");
        if (v && (!min || v < min))
            min = v;
    }
    return min;
}

static void threshold(struct strbuf *b, const char *group, const char *flag, const char *key, uint64_t v)
{
    sb_printf(b, "%s_%s = %s\n", group, flag, v ? "on" : "off");
    sb_printf(b, "%s_%s = %llu\n", group, key, (unsigned long long)v);
}

/* What one site renders into, and the blocks a more specific level (a host,
 * then a network) already holds: FastNetMon gives a CIDR in two groups to
 * the first, so each block goes to its most specific holder only. */
struct site_out {
    struct strbuf conf, nets, wl;
    json_t *taken;
};

/* Whether a stored block is written as it is: a canonical CIDR (what the
 * API stores). Anything else, which could only have reached the store
 * around the API, could end the hostgroup line or add one to networks_list:
 * it is left out. */
static bool canonical_block(const json_t *v)
{
    const char *s = json_string_value(v);
    struct cidr c;
    char back[NET_TEXT_MAX];
    if (!s || strlen(s) != json_string_length(v) || cidr_parse(s, 0, &c) != 0)
        return false;
    cidr_format(&c, back);
    return strcmp(back, s) == 0;
}

/* One hostgroup: its line and every ban key (groups inherit nothing). */
static void hostgroup(struct site_out *o, const char *name, const json_t *all_blocks, const json_t *tree)
{
    struct strbuf *conf = &o->conf;
    json_t *blocks = json_array();
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)all_blocks, i, v) {
        if (canonical_block(v) && !json_object_get(o->taken, json_string_value(v))) {
            json_object_set_new(o->taken, json_string_value(v), json_true());
            json_array_append(blocks, v);
        }
    }
    if (json_array_size(blocks) == 0) {
        json_decref(blocks);
        return;
    }
    sb_printf(conf, "hostgroup = %s:", name);
    json_array_foreach (blocks, i, v) {
        sb_printf(conf, "%s%s", i ? "," : "", json_string_value(v));
        sb_printf(&o->nets, "%s\n", json_string_value(v)); /* verbatim, or the group never applies */
    }
    json_decref(blocks);
    sb_add(conf, "\n");
    uint64_t bps = leaf_rate(tree, "total_traffic", "total_traffic", "low_bps");
    threshold(conf, name, "ban_for_pps", "threshold_pps", leaf_rate(tree, "total_traffic", "total_traffic", "low_pps"));
    threshold(conf, name, "ban_for_bandwidth", "threshold_mbps", bps ? (bps + 999999) / 1000000 : 0);
    threshold(conf, name, "ban_for_flows", "threshold_flows", 0);
    threshold(conf, name, "ban_for_tcp_pps", "threshold_tcp_pps", group_min_pps(tree, "tcp"));
    threshold(conf, name, "ban_for_udp_pps", "threshold_udp_pps", leaf_rate(tree, "udp", "udp_total", "low_pps"));
    threshold(conf, name, "ban_for_icmp_pps", "threshold_icmp_pps", leaf_rate(tree, "icmp", "icmp_total", "low_pps"));
    threshold(conf, name, "ban_for_tcp_bandwidth", "threshold_tcp_mbps", 0);
    threshold(conf, name, "ban_for_udp_bandwidth", "threshold_udp_mbps", 0);
    threshold(conf, name, "ban_for_icmp_bandwidth", "threshold_icmp_mbps", 0);
}

static json_int_t rid_of(const json_t *o)
{
    return json_integer_value(json_object_get(o, "rid"));
}

static void whitelist(struct strbuf *wl, const json_t *blocks)
{
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)blocks, i, v)
        if (canonical_block(v))
            sb_printf(wl, "%s\n", json_string_value(v));
}

/* Hosts first, then networks, then the site: the most specific level keeps
 * a block both hold. Sites and networks have no detection policy of their
 * own: they use the catalogue's defaults. */
static void render_op(const json_t *site, struct site_out *o)
{
    const json_t *defaults = json_object_get(site, "defaults");
    char name[64];
    size_t i, j;
    json_t *net, *host;
    json_array_foreach (json_object_get(site, "networks"), i, net) {
        json_array_foreach (json_object_get(net, "hosts"), j, host) {
            snprintf(name, sizeof name, "op_host_%lld", (long long)rid_of(host));
            hostgroup(o, name, json_object_get(host, "blocks"), json_object_get(host, "detection"));
        }
    }
    json_array_foreach (json_object_get(site, "networks"), i, net) {
        snprintf(name, sizeof name, "op_net_%lld", (long long)rid_of(net));
        hostgroup(o, name, json_object_get(net, "blocks"), defaults);
    }
    snprintf(name, sizeof name, "op_site_%lld", (long long)rid_of(site));
    hostgroup(o, name, json_object_get(site, "blocks"), defaults);
}

/* CleanPipe: the site's detection switch (default on) decides whether its
 * addresses are watched; switched off, they go to the white list. */
static void render_cp(const json_t *site, struct site_out *o)
{
    const json_t *defaults = json_object_get(site, "defaults");
    const json_t *det = json_object_get(json_object_get(site, "policy"), "detection");
    char name[64];
    size_t i;
    json_t *host;
    json_array_foreach (json_object_get(site, "hosts"), i, host) {
        json_t *blocks = json_array(), *v;
        size_t k;
        json_array_foreach (json_object_get(host, "blocks"), k, v) { /* bare addresses */
            const char *a = json_string_value(v);
            char text[80];
            snprintf(text, sizeof text, "%s%s", a, strchr(a, '/') ? "" : strchr(a, ':') ? "/128" : "/32");
            json_array_append_new(blocks, json_string(text));
        }
        snprintf(name, sizeof name, "cp_host_%lld", (long long)rid_of(host));
        hostgroup(o, name, blocks, defaults);
        const json_t *hp = json_object_get(host, "policy");
        if (json_integer_value(json_object_get(hp, "is_customize")) &&
            json_object_get(hp, "detection") && json_integer_value(json_object_get(hp, "detection")) == 0)
            whitelist(&o->wl, blocks);
        json_decref(blocks);
    }
    snprintf(name, sizeof name, "cp_site_%lld", (long long)rid_of(site));
    hostgroup(o, name, json_object_get(site, "blocks"), defaults);
    if (det && json_integer_value(det) == 0)
        whitelist(&o->wl, json_object_get(site, "blocks"));
}

json_t *fnm_render_site(const json_t *site, const char *family, json_t *notes)
{
    struct site_out o = {.taken = json_object()};
    if (strcmp(family, "op") == 0) {
        render_op(site, &o);
        const json_t *allow = json_object_get(site, "allow_list");
        if (notes && json_integer_value(json_object_get(allow, "is_enabled")) == 1)
            json_array_append_new(notes, json_string("fastnetmon: the allow list (sources) cannot be expressed: "
                                                     "FastNetMon CE's white list holds protected addresses only"));
    } else {
        render_cp(site, &o);
    }
    json_t *out = json_pack("{s:s,s:s,s:s}", FNM_CONF, sb_text(&o.conf), FNM_NETWORKS, sb_text(&o.nets),
                            FNM_WHITELIST, sb_text(&o.wl));
    sb_free(&o.conf), sb_free(&o.nets), sb_free(&o.wl);
    json_decref(o.taken);
    return out;
}
