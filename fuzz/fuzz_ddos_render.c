/* fuzz_ddos_render.c — fnm_render_site and bird_render_site on an Origin
 * Protection site whose stored values are arbitrary bytes (as if they had
 * reached the store some other way than through the API): the blocks of
 * the site, a network and a host, an ongoing event's address, the block
 * list's sources, a flex filter's port (a number) and protocol. Input: a flag byte,
 * then NUL-separated values.
 *
 * Invariants: FastNetMon's three files, with the header, pass parapet's
 * own exact check of them (fnm_validate: every line a known key with a
 * value of its type, every hostgroup's CIDRs canonical and listed verbatim
 * in networks_list); every line of BIRD's route files re-parses exactly as
 * a comment, a static route `route CIDR blackhole { bgp_community.add((A,
 * B)); };` or a FlowSpec route `route flowN { dst CIDR; [src CIDR;] [proto
 * N;] [dport P;] [sport P;] [length …;] } { bgp_ext_community.add((generic,
 * 0x80060000, 0xHHHHHHHH)); };` with canonical CIDRs. So no value can end a
 * line, a hostgroup, a route or a block. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "dataplane/bird/bird_render.h"
#include "dataplane/fastnetmon/fnm_render.h"
#include "dataplane/fastnetmon/fnm_validate.h"
#include "fuzz_assert.h"
#include "fuzz_slots.h"

enum { SLOTS = 8 };

/* A canonical CIDR at *p, up to one of `stops`; advances *p past it. */
static void cidr_at(const char **p, const char *stops)
{
    char text[NET_TEXT_MAX + 8], back[NET_TEXT_MAX];
    size_t n = strcspn(*p, stops);
    FUZZ_ASSERT(n > 0 && n < sizeof text);
    memcpy(text, *p, n);
    text[n] = '\0';
    struct cidr c;
    FUZZ_ASSERT(cidr_parse(text, 0, &c) == 0);
    cidr_format(&c, back);
    FUZZ_ASSERT(!strcmp(back, text));
    *p += n;
}

static void expect(const char **p, const char *lit)
{
    FUZZ_ASSERT(!strncmp(*p, lit, strlen(lit)));
    *p += strlen(lit);
}

static bool take(const char **p, const char *lit)
{
    if (strncmp(*p, lit, strlen(lit)))
        return false;
    *p += strlen(lit);
    return true;
}

static void digits(const char **p)
{
    FUZZ_ASSERT(**p >= '0' && **p <= '9');
    while (**p >= '0' && **p <= '9')
        (*p)++;
}

/* A FlowSpec port list as BIRD reads it: values and ranges N..M, comma separated. */
static void ports(const char **p)
{
    do {
        digits(p);
        if (take(p, ".."))
            digits(p);
    } while (take(p, ","));
}

static void route_line(const char *l)
{
    const char *p = l;
    if (take(&p, "  # ")) {
        for (; *p; p++)
            FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f);
        return;
    }
    expect(&p, "  route ");
    if (take(&p, "flow4 { dst ") || take(&p, "flow6 { dst ")) {
        cidr_at(&p, ";");
        expect(&p, ";");
        if (take(&p, " src ")) {
            cidr_at(&p, ";");
            expect(&p, ";");
        }
        if (take(&p, " proto ") || take(&p, " next header ")) {
            digits(&p);
            expect(&p, ";");
        }
        if (take(&p, " dport ")) {
            ports(&p);
            expect(&p, ";");
        }
        if (take(&p, " sport ")) {
            ports(&p);
            expect(&p, ";");
        }
        if (take(&p, " length ")) {
            if (!take(&p, ">= ") && !take(&p, "<= ")) {
                digits(&p);
                expect(&p, "..");
            }
            digits(&p);
            expect(&p, ";");
        }
        expect(&p, " } { bgp_ext_community.add((generic, 0x80060000, 0x");
        for (int i = 0; i < 8; i++, p++)
            FUZZ_ASSERT((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'F'));
        expect(&p, ")); };");
    } else {
        cidr_at(&p, " ");
        expect(&p, " blackhole { bgp_community.add((");
        FUZZ_ASSERT(take(&p, "65535, 666") || take(&p, "PARAPET_AS, 100"));
        expect(&p, ")); };");
    }
    FUZZ_ASSERT(*p == '\0');
}

static void route_file(const char *text)
{
    char *copy = strdup(text);
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n"))
        route_line(line);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    unsigned flags = data[0];
    json_t *v[SLOTS];
    fuzz_slots(data + 1, size - 1, v, SLOTS);
    /* slots: site block, network block, host block, event address, block
     * list source, flex dport, flex protocol, a second site block */
    json_t *flex = json_pack("[{s:s,s:s,s:s,s:s,s:{s:i,s:O},s:{s:i,s:[I]},s:{s:i,s:[]}}]", "id", "f1",
                             "filter_name", "f", "action", flags & 1 ? "drop" : "rate-limit", "bps_limit", "8M",
                             "protocol", "is_enabled", 1, "type", v[6], "port", "is_enabled", 1, "ports",
                             (json_int_t)strtoll(json_string_value(v[5]) ?: "", NULL, 10), "payload_string",
                             "is_enabled", 0, "strings");
    json_t *site = json_pack(
        "{s:i,s:s,s:s,s:s,s:[O,O],s:i,s:i,s:{s:i},s:{s:i,s:[O],s:[]},s:{s:{s:i},s:{s:i}},s:{},"
        "s:[{s:i,s:s,s:s,s:[O],s:i,s:[{s:i,s:s,s:s,s:[O],s:i,s:{},s:o}]}],s:[{s:s,s:O,s:s}]}",
        "rid", 3, "id", "a1", "customer_id", "c1", "name", "s", "blocks", v[0], v[7], "detection_mode", 0,
        "mitigation_mode", (flags >> 1) & 1, "allow_list", "is_enabled", 0, "block_list", "is_enabled", 1,
        "source_ips", v[4], "source_countries", "bogons", "land_attack", "is_enabled", (flags >> 2) & 1,
        "martian_address", "is_enabled", (flags >> 3) & 1, "defaults", "networks", "rid", 4, "id", "n1", "name",
        "n", "blocks", v[1], "mitigation_mode", (flags >> 4) & 1, "hosts", "rid", 5, "id", "h1", "name", "h",
        "blocks", v[2], "mitigation_mode", (flags >> 5) & 1, "detection", "flex", flex, "events", "alert_id", "e1",
        "site_ip", v[3], "severity", flags & 64 ? "blackhole" : "divert");
    FUZZ_ASSERT(site);
    /* FastNetMon */
    static const struct fnm_settings fs = {.dir = "/srv/fnm", .netflow_host = "127.0.0.1", .netflow_port = 2055,
                                           .ban_time = 300, .average_calculation_time = 15};
    json_t *head = fnm_render_header(&fs), *notes = json_array();
    json_t *fnm = fnm_render_site(site, "op", notes);
    char *conf = NULL;
    FUZZ_ASSERT(asprintf(&conf, "%s%s", json_string_value(json_object_get(head, FNM_CONF)),
                         json_string_value(json_object_get(fnm, FNM_CONF))) > 0);
    char why[512] = "";
    FUZZ_ASSERT(fnm_validate(conf, json_string_value(json_object_get(fnm, FNM_NETWORKS)),
                             json_string_value(json_object_get(fnm, FNM_WHITELIST)), why, sizeof why) == 0);
    free(conf);
    /* BIRD */
    json_t *bird = bird_render_site(site, "op", notes);
    static const char *const files[] = {BIRD_DIVERT4, BIRD_DIVERT6, BIRD_FLOW4, BIRD_FLOW6};
    for (size_t i = 0; i < 4; i++)
        route_file(json_string_value(json_object_get(bird, files[i])));
    json_decref(bird);
    json_decref(fnm);
    json_decref(head);
    json_decref(notes);
    json_decref(site);
    fuzz_slots_free(v, SLOTS);
    return 0;
}
