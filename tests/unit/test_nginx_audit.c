/* test_nginx_audit.c — ModSecurity JSON audit log entries as waf_log
 * records (dataplane/nginx/waf_audit.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dataplane/nginx/waf_audit.h"
#include "unit/unit.h"

/* An entry as ModSecurity 3.0.9 wrote it behind the rendered configuration (abridged headers). */
#define SQLI_ENTRY                                                                                           \
    "{\"transaction\":{\"client_ip\":\"203.0.113.50\",\"time_stamp\":\"Wed Nov 25 06:15:01 2026\","            \
    "\"server_id\":\"2ce1\",\"client_port\":57166,\"host_ip\":\"127.0.0.1\",\"host_port\":28443,"            \
    "\"unique_id\":\"6c2dd2cd2b58ca75-b62081a1c47ddb04096b4ca0d0887e86\",\"request\":{\"method\":\"GET\","     \
    "\"http_version\":1.1,\"uri\":\"/search?id=1'%20OR%20'1'='1\",\"headers\":{\"Host\":\"shop.example\","    \
    "\"User-Agent\":\"curl/7.88.1\"}},\"response\":{\"http_code\":403},\"producer\":{\"modsecurity\":"        \
    "\"ModSecurity v3.0.9 (Linux)\",\"components\":[\"OWASP_CRS/3.3.4\\\"\"]},\"messages\":["                 \
    "{\"message\":\"Inbound Anomaly Score Exceeded (Total Score: 5)\",\"details\":{\"ruleId\":\"20192\","     \
    "\"severity\":\"0\",\"data\":\"\"}},"                                                                     \
    "{\"message\":\"SQL Injection Attack Detected via libinjection\",\"details\":{\"match\":\"detected SQLi\"," \
    "\"ruleId\":\"942100\",\"file\":\"/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI."  \
    "conf\",\"lineNumber\":\"46\",\"data\":\"Matched Data: s&sos found within ARGS:id: 1' OR '1'='1\","       \
    "\"severity\":\"2\",\"ver\":\"OWASP_CRS/3.3.4\",\"tags\":[]}}]}}"

static char *dump(json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
}

TEST(sqli_entry)
{
    json_t *rec = NULL;
    const char *line = SQLI_ENTRY;
    CHECK_INT(waf_audit_record(line, strlen(line), 1795590000, &rec), 1);
    char *s = dump(rec);
    CHECK(s && strstr(s, "\"_id\":\"6c2dd2cd2b58ca75-b62081a1c47ddb04096b4ca0d0887e86\""));
    CHECK(s && strstr(s, "\"domain_port_id\":\"6c2dd2cd2b58ca75\""));
    CHECK(s && strstr(s, "\"kind\":\"waf_log\""));
    CHECK(s && strstr(s, "\"attack_type\":\"sqli\""));
    CHECK(s && strstr(s, "\"rule_id\":\"942100\"")); /* the detection rule, not the verdict */
    CHECK(s && strstr(s, "\"action\":\"block\""));
    CHECK(s && strstr(s, "\"severity\":\"high\""));
    CHECK(s && strstr(s, "\"src_ip\":\"203.0.113.50\""));
    CHECK(s && strstr(s, "\"host\":\"shop.example\""));
    CHECK(s && strstr(s, "\"http_method\":\"GET\""));
    CHECK(s && strstr(s, "\"http_path\":\"/search\""));
    CHECK(s && strstr(s, "\"location\":\"ARGS:id\""));
    CHECK(s && strstr(s, "\"match_content\":\"1' OR '1'='1\""));
    CHECK(s && strstr(s, "\"pattern\":\"SQL Injection Attack Detected via libinjection\""));
    /* ModSecurity writes local time without a zone: read as this host's */
    struct tm tm = {.tm_year = 126, .tm_mon = 10, .tm_mday = 25, .tm_hour = 6, .tm_min = 15, .tm_sec = 1,
                    .tm_isdst = -1};
    CHECK_INT(json_integer_value(json_object_get(rec, "timestamp")), (long long)mktime(&tm));
    free(s);
    json_decref(rec);
}

TEST(other_entries)
{
    json_t *rec = NULL;
    /* log mode (the request passed): action log; a custom rule: others */
    const char *logged = "{\"transaction\":{\"client_ip\":\"192.0.2.7\",\"time_stamp\":\"garbage\","
                         "\"unique_id\":\"0123456789abcdef-00ff\",\"request\":{\"method\":\"POST\",\"uri\":\"/a\","
                         "\"headers\":{}},\"response\":{\"http_code\":200},\"messages\":[{\"message\":\"no admin\","
                         "\"details\":{\"ruleId\":\"10003\",\"severity\":\"\",\"data\":\"\"}}]}}";
    CHECK_INT(waf_audit_record(logged, strlen(logged), 1700000000, &rec), 1);
    CHECK_STR(json_string_value(json_object_get(rec, "action")), "log");
    CHECK_STR(json_string_value(json_object_get(rec, "attack_type")), "others");
    CHECK_STR(json_string_value(json_object_get(rec, "severity")), "low");
    CHECK_INT(json_integer_value(json_object_get(rec, "timestamp")), 1700000000); /* unreadable time: now */
    json_decref(rec);
    /* parapet's own OWASP rules and CRS groups map to their keys */
    const char *xss = "{\"transaction\":{\"client_ip\":\"192.0.2.7\",\"unique_id\":\"0123456789abcdef-01\","
                      "\"request\":{\"uri\":\"/\"},\"response\":{\"http_code\":403},\"messages\":["
                      "{\"message\":\"x\",\"details\":{\"ruleId\":\"941100\",\"severity\":\"2\"}}]}}";
    CHECK_INT(waf_audit_record(xss, strlen(xss), 1700000000, &rec), 1);
    CHECK_STR(json_string_value(json_object_get(rec, "attack_type")), "xss");
    json_decref(rec);
    /* nothing matched (a backend's 500), or not a parapet domain port: nothing to report */
    const char *plain = "{\"transaction\":{\"unique_id\":\"0123456789abcdef-02\",\"response\":{\"http_code\":500},"
                        "\"messages\":[]}}";
    CHECK_INT(waf_audit_record(plain, strlen(plain), 1, &rec), 0);
    const char *foreign = "{\"transaction\":{\"unique_id\":\"179541469634.270564\",\"messages\":[{\"message\":\"x\","
                          "\"details\":{\"ruleId\":\"942100\"}}]}}";
    CHECK_INT(waf_audit_record(foreign, strlen(foreign), 1, &rec), 0);
    CHECK_INT(waf_audit_record("not json", 8, 1, &rec), -1);
    CHECK_INT(waf_audit_record("{\"a\":1}", 7, 1, &rec), -1);
}

UNIT_MAIN(UNIT_CASE(sqli_entry), UNIT_CASE(other_entries))
