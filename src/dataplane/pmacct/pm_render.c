/* pm_render.c — see pm_render.h. */
#include "dataplane/pmacct/pm_render.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "base/strbuf.h"

/* Adds the canonical blocks of a list to `seen` (in order, no repeats). */
static void add_blocks(json_t *seen, const json_t *blocks)
{
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)blocks, i, v) {
        struct cidr c;
        char text[NET_TEXT_MAX];
        if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) != 0)
            continue;
        cidr_format(&c, text);
        json_object_set_new(seen, text, json_true());
    }
}

char *pm_filter(const json_t *model, char *why, size_t why_len)
{
    json_t *seen = json_object();
    static const char *const families[] = {"op_sites", "cp_sites", "ap_sites"};
    for (int f = 0; f < 3; f++) {
        size_t i, j;
        json_t *site, *host;
        json_array_foreach (json_object_get(model, families[f]), i, site) {
            add_blocks(seen, json_object_get(site, "blocks"));
            json_array_foreach (json_object_get(site, "hosts"), j, host) /* CleanPipe hosts */
                add_blocks(seen, json_object_get(host, "blocks"));
        }
    }
    struct strbuf b = {0};
    const char *block;
    json_t *v;
    json_object_foreach (seen, block, v)
        sb_printf(&b, "%sdst net %s", b.len ? " or " : "", block);
    json_decref(seen);
    char *filter = sb_take(&b);
    if (!filter)
        return strdup("");
    pcap_t *dead = pcap_open_dead(DLT_RAW, 65535);
    struct bpf_program prog;
    if (!dead || pcap_compile(dead, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) != 0) {
        snprintf(why, why_len, "libpcap refused the filter of the protected blocks: %s",
                 dead ? pcap_geterr(dead) : "no pcap handle");
        free(filter);
        filter = NULL;
    } else {
        pcap_freecode(&prog);
    }
    if (dead)
        pcap_close(dead);
    return filter;
}

char *pm_render(const struct pm_settings *s, const json_t *model, char *why, size_t why_len)
{
    char *filter = pm_filter(model, why, why_len);
    if (!filter)
        return NULL;
    if (!*filter) {
        snprintf(why, why_len, "no site has a protected block");
        free(filter);
        return NULL;
    }
    const char *d = s->sflow ? "sfacctd" : "nfacctd";
    struct strbuf b = {0};
    sb_printf(&b, "! %s.conf: written by parapet from stored state; edits are overwritten.\n", d);
    sb_printf(&b, "daemonize: false\nlogfile: %s/%s.log\n", s->dir, d);
    sb_printf(&b, "%s_ip: %s\n%s_port: %d\n", d, s->host, d, s->port);
    sb_printf(&b, "%s_time_new: true\n", d); /* bucket by arrival: exporters' clocks vary */
    sb_printf(&b, "%s_renormalize: true\n", d);
    /* the export socket's buffer: a flood's bursts of datagrams overflow the default */
    sb_printf(&b, "%s_pipe_size: 4194304\n", d);
    if (s->sampling > 1)
        sb_printf(&b, "%s_ext_sampling_rate: %u\n", d, s->sampling);
    if (!s->sflow)
        sb_printf(&b, "nfacctd_templates_file: %s/templates.json\n", s->dir);
    sb_printf(&b, "%s_as: %s\n", d, s->sflow ? "sflow" : "netflow");
    sb_add(&b, "timestamps_since_epoch: true\n"
               "plugins: print[parapet]\n"
               "aggregate[parapet]: peer_src_ip, src_host, dst_host, src_port, dst_port, proto, src_as\n");
    sb_printf(&b, "aggregate_filter[parapet]: %s\n", filter);
    /* the queue from the daemon's core to the plugin: when the plugin falls
     * behind by more than the queue (its 4 MB default holds 9,660 flows of
     * 424 bytes: half a second of a flood), the core overwrites what was not
     * read and the plugin skips it, silently for the first three times
     * (pmacct's print_plugin.c); 64 MiB holds 158,000: eight seconds of
     * 20,000 flows/s */
    sb_add(&b, "plugin_pipe_size[parapet]: 67108864\n");
    sb_printf(&b,
              "print_output[parapet]: json\nprint_num_protos[parapet]: true\nprint_markers[parapet]: true\n"
              "print_history[parapet]: 1m\nprint_history_roundoff[parapet]: m\n"
              "print_refresh_time[parapet]: %u\nprint_output_lock_file[parapet]: %s/print.lock\n"
              "print_cache_entries[parapet]: %u\n",
              s->refresh_s, s->dir, s->cache_entries);
    free(filter);
    return sb_take(&b);
}
