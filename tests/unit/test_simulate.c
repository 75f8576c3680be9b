/* test_simulate.c — telemetry/simulate.h: the same seed gives the same
 * bytes, another seed others; every line is a record of docs/telemetry.md
 * (decoded by telemetry/record.h) with the documented members; a network
 * DDoS event's peak is the peak per-minute rate of its flows. */
#include "telemetry/simulate.h"

#include <stdlib.h>
#include <string.h>

#include "telemetry/record.h"
#include "unit.h"

static const int64_t END = 1764000000;

struct text {
    char *data;
    size_t len, cap;
    long lines;
};

static int collect(void *arg, const char *line, size_t len)
{
    struct text *t = arg;
    if (t->len + len + 2 > t->cap) {
        t->cap = (t->cap + len + 2) * 2;
        t->data = realloc(t->data, t->cap);
        if (!t->data)
            return -1;
    }
    memcpy(t->data + t->len, line, len);
    t->len += len;
    t->data[t->len++] = '\n';
    t->data[t->len] = '\0';
    t->lines++;
    return 0;
}

static struct sim_site *sites(size_t *n)
{
    static struct cidr op_block, cp_blocks[2], vips[2];
    static struct sim_port ports[2] = {{"a1b2c3d4e5f60718", "shop.example.com", 80},
                                       {"a1b2c3d4e5f60719", "shop.example.com", 443}};
    static struct sim_site s[3];
    cidr_parse("192.0.2.0/24", 0, &op_block);
    cidr_parse("198.18.0.0/24", 0, &cp_blocks[0]);
    cidr_parse("2001:db8:1::/48", 0, &cp_blocks[1]);
    cidr_parse("198.51.100.240/32", 0, &vips[0]);
    cidr_parse("2001:db8:ffff::1/128", 0, &vips[1]);
    s[0] = (struct sim_site){.family = SIM_OP, .id = "0123456789abcdef", .blocks = &op_block, .n_blocks = 1};
    s[1] = (struct sim_site){.family = SIM_CP, .id = "1123456789abcdef", .blocks = cp_blocks, .n_blocks = 2};
    s[2] = (struct sim_site){.family = SIM_AP, .id = "2123456789abcdef", .blocks = vips, .n_blocks = 2,
                             .ports = ports, .n_ports = 2};
    *n = 3;
    return s;
}

static struct text run(uint64_t seed)
{
    size_t n;
    struct sim_site *s = sites(&n);
    struct sim_params p = {.seed = seed, .days = 4, .rate = 0.2, .waf_rate = 0.05, .end = END};
    struct text t = {0};
    struct sim_counts c;
    CHECK_INT(sim_generate(s, n, &p, collect, &t, &c), 0);
    CHECK_INT(c.flow + c.ddos_event + c.flow_down + c.bandwidth + c.waf_log, t.lines);
    return t;
}

TEST(same_seed_same_bytes)
{
    struct text a = run(42), b = run(42), c = run(43);
    CHECK(a.len > 100000);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    CHECK(a.len != c.len || memcmp(a.data, c.data, a.len) != 0);
    free(a.data);
    free(b.data);
    free(c.data);
}

static bool has(json_t *o, const char *const *members)
{
    for (; *members; members++)
        if (!json_object_get(o, *members))
            return false;
    return true;
}

TEST(records_of_the_documented_kinds)
{
    static const char *const flow[] = {"flow_id", "time", "router", "src_ip", "dst_ip", "bytes", "packets",
                                       "protocol", "src_as", "src_country", "app", "action", NULL};
    static const char *const ddos[] = {"alert_id", "attack_type", "site_ip", "start_time", "max_bps", "max_pps",
                                       "severity", NULL};
    static const char *const down[] = {"alert_id", "router_name", "site_ip", "start_time", NULL};
    static const char *const bw[] = {"site_id", "time", "raw_in", "raw_out", "clean_in", "clean_out", NULL};
    static const char *const waf[] = {"_id", "timestamp", "domain_port_id", "src_ip", "attack_type", "rule_id",
                                      "pattern", "severity", NULL};
    struct text t = run(7);
    long counts[5] = {0}, bad = 0, drops = 0, raw_below_clean = 0, sqli_942100 = 0;
    for (char *line = t.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        json_error_t je;
        json_t *o = json_loadb(line, nl ? (size_t)(nl - line) : strlen(line), 0, &je);
        struct tel_record rec;
        struct tel_locator loc;
        char msg[TEL_MSG_MAX];
        if (!o || tel_record_decode(o, END, &rec, &loc, msg, sizeof msg) != 0) {
            if (bad++ < 3)
                fprintf(stderr, "  bad record (%s): %.200s\n", o ? msg : je.text, line);
            json_decref(o);
            continue;
        }
        json_decref(loc.waf_entry);
        tel_record_clear(&rec);
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (!strcmp(kind, "flow")) {
            counts[0] += has(o, flow);
            drops += !strcmp(json_string_value(json_object_get(o, "action")), "drop") &&
                     json_object_get(o, "policy_type");
        } else if (!strcmp(kind, "ddos_event")) {
            counts[1] += has(o, ddos);
        } else if (!strcmp(kind, "flow_down")) {
            counts[2] += has(o, down);
        } else if (!strcmp(kind, "bandwidth")) {
            counts[3] += has(o, bw);
            raw_below_clean += json_integer_value(json_object_get(o, "raw_in")) <
                               json_integer_value(json_object_get(o, "clean_in"));
        } else if (!strcmp(kind, "waf_log")) {
            counts[4] += has(o, waf);
            sqli_942100 += !strcmp(json_string_value(json_object_get(o, "rule_id")), "942100") &&
                           strcmp(json_string_value(json_object_get(o, "attack_type")), "sqli") != 0;
        } else {
            bad++;
        }
        json_decref(o);
    }
    CHECK_INT(bad, 0);
    CHECK(counts[0] > 1000 && counts[1] > 0 && counts[3] == 4 * 1440 && counts[4] > 100);
    CHECK_INT(counts[0] + counts[1] + counts[2] + counts[3] + counts[4], t.lines);
    CHECK(drops > 0);
    CHECK_INT(raw_below_clean, 0);
    CHECK_INT(sqli_942100, 0);
    free(t.data);
}

/* The peak of a finished network attack: its flows ("-x" ids toward its
 * site_ip) summed per minute, bytes*8/60. */
TEST(event_peak_is_the_flows_peak)
{
    struct text t = run(11);
    json_t *events = json_array(), *per_minute = json_object();
    for (char *line = t.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        json_t *o = json_loadb(line, nl ? (size_t)(nl - line) : strlen(line), 0, NULL);
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (kind && !strcmp(kind, "ddos_event") && json_integer_value(json_object_get(o, "end_time")) &&
            strcmp(json_string_value(json_object_get(o, "attack_type")), "application") &&
            strcmp(json_string_value(json_object_get(o, "attack_type")), "mixed")) {
            json_array_append(events, o);
        } else if (kind && !strcmp(kind, "flow") && strstr(json_string_value(json_object_get(o, "flow_id")), "-x")) {
            char key[128];
            json_int_t time = json_integer_value(json_object_get(o, "time"));
            snprintf(key, sizeof key, "%s@%lld", json_string_value(json_object_get(o, "dst_ip")),
                     (long long)(time - time % 60));
            json_int_t sum = json_integer_value(json_object_get(per_minute, key));
            json_object_set_new(per_minute, key, json_integer(sum + json_integer_value(json_object_get(o, "bytes"))));
        }
        json_decref(o);
    }
    CHECK(json_array_size(events) > 0);
    size_t i;
    json_t *e;
    json_array_foreach (events, i, e) {
        const char *ip = json_string_value(json_object_get(e, "site_ip"));
        json_int_t best = 0, start = json_integer_value(json_object_get(e, "start_time")),
                   end = json_integer_value(json_object_get(e, "end_time"));
        for (json_int_t m = start; m < end; m += 60) {
            char key[128];
            snprintf(key, sizeof key, "%s@%lld", ip, (long long)m);
            json_int_t sum = json_integer_value(json_object_get(per_minute, key));
            if (sum > best)
                best = sum;
        }
        CHECK_INT(json_integer_value(json_object_get(e, "max_bps")), (json_int_t)((double)best * 8 / 60));
    }
    json_decref(events);
    json_decref(per_minute);
    free(t.data);
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every record id is unique, also over a window long enough for a site's
 * attacks to overlap (a re-used id would make ingest drop a real record). */
TEST(ids_are_unique)
{
    size_t n;
    struct sim_site *s = sites(&n);
    n = 2; /* the network sites: their attacks overlap */
    struct sim_params p = {.seed = 5, .days = 40, .rate = 0.002, .waf_rate = 0.001, .end = END};
    struct text t = {0};
    struct sim_counts c;
    CHECK_INT(sim_generate(s, n, &p, collect, &t, &c), 0);
    char **ids = calloc((size_t)t.lines, sizeof *ids);
    size_t k = 0;
    static const char *const id_members[] = {"\"flow_id\":\"", "\"alert_id\":\"", "\"_id\":\""};
    for (char *line = t.data, *nl; line && *line && k < (size_t)t.lines; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        for (size_t m = 0; m < 3; m++) {
            char *at = strstr(line, id_members[m]);
            if (at && (!nl || at < nl)) {
                /* the kind as well: a flow-down and a DDoS event are separate ids */
                ids[k++] = strndup(line, (size_t)(strchr(at + strlen(id_members[m]), '"') - line));
                break;
            }
        }
    }
    CHECK_INT((long)k, t.lines - c.bandwidth);
    qsort(ids, k, sizeof *ids, cmp_text);
    long repeated = 0;
    for (size_t i = 1; i < k; i++)
        repeated += strcmp(ids[i - 1], ids[i]) == 0;
    CHECK_INT(repeated, 0);
    for (size_t i = 0; i < k; i++)
        free(ids[i]);
    free(ids);
    free(t.data);
}

UNIT_MAIN(UNIT_CASE(same_seed_same_bytes), UNIT_CASE(records_of_the_documented_kinds),
          UNIT_CASE(event_peak_is_the_flows_peak), UNIT_CASE(ids_are_unique))
