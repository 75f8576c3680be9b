/* test_pm_fold.c — a pmacct batch folded per site and minute
 * (dataplane/pmacct/pm_fold.h): a few sources pass as they are; a flood from
 * hundreds of thousands of spoofed sources becomes a bounded number of
 * records whose totals are the batch's exactly, with the legitimate
 * clients' rows intact and the reflection's source port kept. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/pmacct/pm_fold.h"
#include "unit/unit.h"

static struct pm_row row(const char *src, const char *dst, int proto, int sport, int dport, uint64_t bytes,
                         uint64_t packets, int64_t site)
{
    struct pm_row r = {.proto = (uint8_t)proto, .sport = (uint16_t)sport, .dport = (uint16_t)dport,
                       .minute = 1764000000, .bytes = bytes, .packets = packets, .sampling = 1, .site = site};
    ip_parse(src, &r.src);
    ip_parse(dst, &r.dst);
    return r;
}

struct totals {
    long long bytes, packets;
    size_t records;
};

/* Sums the records toward `prefix` (a dst_ip prefix string). */
static struct totals sum(const json_t *records, const char *prefix)
{
    struct totals t = {0};
    size_t i;
    json_t *v;
    json_array_foreach ((json_t *)records, i, v) {
        json_t *r = json_loads(json_string_value(v), 0, NULL);
        if (strncmp(json_string_value(json_object_get(r, "dst_ip")), prefix, strlen(prefix)) == 0) {
            t.bytes += json_integer_value(json_object_get(r, "bytes"));
            t.packets += json_integer_value(json_object_get(r, "packets"));
            t.records++;
        }
        json_decref(r);
    }
    return t;
}

static const struct pm_site sites[] = {{.rid = 1}, {.rid = 2}};

TEST(few_sources_pass_as_they_are)
{
    struct pm_row rows[] = {row("203.0.113.1", "198.51.100.10", 6, 50000, 443, 1000, 10, 1),
                            row("203.0.113.2", "198.51.100.11", 17, 123, 40000, 500, 1, 1),
                            row("2001:db8:9::1", "2001:db8:1::5", 6, 40000, 80, 300, 3, 2)};
    json_t *out = json_array();
    CHECK_INT(pm_fold(rows, 3, sites, 2, "77", "edge-1", out), 3);
    json_t *r = json_loads(json_string_value(json_array_get(out, 0)), 0, NULL);
    char *text = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(text, "{\"bytes\":1000,\"dst_ip\":\"198.51.100.10\",\"dst_port\":443,\"flow_id\":\"pm-1764000000-77-0\","
                    "\"kind\":\"flow\",\"packets\":10,\"policy_type\":\"observed\",\"protocol\":6,\"router\":\"edge-1\","
                    "\"src_ip\":\"203.0.113.1\","
                    "\"src_port\":50000,\"time\":1764000000}");
    free(text);
    json_decref(r);
    CHECK_INT(sum(out, "2001:db8:1::").bytes, 300);
    json_decref(out);
}

TEST(a_flood_is_bounded_and_exact)
{
    enum { FLOOD = 300000 };
    size_t n = FLOOD + 10 + 3;
    struct pm_row *rows = calloc(n, sizeof *rows);
    uint64_t seed = 42;
    long long want_bytes = 0, want_packets = 0;
    for (size_t i = 0; i < FLOOD; i++) { /* NTP reflection from random sources to random ports of the /24 */
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        char src[32], dst[32];
        snprintf(src, sizeof src, "100.%u.%u.%u", (unsigned)(seed >> 56) % 64 + 64, (unsigned)(seed >> 48) & 255,
                 (unsigned)(seed >> 40) & 255);
        snprintf(dst, sizeof dst, "198.51.100.%u", (unsigned)(seed >> 32) & 255);
        rows[i] = row(src, dst, 17, 123, 1024 + (int)((seed >> 16) % 60000), 468, 1, 1);
        want_bytes += 468, want_packets += 1;
    }
    for (int i = 0; i < 10; i++) { /* legitimate clients, larger than any one spoofed source */
        char src[32];
        snprintf(src, sizeof src, "203.0.113.%d", i + 1);
        rows[FLOOD + i] = row(src, "198.51.100.10", 6, 40000 + i, 443, 150000, 100, 1);
        want_bytes += 150000, want_packets += 100;
    }
    for (int i = 0; i < 3; i++) /* another site */
        rows[FLOOD + 10 + i] = row("203.0.113.200", "192.0.2.1", 17, 5000 + i, 53, 80, 1, 2);
    json_t *out = json_array();
    size_t made = pm_fold(rows, n, sites, 2, "1", "pmacct", out);
    struct totals a = sum(out, "198.51.100."), b = sum(out, "192.0.2.");
    CHECK_INT(a.bytes, want_bytes);
    CHECK_INT(a.packets, want_packets);
    CHECK(a.records <= PM_EXACT_MAX + PM_BUCKETS_MAX + PM_OTHER_MAX + 1);
    CHECK(a.records > PM_BUCKETS_MAX); /* the buckets are used up */
    CHECK_INT(b.bytes, 240);
    CHECK_INT(b.records, 3);
    CHECK_INT(made, a.records + b.records);
    /* each legitimate client's row, exact; a /24 bucket of the flood with
     * source port 123 and the ephemeral destination port folded to 0 */
    int legit = 0, buckets = 0;
    size_t i;
    json_t *v;
    json_array_foreach (out, i, v) {
        json_t *r = json_loads(json_string_value(v), 0, NULL);
        const char *src = json_string_value(json_object_get(r, "src_ip"));
        if (strncmp(src, "203.0.113.", 10) == 0 && json_integer_value(json_object_get(r, "bytes")) == 150000 &&
            json_integer_value(json_object_get(r, "dst_port")) == 443)
            legit++;
        if (strncmp(src, "100.", 4) == 0 && strcmp(src + strlen(src) - 2, ".0") == 0 &&
            json_integer_value(json_object_get(r, "src_port")) == 123 &&
            json_integer_value(json_object_get(r, "dst_port")) == 0)
            buckets++;
        json_decref(r);
    }
    CHECK_INT(legit, 10);
    CHECK(buckets > 1000);
    json_decref(out);
    free(rows);
}

UNIT_MAIN(UNIT_CASE(few_sources_pass_as_they_are), UNIT_CASE(a_flood_is_bounded_and_exact))
