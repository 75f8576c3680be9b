/* test_tel_record.c — telemetry/record.h: decoding and checking records
 * (docs/telemetry.md), and base/timefmt.h. */
#include "telemetry/record.h"

#include <stdlib.h>

#include "base/timefmt.h"
#include "unit.h"

static const int64_t NOW = 1764000000;

/* Decodes text; returns the message ("" on success). */
static const char *decode(const char *text, struct tel_record *rec, struct tel_locator *loc)
{
    static char msg[TEL_MSG_MAX];
    json_error_t je;
    json_t *v = json_loads(text, 0, &je);
    msg[0] = '\0';
    if (tel_record_decode(v, NOW, rec, loc, msg, sizeof msg) != 0 && !msg[0])
        snprintf(msg, sizeof msg, "(failed without a message)");
    json_decref(v);
    return msg;
}

TEST(flow_members_and_defaults)
{
    struct tel_record r;
    struct tel_locator l;
    CHECK_STR(decode("{\"kind\":\"flow\",\"flow_id\":\"a\",\"time\":1764000000,\"router\":\"r\","
                     "\"src_ip\":\"::ffff:198.51.100.7\",\"dst_ip\":\"192.0.2.1\",\"bytes\":10,\"packets\":2,"
                     "\"sampling_rate\":100}",
                     &r, &l),
              "");
    CHECK_INT(r.kind, TEL_FLOW);
    CHECK_INT(r.u.flow.bytes, 1000);
    CHECK_INT(r.u.flow.packets, 200);
    CHECK_INT(r.u.flow.action, 0);
    CHECK_INT(r.u.flow.protocol, 0);
    CHECK_INT(r.u.flow.src[0], NET_V4); /* the mapped address is IPv4 */
    CHECK_INT(r.u.flow.src[1], 198);
    CHECK(l.has_addr && l.addr.prefix == 32);
    /* the same flow_id gives the same key; another a different one */
    uint64_t fid = r.u.flow.fid;
    decode("{\"kind\":\"flow\",\"flow_id\":\"a\",\"time\":1764000001,\"router\":\"r\",\"src_ip\":\"1.1.1.1\","
           "\"dst_ip\":\"192.0.2.1\",\"bytes\":1,\"packets\":1}",
           &r, &l);
    CHECK(r.u.flow.fid == fid);
    decode("{\"kind\":\"flow\",\"flow_id\":\"b\",\"time\":1764000001,\"router\":\"r\",\"src_ip\":\"1.1.1.1\","
           "\"dst_ip\":\"192.0.2.1\",\"bytes\":1,\"packets\":1}",
           &r, &l);
    CHECK(r.u.flow.fid != fid && r.u.flow.fid < (1ULL << 63));
}

TEST(rules_name_the_member)
{
    struct tel_record r;
    struct tel_locator l;
    CHECK_STR(decode("[1]", &r, &l), "record: must be a JSON object");
    CHECK_STR(decode("{}", &r, &l), "kind: is required");
    CHECK_STR(decode("{\"kind\":\"flow\",\"flow_id\":\"a\",\"time\":1764000000,\"router\":\"r\",\"src_ip\":"
                     "\"1.1.1.1\",\"dst_ip\":\"192.0.2.1\",\"bytes\":-1,\"packets\":1}",
                     &r, &l),
              "bytes: must be an integer from 0 to 9223372036854");
    CHECK_STR(decode("{\"kind\":\"flow\",\"flow_id\":\"a\",\"time\":1764086401,\"router\":\"r\",\"src_ip\":"
                     "\"1.1.1.1\",\"dst_ip\":\"192.0.2.1\",\"bytes\":1,\"packets\":1}",
                     &r, &l),
              "time: must be a unix time from 2000-01-01 to one day from now");
    CHECK_STR(decode("{\"kind\":\"flow\",\"flow_id\":\"a\",\"time\":1764000000,\"router\":\"r\",\"src_ip\":"
                     "\"1.1.1.1\",\"dst_ip\":\"192.0.2.1\",\"bytes\":1,\"packets\":1,\"src_country\":\"nl\"}",
                     &r, &l),
              "src_country: must be an ISO 3166 alpha-2 code in capitals");
    CHECK_STR(decode("{\"kind\":\"ddos_event\",\"alert_id\":\"e\",\"attack_type\":\"TCP SYN\",\"start_time\":"
                     "1764000000}",
                     &r, &l),
              "site_ip: is required");
    CHECK_STR(decode("{\"kind\":\"ddos_event\",\"alert_id\":\"e\",\"attack_type\":\"TCP SYN\",\"site_ip\":"
                     "\"192.0.2.1/24\",\"start_time\":1764000000}",
                     &r, &l),
              "site_ip: must be an IPv4 or IPv6 address or block without host bits");
    CHECK_STR(decode("{\"kind\":\"waf_log\",\"_id\":\"w\",\"timestamp\":1764000000,\"domain_port_id\":\"p\","
                     "\"src_ip\":\"1.1.1.1\",\"attack_type\":\"xss\",\"severity\":\"blackhole\"}",
                     &r, &l),
              "severity: must be one of low, medium, high");
    json_decref(l.waf_entry);
}

TEST(ddos_event_and_waf_entry)
{
    struct tel_record r;
    struct tel_locator l;
    CHECK_STR(decode("{\"kind\":\"ddos_event\",\"alert_id\":\"e-1\",\"attack_type\":\"TCP SYN\",\"site_ip\":"
                     "\"192.0.2.0/24\",\"start_time\":1764000000,\"end_time\":null,\"severity\":\"blackhole\","
                     "\"p_type\":1}",
                     &r, &l),
              "");
    CHECK_STR(r.u.ev.site_ip, "192.0.2.0/24");
    CHECK_INT(r.u.ev.end_time, 0);
    CHECK_INT(r.u.ev.severity, TEL_SEV_BLACKHOLE);
    CHECK_INT(r.u.ev.p_type, 1);
    CHECK_INT(r.u.ev.ip_lo[4], 0);
    CHECK_INT(r.u.ev.ip_hi[4], 255);
    CHECK_STR(decode("{\"kind\":\"ddos_event\",\"alert_id\":\"e-2\",\"attack_type\":\"mixed\",\"site_id\":"
                     "\"0123456789abcdef\",\"start_time\":1764000000}",
                     &r, &l),
              "");
    CHECK_STR(l.attack_family, "ap");
    CHECK_STR(decode("{\"kind\":\"waf_log\",\"_id\":\"w\",\"timestamp\":1764000000,\"domain_port_id\":\"p\","
                     "\"src_ip\":\"2001:DB8::1\",\"attack_type\":\"xss\",\"http_path\":\"/x\"}",
                     &r, &l),
              "");
    CHECK_STR(json_string_value(json_object_get(l.waf_entry, "src_ip")), "2001:db8::1");
    CHECK_STR(json_string_value(json_object_get(l.waf_entry, "severity")), "low");
    CHECK_STR(json_string_value(json_object_get(l.waf_entry, "pattern")), "");
    json_decref(l.waf_entry);
}

TEST(bandwidth_minute)
{
    struct tel_record r;
    struct tel_locator l;
    CHECK_STR(decode("{\"kind\":\"bandwidth\",\"site_id\":\"s\",\"time\":1764000059,\"raw_in\":1,\"raw_out\":2,"
                     "\"clean_in\":1,\"clean_out\":2}",
                     &r, &l),
              "");
    CHECK_INT(r.u.bw.minute, 1764000000 - 1764000000 % 60);
}

TEST(time_text)
{
    int64_t t = 0;
    char buf[TIME_TEXT_LEN];
    CHECK_INT(time_parse_text("2025-11-24 16:00:00", 0, &t), 0);
    CHECK_INT(t, 1764000000);
    CHECK_INT(time_parse_text("2025-11-24T17:00:00", 3600, &t), 0); /* read at UTC+1 */
    CHECK_INT(t, 1764000000);
    CHECK_INT(time_parse_text("2025-02-29 00:00:00", 0, &t), -1);
    CHECK_INT(time_parse_text("2024-02-29 00:00:00", 0, &t), 0);
    CHECK_INT(time_parse_text("2025-11-24 24:00:00", 0, &t), -1);
    CHECK_INT(time_parse_text("2025-11-24 16:00", 0, &t), -1);
    time_format_text(1764000000, 0, buf);
    CHECK_STR(buf, "2025-11-24 16:00:00");
    time_format_text(1764000000, -5 * 3600, buf);
    CHECK_STR(buf, "2025-11-24 11:00:00");
    CHECK_INT(time_month_start(1764000000, 0), 1761955200); /* 2025-11-01 */
    CHECK_INT(time_floor(125, 60), 120);
    CHECK_INT(time_floor(-1, 60), -60);
    CHECK_INT(time_parse_stamp("1764000000", &t), 0);
    CHECK_INT(t, 1764000000);
    CHECK_INT(time_parse_stamp("17640000001", &t), -1);
    CHECK_INT(time_parse_stamp("-1", &t), -1);
}

UNIT_MAIN(UNIT_CASE(flow_members_and_defaults), UNIT_CASE(rules_name_the_member),
          UNIT_CASE(ddos_event_and_waf_entry), UNIT_CASE(bandwidth_minute), UNIT_CASE(time_text))
