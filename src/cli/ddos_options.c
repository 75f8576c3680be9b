/* ddos_options.c — see ddos_options.h. */
#include "cli/ddos_options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/net.h"
#include "cli/args.h"
#include "deploy/exec.h"
#include "deploy/files.h"

/* The renderers write absolute paths. */
static int absolute_dir(const char *option, const char *given, const char *data_dir, const char *sub, char out[1024])
{
    char dir[4096], real[PATH_MAX];
    if (given)
        snprintf(dir, sizeof dir, "%s", given);
    else
        snprintf(dir, sizeof dir, "%s/%s", data_dir, sub);
    if (files_mkdirs(dir) != 0 || !realpath(dir, real) || strlen(real) >= 1024) {
        fprintf(stderr, "parapet: --%s %s: cannot be used\n", option, dir);
        return -1;
    }
    memcpy(out, real, strlen(real) + 1);
    return 0;
}

/* The checker binary: the option ("none": no check), else the program in
 * PATH, else in /usr/sbin (where Debian installs both daemons). */
static int checker(json_t *args, const char *option, const char *program, char *buf, size_t size, const char **out)
{
    const char *given = arg_str(args, option);
    *out = NULL;
    if (given && strcmp(given, "none") == 0)
        return 0;
    if (given) {
        if (!exec_available(given)) {
            fprintf(stderr, "parapet: --%s %s: not found\n", option, given);
            return -1;
        }
        *out = given;
        return 0;
    }
    snprintf(buf, size, "/usr/sbin/%s", program);
    if (exec_available(program))
        *out = program;
    else if (exec_available(buf))
        *out = buf;
    return 0;
}

/* FastNetMon runs `notify.sh IP DIRECTION PPS ACTION` (it wants one
 * program): the script hands them to this parapet, on this data. */
static int write_notify_script(const char *path, const char *data_dir)
{
    char self[PATH_MAX], data[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || !realpath(data_dir, data) || strchr(self, '\'') || strchr(data, '\''))
        return -1;
    self[n] = '\0';
    char text[2 * PATH_MAX + 256];
    snprintf(text, sizeof text,
             "#!/bin/sh\n# written by parapet serve: FastNetMon's notify script\n"
             "exec '%s' fastnetmon-notify --data '%s' \"$@\"\n",
             self, data);
    return files_replace(path, text) == 0 && chmod(path, 0755) == 0 ? 0 : -1;
}

static int fastnetmon(json_t *args, const char *data_dir, struct ddos_options *o)
{
    struct ddos_settings *st = &o->st;
    struct fnm_settings *r = &st->fnm.render;
    long ban, avg;
    if (absolute_dir("fastnetmon-dir", arg_str(args, "fastnetmon-dir"), data_dir, "fastnetmon", o->fnm_dir) != 0 ||
        checker(args, "fastnetmon", "fastnetmon", o->fnm_bin, sizeof o->fnm_bin, &st->fnm.fastnetmon) != 0 ||
        arg_long(args, "fastnetmon-ban-time", 300, 1, 86400 * 7, &ban) != 0 ||
        arg_long(args, "fastnetmon-average-time", 15, 1, 600, &avg) != 0 ||
        arg_address_port("fastnetmon-netflow", arg_str(args, "fastnetmon-netflow") ?: "127.0.0.1:2055", false,
                         o->netflow_host, sizeof o->netflow_host, &r->netflow_port) != 0)
        return -1;
    o->graphite = arg_str(args, "fastnetmon-graphite");
    if (o->graphite && arg_address_port("fastnetmon-graphite", o->graphite, false, o->graphite_host,
                                        sizeof o->graphite_host, &r->graphite_port) != 0)
        return -1;
    r->dir = o->fnm_dir;
    r->netflow_host = o->netflow_host;
    r->graphite_host = o->graphite ? o->graphite_host : NULL;
    r->ban_time = (int)ban;
    r->average_calculation_time = (int)avg;
    snprintf(o->notify, sizeof o->notify, "%s/notify.sh", o->fnm_dir);
    if (write_notify_script(o->notify, data_dir) != 0) {
        fprintf(stderr, "parapet: cannot write %s\n", o->notify);
        return -1;
    }
    r->notify_script = o->notify;
    st->fnm.reload_cmd = arg_str(args, "fastnetmon-reload");
    st->fnm_on = true;
    return 0;
}

static int bird(json_t *args, const char *data_dir, struct ddos_options *o)
{
    struct bird_plane_config *b = &o->st.bird;
    struct bird_settings *r = &b->render;
    long as, peer_as;
    if (absolute_dir("bird-dir", arg_str(args, "bird-dir"), data_dir, "bird", o->bird_dir) != 0 ||
        checker(args, "bird", "bird", o->bird_bin, sizeof o->bird_bin, &b->bird) != 0 ||
        arg_long(args, "bird-as", 64512, 1, 4294967295L, &as) != 0 ||
        arg_long(args, "bird-peer-as", 0, 1, 4294967295L, &peer_as) != 0)
        return -1;
    r->dir = o->bird_dir;
    r->as = (unsigned)as;
    r->router_id = arg_str(args, "bird-router-id") ?: "192.0.2.1";
    struct ip_addr a;
    if (ip_parse(r->router_id, &a) != 0 || a.family != NET_V4) {
        fprintf(stderr, "parapet: --bird-router-id must be an IPv4 address\n");
        return -1;
    }
    const char *peer = arg_str(args, "bird-peer"), *local = arg_str(args, "bird-local");
    if (peer) {
        if (arg_address_port("bird-peer", peer, true, o->peer, sizeof o->peer, &r->peer_port) != 0)
            return -1;
        if (!peer_as) {
            fprintf(stderr, "parapet: --bird-peer needs --bird-peer-as\n");
            return -1;
        }
        r->peer = o->peer;
        r->peer_as = (unsigned)peer_as;
    }
    if (local && arg_address_port("bird-local", local, true, o->local, sizeof o->local, &r->local_port) != 0)
        return -1;
    r->local = local ? o->local : NULL;
    r->next_hop4 = arg_str(args, "bird-next-hop");
    r->next_hop6 = arg_str(args, "bird-next-hop6");
    if ((r->next_hop4 && (ip_parse(r->next_hop4, &a) != 0 || a.family != NET_V4)) ||
        (r->next_hop6 && (ip_parse(r->next_hop6, &a) != 0 || a.family != NET_V6))) {
        fprintf(stderr, "parapet: --bird-next-hop takes an IPv4 address, --bird-next-hop6 an IPv6 one\n");
        return -1;
    }
    if (arg_str(args, "bird-socket"))
        snprintf(o->socket, sizeof o->socket, "%s", arg_str(args, "bird-socket"));
    else
        snprintf(o->socket, sizeof o->socket, "%s/bird.ctl", o->bird_dir);
    b->socket = o->socket;
    o->st.bird_on = true;
    return 0;
}

/* A table name nftables takes as it is, and short. */
static bool table_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 32 || !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z')))
        return false;
    return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static int nftables(json_t *args, const char *data_dir, struct ddos_options *o)
{
    struct nft_plane_config *n = &o->st.nft;
    long counters;
    if (absolute_dir("nft-dir", arg_str(args, "nft-dir"), data_dir, "nftables", o->nft_dir) != 0 ||
        arg_long(args, "nft-counters", 60, 0, 3600, &counters) != 0)
        return -1;
    n->dir = o->nft_dir;
    n->render.table = arg_str(args, "nft-table") ?: "parapet";
    if (!table_name_ok(n->render.table)) {
        fprintf(stderr, "parapet: --nft-table: a letter, then letters, digits or _ (at most 32)\n");
        return -1;
    }
    o->nft_counters = (unsigned)counters;
    o->st.nft_on = true;
    return 0;
}

static int pmacct(json_t *args, const char *data_dir, struct ddos_options *o)
{
    struct pm_settings *r = &o->pmacct.render;
    long refresh, sampling;
    if (absolute_dir("pmacct-dir", arg_str(args, "pmacct-dir"), data_dir, "pmacct", o->pmacct_dir) != 0 ||
        arg_long(args, "pmacct-refresh", 60, 1, 3600, &refresh) != 0 ||
        arg_long(args, "pmacct-sampling", 0, 0, 1000000, &sampling) != 0 ||
        arg_address_port("pmacct-listen", arg_str(args, "pmacct-listen"), false, o->pmacct_host,
                         sizeof o->pmacct_host, &r->port) != 0)
        return -1;
    r->dir = o->pmacct_dir;
    r->host = o->pmacct_host;
    r->sflow = arg_flag(args, "pmacct-sflow");
    r->refresh_s = (unsigned)refresh;
    r->sampling = (unsigned)sampling;
    r->cache_entries = 16411; /* pmacct's default: about 180,000 entries in 66 MB */
    o->pmacct.binary = arg_str(args, "pmacct") ?: (r->sflow ? "sfacctd" : "nfacctd");
    if (!exec_available(o->pmacct.binary)) {
        fprintf(stderr, "parapet: --pmacct: %s not found (Debian package pmacct)\n", o->pmacct.binary);
        return -1;
    }
    o->pmacct_on = true;
    return 0;
}

int ddos_options_configure(json_t *args, const char *data_dir, struct ddos_options *o)
{
    memset(o, 0, sizeof *o);
    long interval;
    if (arg_long(args, "ddos-deploy-interval", 5, 1, 3600, &interval) != 0)
        return -1;
    o->st.interval_s = (unsigned)interval;
    if (!arg_flag(args, "no-fastnetmon-deploy") && fastnetmon(args, data_dir, o) != 0)
        return -1;
    if (!arg_flag(args, "no-bird-deploy") && bird(args, data_dir, o) != 0)
        return -1;
    if (arg_flag(args, "nft-deploy") && nftables(args, data_dir, o) != 0)
        return -1;
    if (arg_str(args, "pmacct-listen") && pmacct(args, data_dir, o) != 0)
        return -1;
    /* Both would store what the routers export as observed traffic (FastNetMon's
     * per-host totals, pmacct's flows with their sources): every dashboard would
     * count it twice, and pmacct's records already say more. */
    if (o->graphite && o->pmacct_on) {
        fprintf(stderr, "parapet: --fastnetmon-graphite with --pmacct-listen: both store the traffic the routers "
                        "export, which the dashboards would count twice; keep --pmacct-listen (its flows carry "
                        "sources) and drop --fastnetmon-graphite\n");
        return -1;
    }
    return 0;
}
