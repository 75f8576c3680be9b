/* test_fnm_notify.c — dataplane/fastnetmon/fnm_notify.h: FastNetMon 1.2.4's
 * notify-script arguments and stdin report as `ddos_event` records. */
#include <stdlib.h>

#include "dataplane/fastnetmon/fnm_notify.h"
#include "unit.h"

/* A ban report as FastNetMon 1.2.4 writes it (fastnetmon_logic.cpp
 * get_attack_description: "IP:", serialize_attack_description, the
 * statistic counters, then the flow or packet dump). */
static const char REPORT[] = "IP: 203.0.113.5\n"
                             "Attack type: udp_flood\n"
                             "Initial attack power: 906 packets per second\n"
                             "Peak attack power: 1250 packets per second\n"
                             "Attack direction: incoming\n"
                             "Attack protocol: udp\n"
                             "Total incoming traffic: 3 mbps\n"
                             "Total outgoing traffic: 0 mbps\n"
                             "Total incoming pps: 906 packets per second\n"
                             "Total outgoing pps: 0 packets per second\n"
                             "Total incoming flows: 10 flows per second\n"
                             "Total outgoing flows: 0 flows per second\n"
                             "Average incoming traffic: 2 mbps\n"
                             "Average outgoing traffic: 0 mbps\n"
                             "Average incoming pps: 880 packets per second\n"
                             "Average outgoing pps: 0 packets per second\n"
                             "Average incoming flows: 9 flows per second\n"
                             "Average outgoing flows: 0 flows per second\n"
                             "Incoming ip fragmented traffic: 0 mbps\n"
                             "Outgoing ip fragmented traffic: 0 mbps\n"
                             "Incoming ip fragmented pps: 0 packets per second\n"
                             "Outgoing ip fragmented pps: 0 packets per second\n"
                             "Incoming tcp traffic: 0 mbps\n"
                             "Outgoing tcp traffic: 0 mbps\n"
                             "Incoming tcp pps: 0 packets per second\n"
                             "Outgoing tcp pps: 0 packets per second\n"
                             "Incoming syn tcp traffic: 0 mbps\n"
                             "Outgoing syn tcp traffic: 0 mbps\n"
                             "Incoming syn tcp pps: 0 packets per second\n"
                             "Outgoing syn tcp pps: 0 packets per second\n"
                             "Incoming udp traffic: 3 mbps\n"
                             "Outgoing udp traffic: 0 mbps\n"
                             "Incoming udp pps: 906 packets per second\n"
                             "Outgoing udp pps: 0 packets per second\n"
                             "Incoming icmp traffic: 0 mbps\n"
                             "Outgoing icmp traffic: 0 mbps\n"
                             "Incoming icmp pps: 0 packets per second\n"
                             "Outgoing icmp pps: 0 packets per second\n"
                             "\n"
                             "Average packet size for incoming traffic: 414.0 bytes \n"
                             "UDP flows: 10\n"
                             "203.0.113.5:53 < 192.0.2.1:40000 256000 bytes 500 packets\n"
                             "203.0.113.5:53 < 192.0.2.2:40001 256000 bytes 500 packets\n";

static int args(const char *ip, const char *dir, const char *pps, const char *action,
                struct fnm_notify_args *out)
{
    char *argv[4] = {(char *)ip, (char *)dir, (char *)pps, (char *)action};
    char msg[256];
    return fnm_notify_parse_args(argv, out, msg, sizeof msg);
}

TEST(arguments)
{
    struct fnm_notify_args a;
    CHECK_INT(args("203.0.113.5", "incoming", "906", "ban", &a), 0);
    CHECK_STR(a.ip, "203.0.113.5");
    CHECK_STR(a.direction, "incoming");
    CHECK_INT(a.pps, 906);
    CHECK_INT(a.action, FNM_BAN);
    CHECK_INT(args("2001:DB8:0:0::7", "outgoing", "0", "unban", &a), 0);
    CHECK_STR(a.ip, "2001:db8::7"); /* canonical: the state file and the id do not depend on the spelling */
    CHECK_INT(a.action, FNM_UNBAN);
    CHECK_INT(args("192.0.2.1", "other", "18446744073709551615", "attack_details", &a), 0);
    CHECK_INT(a.pps, INT64_MAX);
    CHECK_INT(a.action, FNM_ATTACK_DETAILS);

    char msg[256];
    char *bad[][4] = {{"203.0.113", "incoming", "1", "ban"},     {"203.0.113.5/32", "incoming", "1", "ban"},
                      {"../../x", "incoming", "1", "ban"},       {"", "incoming", "1", "ban"},
                      {"2001:db8::zz", "incoming", "1", "ban"},  {"203.0.113.5", "Incoming", "1", "ban"},
                      {"203.0.113.5", "in", "1", "ban"},         {"203.0.113.5", "incoming", "-1", "ban"},
                      {"203.0.113.5", "incoming", "", "ban"},    {"203.0.113.5", "incoming", "1.5", "ban"},
                      {"203.0.113.5", "incoming", "1", "block"}, {"203.0.113.5", "incoming", "1", "BAN"},
                      {"203.0.113.5", "incoming", "1", ""}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        msg[0] = '\0';
        CHECK_INT(fnm_notify_parse_args(bad[i], &a, msg, sizeof msg), -1);
        CHECK(msg[0] != '\0');
    }
    CHECK(fnm_notify_parse_args(bad[5], &a, msg, sizeof msg) == -1 && strncmp(msg, "DIRECTION", 9) == 0);
    CHECK(fnm_notify_parse_args(bad[10], &a, msg, sizeof msg) == -1 && strncmp(msg, "ACTION", 6) == 0);
}

TEST(report)
{
    struct fnm_report r = {0};
    fnm_report_parse(&r, REPORT, strlen(REPORT));
    CHECK_STR(r.attack_type, "udp_flood");
    CHECK_INT(r.initial_pps, 906);
    CHECK_INT(r.peak_pps, 1250);
    CHECK_INT(r.in_mbps, 3);

    /* CRLF, a truncated report, lines that only look alike */
    struct fnm_report t = {0};
    const char odd[] =
        "Attack type: syn_flood\r\nPeak attack power: lots packets per second\n"
        "Total incoming traffic: 12 gbps\nTotal incoming traffic: 7 mbps\nInitial attack power: 5";
    fnm_report_parse(&t, odd, strlen(odd));
    CHECK_STR(t.attack_type, "syn_flood");
    CHECK_INT(t.peak_pps, 0);
    CHECK_INT(t.in_mbps, 7);
    CHECK_INT(t.initial_pps, 0);
}

TEST(attack_types)
{
    CHECK_STR(fnm_attack_type("syn_flood"), "TCP SYN");
    CHECK_STR(fnm_attack_type("udp_flood"), "UDP Total");
    CHECK_STR(fnm_attack_type("icmp_flood"), "ICMP Total");
    CHECK_STR(fnm_attack_type("ip_fragmentation"), "IP Fragmentation");
    CHECK_STR(fnm_attack_type("unknown"), "Total Traffic");
    CHECK_STR(fnm_attack_type(""), "Total Traffic");
    CHECK_STR(fnm_attack_type("SYN_FLOOD"), "Total Traffic");
}

TEST(ban_details_unban)
{
    struct fnm_notify_args a;
    struct fnm_report r = {0};
    fnm_report_parse(&r, REPORT, strlen(REPORT));
    args("203.0.113.5", "incoming", "906", "ban", &a);
    struct fnm_ban b;
    fnm_ban_open(&b, &a, &r, 1764000000);
    char *rec = fnm_ban_record(&b, a.ip, 0);
    CHECK_STR(
        rec,
        "{\"kind\":\"ddos_event\",\"alert_id\":\"fnm-203.0.113.5-1764000000\",\"attack_type\":\"UDP "
        "Total\",\"site_ip\":\"203.0.113.5\",\"start_time\":1764000000,\"max_bps\":3000000,\"max_pps\":"
        "1250,\"severity\":\"high\",\"profile_name\":\"fastnetmon\",\"profile_desc\":\"FastNetMon notify "
        "script\",\"end_time\":null}");
    free(rec);

    /* the state file round trip */
    char *st = fnm_ban_dump(&b);
    struct fnm_ban back;
    CHECK_INT(fnm_ban_load(st, &back), 0);
    CHECK_STR(back.alert_id, b.alert_id);
    CHECK_STR(back.attack_type, "UDP Total");
    CHECK_INT(back.start_time, 1764000000);
    CHECK_INT(back.max_pps, 1250);
    CHECK_INT(back.max_bps, 3000000);
    free(st);
    CHECK_INT(fnm_ban_load("", &back), -1);
    CHECK_INT(fnm_ban_load("{\"alert_id\":\"x\"}", &back), -1);
    CHECK_INT(fnm_ban_load(
                  "{\"alert_id\":\"x\",\"start_time\":1,\"attack_type\":\"t\",\"max_pps\":-1,\"max_bps\":0}",
                  &back),
              -1);

    /* attack_details: larger peaks raise, smaller ones do not lower; the type stays the ban's */
    struct fnm_report d = {0};
    const char more[] = "Attack type: syn_flood\nInitial attack power: 906 packets per second\n"
                        "Peak attack power: 4000 packets per second\nTotal incoming traffic: 2 mbps\n";
    fnm_report_parse(&d, more, strlen(more));
    fnm_ban_raise(&b, &a, &d);
    CHECK_INT(b.max_pps, 4000);
    CHECK_INT(b.max_bps, 3000000);
    CHECK_STR(b.attack_type, "UDP Total");

    /* unban: no report; the pps argument may still raise */
    args("203.0.113.5", "incoming", "5000", "unban", &a);
    fnm_ban_raise(&b, &a, NULL);
    CHECK_INT(b.max_pps, 5000);
    rec = fnm_ban_record(&b, a.ip, 1764000300);
    CHECK(rec && strstr(rec, "\"alert_id\":\"fnm-203.0.113.5-1764000000\""));
    CHECK(rec && strstr(rec, "\"max_pps\":5000"));
    CHECK(rec && strstr(rec, "\"end_time\":1764000300}"));
    free(rec);
}

TEST(each_type_and_peaks)
{
    static const char *const types[][2] = {{"syn_flood", "TCP SYN"},
                                           {"udp_flood", "UDP Total"},
                                           {"icmp_flood", "ICMP Total"},
                                           {"ip_fragmentation", "IP Fragmentation"},
                                           {"unknown", "Total Traffic"}};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "IP: 0.0.0.0\nAttack type: %s\nInitial attack power: 10 packets per second\n"
                 "Peak attack power: 20 packets per second\nTotal incoming traffic: %zu mbps\n",
                 types[i][0], i * 1000);
        struct fnm_report r = {0};
        fnm_report_parse(&r, text, strlen(text));
        struct fnm_notify_args a;
        args("2001:db8::5", "incoming", "30", "ban", &a); /* the argument's peak beats the report's */
        struct fnm_ban b;
        fnm_ban_open(&b, &a, &r, 1764000000 + (int64_t)i);
        CHECK_STR(b.attack_type, types[i][1]);
        CHECK_INT(b.max_pps, 30);
        CHECK_INT(b.max_bps, (int64_t)i * 1000000000);
        char id[64];
        snprintf(id, sizeof id, "fnm-2001:db8::5-%lld", 1764000000LL + (long long)i);
        CHECK_STR(b.alert_id, id);
        char *rec = fnm_ban_record(&b, a.ip, 0);
        CHECK(rec &&
              strstr(rec, "\"site_ip\":\"2001:db8::5\"")); /* not the report's IP line (0.0.0.0 for IPv6) */
        free(rec);
    }
    /* no report at all (run by hand): Total Traffic, the argument's rate */
    struct fnm_notify_args a;
    args("192.0.2.9", "incoming", "77", "ban", &a);
    struct fnm_ban b;
    fnm_ban_open(&b, &a, NULL, 1764000000);
    CHECK_STR(b.attack_type, "Total Traffic");
    CHECK_INT(b.max_pps, 77);
    CHECK_INT(b.max_bps, 0);
}

UNIT_MAIN(UNIT_CASE(arguments), UNIT_CASE(report), UNIT_CASE(attack_types), UNIT_CASE(ban_details_unban),
          UNIT_CASE(each_type_and_peaks))
