/* fuzz_pmacct_render.c — pm_render (pmacct's collector configuration) on a
 * model whose stored values are arbitrary bytes (as if they had reached the
 * store some other way than through the API): the blocks of an Origin
 * Protection site, of a CleanPipe site and its host, an Application
 * Protection VIP, and a block that is not a string at all. Input: a flag
 * byte (sFlow, a sampling rate, the non-string block), then NUL-separated
 * values.
 *
 * Invariants, from an exact re-parse of the rendered text: with no valid
 * block there is no configuration (and a reason); else the first line is
 * parapet's comment and every other line is `key: value` of printable
 * ASCII, the keys exactly those parapet means to write in their order, each
 * value exactly the setting's, and `aggregate_filter[parapet]` exactly `dst
 * net C` joined by ` or ` over the canonical blocks of the model (each once,
 * in model order). So no stored value can end a line or a directive, or add
 * one. (libpcap may refuse a filter: then no configuration, and a reason.) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "base/strbuf.h"
#include "dataplane/pmacct/pm_render.h"
#include "fuzz_assert.h"
#include "fuzz_slots.h"

enum { SLOTS = 6 };

/* The filter parapet means: each canonical block of the slots once, in order. */
static char *expected_filter(json_t *const v[SLOTS])
{
    json_t *seen = json_object();
    struct strbuf b = {0};
    for (int i = 0; i < SLOTS; i++) {
        struct cidr c;
        char text[NET_TEXT_MAX];
        if (cidr_parse(json_string_value(v[i]), CIDR_ALLOW_BARE, &c) != 0)
            continue;
        cidr_format(&c, text);
        if (json_object_get(seen, text))
            continue;
        json_object_set_new(seen, text, json_true());
        sb_printf(&b, "%sdst net %s", b.len ? " or " : "", text);
    }
    json_decref(seen);
    char *out = sb_take(&b);
    return out ? out : strdup("");
}

/* The lines parapet means to write after its comment, NULL-terminated. */
static void expected_lines(const struct pm_settings *s, const char *filter, char lines[][4096], int *n)
{
    const char *d = s->sflow ? "sfacctd" : "nfacctd";
    int k = 0;
#define LINE(...) snprintf(lines[k++], 4096, __VA_ARGS__)
    LINE("daemonize: false");
    LINE("logfile: %s/%s.log", s->dir, d);
    LINE("%s_ip: %s", d, s->host);
    LINE("%s_port: %d", d, s->port);
    LINE("%s_time_new: true", d);
    LINE("%s_renormalize: true", d);
    LINE("%s_pipe_size: 4194304", d);
    if (s->sampling > 1)
        LINE("%s_ext_sampling_rate: %u", d, s->sampling);
    if (!s->sflow)
        LINE("nfacctd_templates_file: %s/templates.json", s->dir);
    LINE("%s_as: %s", d, s->sflow ? "sflow" : "netflow");
    LINE("timestamps_since_epoch: true");
    LINE("plugins: print[parapet]");
    LINE("aggregate[parapet]: peer_src_ip, src_host, dst_host, src_port, dst_port, proto, src_as");
    LINE("aggregate_filter[parapet]: %s", filter);
    LINE("plugin_pipe_size[parapet]: 67108864");
    LINE("print_output[parapet]: json");
    LINE("print_num_protos[parapet]: true");
    LINE("print_markers[parapet]: true");
    LINE("print_history[parapet]: 1m");
    LINE("print_history_roundoff[parapet]: m");
    LINE("print_refresh_time[parapet]: %u", s->refresh_s);
    LINE("print_output_lock_file[parapet]: %s/print.lock", s->dir);
    LINE("print_cache_entries[parapet]: %u", s->cache_entries);
#undef LINE
    *n = k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    unsigned flags = data[0];
    json_t *v[SLOTS];
    fuzz_slots(data + 1, size - 1, v, SLOTS);
    /* slots: OP site blocks (2), CP site block, CP host block, AP VIP, OP site block 3 */
    json_t *model = json_pack("{s:[{s:i,s:[O,O,o]}],s:[{s:i,s:[O],s:[{s:i,s:[O]}]}],s:[{s:i,s:[O]},{s:i,s:[O]}]}",
                              "op_sites", "rid", 1, "blocks", v[0], v[1],
                              flags & 4 ? json_integer(7) : json_null(), "cp_sites", "rid", 2, "blocks", v[2],
                              "hosts", "rid", 3, "blocks", v[3], "ap_sites", "rid", 4, "blocks", v[4], "rid", 5,
                              "blocks", v[5]);
    FUZZ_ASSERT(model);
    struct pm_settings s = {.dir = "/srv/pm", .sflow = flags & 1, .host = "127.0.0.1", .port = 2100,
                            .refresh_s = 60, .sampling = flags & 2 ? 1 + (flags >> 4) : 0, .cache_entries = 65537};
    char why[512] = "";
    char *conf = pm_render(&s, model, why, sizeof why);
    char *filter = expected_filter(v);
    if (!conf) {
        FUZZ_ASSERT(why[0] != '\0');
        /* only for want of a block, or libpcap's refusal of the filter */
        FUZZ_ASSERT(!*filter || strstr(why, "libpcap") != NULL);
    } else {
        FUZZ_ASSERT(*filter);
        static char want[32][4096];
        int n;
        expected_lines(&s, filter, want, &n);
        const char *line = conf, *nl = strchr(line, '\n');
        FUZZ_ASSERT(nl && line[0] == '!');
        for (const char *c = line; c < nl; c++)
            FUZZ_ASSERT((unsigned char)*c >= 0x20 && *c != 0x7f);
        int k = 0;
        for (line = nl + 1; *line; line = nl + 1, k++) {
            nl = strchr(line, '\n');
            FUZZ_ASSERT(nl && k < n);
            for (const char *c = line; c < nl; c++)
                FUZZ_ASSERT((unsigned char)*c >= 0x20 && *c != 0x7f);
            FUZZ_ASSERT(strlen(want[k]) == (size_t)(nl - line) && !memcmp(want[k], line, (size_t)(nl - line)));
        }
        FUZZ_ASSERT(k == n);
    }
    free(filter);
    free(conf);
    json_decref(model);
    fuzz_slots_free(v, SLOTS);
    return 0;
}
