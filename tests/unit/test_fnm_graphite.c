/* test_fnm_graphite.c — dataplane/fastnetmon/fnm_graphite.h: FastNetMon
 * 1.2.4's Graphite lines and their per-host, per-minute `flow` records. */
#include <stdlib.h>

#include "dataplane/fastnetmon/fnm_graphite.h"
#include "unit.h"

static const int64_t T0 = 1764000000; /* a minute */

static int parse(const char *text, struct fnm_line *l)
{
    return fnm_graphite_parse(text, strlen(text), l);
}

TEST(lines)
{
    struct fnm_line l;
    CHECK_INT(parse("fastnetmon.hosts.203_0_113_5.incoming.average.pps 906 1764000001", &l), 0);
    CHECK(l.host_incoming);
    CHECK_STR(l.ip, "203.0.113.5");
    CHECK_INT(l.metric, FNM_PPS);
    CHECK_INT(l.value, 906);
    CHECK_INT(l.time, 1764000001);
    /* dashes, no ".average", a prefix with dots, CRLF, tabs, a fraction */
    CHECK_INT(parse("a.b.c.hosts.203-0-113-5.incoming.bps\t8000.75  1764000002\r", &l), 0);
    CHECK(l.host_incoming);
    CHECK_STR(l.ip, "203.0.113.5");
    CHECK_INT(l.metric, FNM_BPS);
    CHECK_INT(l.value, 8000);
    CHECK_INT(parse(".hosts.10_0_0_1.incoming.average.flows 3 1764000001", &l), 0); /* graphite_prefix = "" */
    CHECK_INT(l.metric, FNM_FLOWS);
    /* IPv6 (1.2.4 exports none; a later or patched one would write it so) */
    CHECK_INT(parse("fastnetmon.hosts.2001_DB8__5.incoming.average.bps 1 1764000001", &l), 0);
    CHECK_STR(l.ip, "2001:db8::5");
    CHECK_INT(parse("fastnetmon.hosts.2001-db8-0-0-0-0-0-5.incoming.pps 1 1764000001", &l), 0);
    CHECK_STR(l.ip, "2001:db8::5");
    /* lines of the export that are not used */
    const char *other[] = {"fastnetmon.hosts.203_0_113_5.outgoing.average.pps 5 1764000001",
                           "fastnetmon.total.incoming.pps 100 1764000001",
                           "fastnetmon.total.other.bps 0 1764000001",
                           "fastnetmon.networks.203_0_113_0_24.incoming.bps 5 1764000001"};
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        CHECK_INT(parse(other[i], &l), 0);
        CHECK(!l.host_incoming);
    }
    const char *bad[] = {
        "",
        "fastnetmon.hosts.203_0_113_5.incoming.average.pps",
        "fastnetmon.hosts.203_0_113_5.incoming.average.pps 906",
        "fastnetmon.hosts.203_0_113_5.incoming.average.pps -1 1764000001",
        "fastnetmon.hosts.203_0_113_5.incoming.average.pps 1 abc",
        "fastnetmon.hosts.203_0_113_5.incoming.average.pps 1 0",
        "fastnetmon.hosts.203_0_113_5.incoming.average.pps 1 1764000001 x",
        "fastnetmon.hosts.203_0_113_5.incoming.average.pps 99999999999999999999999 1764000001",
        "fastnetmon.hosts.999_0_113_5.incoming.average.pps 1 1764000001",
        "fastnetmon.hosts.203_0_113.incoming.average.pps 1 1764000001",
        "fastnetmon.hosts..incoming.pps 1 1764000001",
        "fastnetmon.hosts.203_0_113_5.sideways.pps 1 1764000001",
        "fastnetmon.hosts.203_0_113_5.incoming.average.ppm 1 1764000001",
        "fastnetmon.guests.203_0_113_5.incoming.pps 1 1764000001",
        "incoming.pps 1 1764000001",
        "pps 1 1764000001"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_INT(parse(bad[i], &l), -1);
}

static void add(struct fnm_graphite_agg *a, int64_t now, const char *metric, const char *ip, uint64_t v,
                int64_t t)
{
    char line[200];
    snprintf(line, sizeof line, "fastnetmon.hosts.%s.incoming.average.%s %llu %lld", ip, metric,
             (unsigned long long)v, (long long)t);
    fnm_graphite_add(a, line, strlen(line), now);
}

static const char PPS[] = "pps", BPS[] = "bps";

TEST(minute_means)
{
    struct fnm_graphite_agg a;
    fnm_graphite_init(&a, FNM_GRAPHITE_GRACE_S);
    int64_t now = T0 + 30;
    /* 30 pushes (seconds 0..29), each with its totals line */
    for (int s = 0; s < 30; s++) {
        char line[100];
        snprintf(line, sizeof line, "fastnetmon.total.incoming.pps 1000 %lld", (long long)(T0 + s));
        fnm_graphite_add(&a, line, strlen(line), now);
    }
    /* host A in 10 of them (quiet seconds are not sent): 100 pps, 800 kbps */
    for (int s = 0; s < 10; s++) {
        add(&a, now, PPS, "203_0_113_5", 100, T0 + s);
        add(&a, now, BPS, "203_0_113_5", 800000, T0 + s);
    }
    /* the push of second 9 sent again for a second network: counted once */
    add(&a, now, PPS, "203_0_113_5", 100, T0 + 9);
    add(&a, now, BPS, "203_0_113_5", 800000, T0 + 9);
    /* host B (IPv6 form) in 3 pushes */
    add(&a, now, PPS, "2001_db8__5", 7, T0 + 1);
    add(&a, now, PPS, "2001_db8__5", 8, T0 + 2);
    add(&a, now, PPS, "2001_db8__5", 9, T0 + 3);
    /* host C: only flows and outgoing lines (no record) */
    const char *more[] = {"fastnetmon.hosts.203_0_113_6.incoming.average.flows 5 1764000001",
                          "fastnetmon.hosts.203_0_113_6.outgoing.average.pps 5 1764000001", "garbage"};
    for (size_t i = 0; i < 3; i++)
        fnm_graphite_add(&a, more[i], strlen(more[i]), now);
    CHECK_INT(a.stats.malformed, 1);
    CHECK_INT(a.stats.used, 25);
    CHECK_INT(a.stats.ignored, 32);

    json_t *records = json_array(), *ips = json_array();
    CHECK_INT(fnm_graphite_take(&a, T0 + 30, records, ips), 0);
    CHECK_INT(fnm_graphite_take(&a, T0 + 60 + FNM_GRAPHITE_GRACE_S - 1, records, ips), 0);
    CHECK_INT(fnm_graphite_take(&a, T0 + 60 + FNM_GRAPHITE_GRACE_S, records, ips), 2);
    /* A: 1000 packets over 30 pushes: 33.3 pps mean, 2000 a minute; 8e6 bits: 2,000,000 bytes */
    CHECK_STR(
        json_string_value(json_array_get(records, 0)),
        "{\"kind\":\"flow\",\"flow_id\":\"fnm-203.0.113.5-1764000000\",\"time\":1764000000,\"router\":"
        "\"fastnetmon\",\"src_ip\":\"0.0.0.0\",\"dst_ip\":\"203.0.113.5\",\"protocol\":0,\"bytes\":2000000,"
        "\"packets\":2000,\"action\":\"pass\",\"policy_type\":\"observed\"}");
    /* B: 24 packets over 30 pushes: 48 a minute; no bps: 0 bytes */
    CHECK_STR(json_string_value(json_array_get(records, 1)),
              "{\"kind\":\"flow\",\"flow_id\":\"fnm-2001:db8::5-1764000000\",\"time\":1764000000,\"router\":"
              "\"fastnetmon\",\"src_ip\":\"::\",\"dst_ip\":\"2001:db8::5\",\"protocol\":0,\"bytes\":0,"
              "\"packets\":48,\"action\":\"pass\",\"policy_type\":\"observed\"}");
    CHECK_STR(json_string_value(json_array_get(ips, 1)), "2001:db8::5");
    CHECK_INT(a.n, 0);
    /* taken once; a late line of that minute is counted and dropped */
    CHECK_INT(fnm_graphite_take(&a, T0 + 120, records, ips), 0);
    add(&a, T0 + 120, PPS, "203_0_113_5", 100, T0 + 59);
    CHECK_INT(a.stats.late, 1);
    CHECK_INT(a.n, 0);
    json_decref(records);
    json_decref(ips);
    fnm_graphite_free(&a);
}

TEST(flush_rules)
{
    struct fnm_graphite_agg a;
    fnm_graphite_init(&a, FNM_GRAPHITE_GRACE_S);
    int64_t now = T0 + 10; /* parapet's clock behind FastNetMon's: the lines' times decide too */
    add(&a, now, PPS, "192_0_2_10", 60, T0 + 58);
    add(&a, now, PPS, "192_0_2_10", 120, T0 + 59);
    /* one second into the next minute: not yet (connections of a push may be read out of order) */
    add(&a, now, PPS, "192_0_2_11", 6, T0 + 61);
    add(&a, now, PPS, "192_0_2_10", 90, T0 + 59); /* the same second again: the last value counts */
    json_t *records = json_array();
    CHECK_INT(fnm_graphite_take(&a, now, records, NULL), 0);
    /* grace_s into the next minute: the earlier one is complete */
    add(&a, now, PPS, "192_0_2_11", 6, T0 + 60 + FNM_GRAPHITE_GRACE_S);
    CHECK_INT(fnm_graphite_take(&a, now, records, NULL), 1);
    /* (60 + 90) packets over 2 pushes × 60 */
    const char *r = json_string_value(json_array_get(records, 0));
    CHECK(r && strstr(r, "\"flow_id\":\"fnm-192.0.2.10-1764000000\""));
    CHECK(r && strstr(r, "\"packets\":4500,"));
    CHECK_INT(a.n, 1);
    /* far from the clock: refused */
    add(&a, now, PPS, "192_0_2_12", 6, now + 3600);
    add(&a, now, PPS, "192_0_2_12", 6, now - 7200);
    CHECK_INT(a.stats.late, 2);
    /* the clock alone ends minute T0+60 (2 pushes: 61 and 65) */
    CHECK_INT(fnm_graphite_take(&a, T0 + 125, records, NULL), 1);
    r = json_string_value(json_array_get(records, 1));
    CHECK(r && strstr(r, "\"flow_id\":\"fnm-192.0.2.11-1764000060\""));
    CHECK(r && strstr(r, "\"packets\":360,"));
    CHECK_INT(a.stats.records, 2);
    json_decref(records);
    fnm_graphite_free(&a);
}

TEST(many_hosts)
{
    struct fnm_graphite_agg a;
    fnm_graphite_init(&a, FNM_GRAPHITE_GRACE_S);
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 3000; i++) {
            char ip[32];
            snprintf(ip, sizeof ip, "10_%d_%d_1", i / 256, i % 256);
            add(&a, T0, BPS, ip, 8 * (uint64_t)(i + 1), T0 + 60 * m + 1);
            add(&a, T0, BPS, ip, 8 * (uint64_t)(i + 1), T0 + 60 * m + 1);
        }
    json_t *records = json_array();
    /* the second minute's lines are 1 s into it: the first one is not complete yet */
    CHECK_INT(fnm_graphite_take(&a, T0, records, NULL), 0);
    CHECK_INT(a.n, 6000);
    CHECK_INT(fnm_graphite_take(&a, T0 + 200, records, NULL), 6000);
    const char *r = json_string_value(json_array_get(records, 2999));
    CHECK(r && strstr(r, "\"dst_ip\":\"10.11.183.1\"") && strstr(r, "\"bytes\":180000,"));
    json_decref(records);
    fnm_graphite_free(&a);
}

UNIT_MAIN(UNIT_CASE(lines), UNIT_CASE(minute_means), UNIT_CASE(flush_rules), UNIT_CASE(many_hosts))
