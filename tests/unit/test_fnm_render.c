/* test_fnm_render.c — Origin Protection and CleanPipe sites as FastNetMon
 * 1.2.4 configuration (dataplane/fastnetmon/fnm_render.h), and parapet's
 * own validator of what it writes (fnm_validate.h), since 1.2.4's
 * --configuration_check passes garbage. */
#include <stdlib.h>
#include <string.h>

#include "dataplane/fastnetmon/fnm_render.h"
#include "dataplane/fastnetmon/fnm_validate.h"
#include "unit/unit.h"

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    if (!v)
        fprintf(stderr, "  bad JSON in test: %s (line %d)\n", e.text, e.line);
    return v;
}

static const char *part(const json_t *parts, const char *name)
{
    return json_string_value(json_object_get(parts, name));
}

static const struct fnm_settings settings = {
    .dir = "/srv/fnm", .netflow_host = "127.0.0.1", .netflow_port = 2055, .graphite_host = "127.0.0.1",
    .graphite_port = 2003, .notify_script = "/srv/fnm/notify.sh", .ban_time = 300, .average_calculation_time = 15};

/* A host 10.1.0.10 inside network 10.1.0.0/24 of site 10.1.0.0/24 +
 * 10.1.1.0/24: each block goes to its most specific level; the host's
 * thresholds come from its detection leaves (UDP total, the lowest TCP
 * leaf, total traffic in pps and Mbit/s rounded up). */
#define OP_SITE                                                                                              \
    "{\"rid\": 3, \"id\": \"a1\", \"blocks\": [\"10.1.0.0/24\", \"10.1.1.0/24\"],"                            \
    " \"defaults\": {\"total_traffic\": {\"total_traffic\": {\"is_enabled\": 1, \"low_pps\": \"500K\","        \
    "   \"low_bps\": \"1G\"}}},"                                                                              \
    " \"allow_list\": {\"is_enabled\": 0},"                                                                   \
    " \"networks\": [{\"rid\": 4, \"blocks\": [\"10.1.0.0/24\"], \"hosts\": [{\"rid\": 5,"                    \
    "   \"blocks\": [\"10.1.0.10/32\"], \"detection\": {"                                                      \
    "     \"total_traffic\": {\"total_traffic\": {\"is_enabled\": 1, \"low_pps\": \"2K\", \"low_bps\": \"1500K\"}}," \
    "     \"udp\": {\"udp_total\": {\"is_enabled\": 1, \"low_pps\": \"500\"}},"                                 \
    "     \"tcp\": {\"tcp_syn\": {\"is_enabled\": 1, \"low_pps\": \"50K\"}, \"tcp_ack\": {\"is_enabled\": 1,"    \
    "       \"low_pps\": \"30K\"}, \"tcp_rst\": {\"is_enabled\": 0, \"low_pps\": \"1\"}},"                        \
    "     \"icmp\": {\"icmp_total\": {\"is_enabled\": 0, \"low_pps\": \"5\"}}}}]}]}"

TEST(op_site_groups)
{
    json_t *site = parse(OP_SITE);
    json_t *out = fnm_render_site(site, "op", NULL);
    const char *conf = part(out, FNM_CONF);
    CHECK_STR(part(out, FNM_NETWORKS), "10.1.0.10/32\n10.1.0.0/24\n10.1.1.0/24\n");
    CHECK_STR(part(out, FNM_WHITELIST), "");
    CHECK(strstr(conf, "hostgroup = op_host_5:10.1.0.10/32\n"
                       "op_host_5_ban_for_pps = on\nop_host_5_threshold_pps = 2000\n"
                       "op_host_5_ban_for_bandwidth = on\nop_host_5_threshold_mbps = 2\n") != NULL);
    CHECK(strstr(conf, "op_host_5_ban_for_tcp_pps = on\nop_host_5_threshold_tcp_pps = 30000\n") != NULL);
    CHECK(strstr(conf, "op_host_5_ban_for_udp_pps = on\nop_host_5_threshold_udp_pps = 500\n") != NULL);
    CHECK(strstr(conf, "op_host_5_ban_for_icmp_pps = off\nop_host_5_threshold_icmp_pps = 0\n") != NULL);
    CHECK(strstr(conf, "hostgroup = op_net_4:10.1.0.0/24\n") != NULL);
    CHECK(strstr(conf, "hostgroup = op_site_3:10.1.1.0/24\n") != NULL); /* 10.1.0.0/24 is the network's */
    CHECK(strstr(conf, "op_site_3_threshold_pps = 500000\n") != NULL);
    /* a whole file, header and site, passes parapet's validator */
    json_t *head = fnm_render_header(&settings);
    char *whole = NULL;
    if (asprintf(&whole, "%s%s", part(head, FNM_CONF), conf) > 0) {
        char why[512] = "";
        CHECK_INT(fnm_validate(whole, part(out, FNM_NETWORKS), "", why, sizeof why), 0);
        CHECK_STR(why, "");
    }
    CHECK(strstr(part(head, FNM_CONF), "disable_usage_report = on\n") != NULL);
    CHECK(strstr(part(head, FNM_CONF), "notify_script_path = /srv/fnm/notify.sh\n") != NULL);
    CHECK(strstr(part(head, FNM_CONF), "graphite_port = 2003\n") != NULL);
    free(whole);
    json_decref(head), json_decref(out), json_decref(site);
}

/* CleanPipe: hosts hold bare addresses (rendered /32); detection switched
 * off puts the site's blocks on the white list. */
TEST(cp_site_white_list)
{
    json_t *site = parse("{\"rid\": 8, \"blocks\": [\"198.18.0.0/24\"], \"defaults\": {},"
                         " \"policy\": {\"detection\": 0}, \"hosts\": [{\"rid\": 9, \"blocks\": [\"198.18.0.5\"],"
                         " \"policy\": {\"is_customize\": 0}}]}");
    json_t *out = fnm_render_site(site, "cp", NULL);
    CHECK_STR(part(out, FNM_NETWORKS), "198.18.0.5/32\n198.18.0.0/24\n");
    CHECK_STR(part(out, FNM_WHITELIST), "198.18.0.0/24\n");
    CHECK(strstr(part(out, FNM_CONF), "hostgroup = cp_host_9:198.18.0.5/32\n") != NULL);
    json_decref(out), json_decref(site);
}

/* A stored block that is not a canonical CIDR (it could only get there
 * around the API) is left out, never written: it could end the hostgroup
 * line or add a line to networks_list. */
TEST(non_canonical_blocks_left_out)
{
    json_t *site = parse("{\"rid\": 3, \"blocks\": [\"10.1.1.0/24\\nhostgroup = evil:0.0.0.0/0\", \"10.1.2.0/24\","
                         " \"10.1.3.1/24\", \"10.1.4.0/24 \", \"10.1.5.0/24,0.0.0.0/0\"], \"defaults\": {},"
                         " \"allow_list\": {\"is_enabled\": 0}, \"networks\": []}");
    json_t *out = fnm_render_site(site, "op", NULL);
    CHECK_STR(part(out, FNM_NETWORKS), "10.1.2.0/24\n");
    CHECK(strstr(part(out, FNM_CONF), "hostgroup = op_site_3:10.1.2.0/24\n") != NULL);
    CHECK(strstr(part(out, FNM_CONF), "evil") == NULL);
    json_decref(out), json_decref(site);
}

/* What 1.2.4 would take silently and parapet refuses. */
TEST(validator_refusals)
{
    json_t *head = fnm_render_header(&settings);
    const char *base = part(head, FNM_CONF);
    char *conf = NULL, why[512];
    static const struct {
        const char *extra, *networks, *want;
    } cases[] = {
        {"garbage line\n", "", "must be KEY = VALUE"},
        {"ban_time = 30 # seconds\n", "", "no comment may follow a value"},
        {"threshold_pps = abc\n", "", "unknown key 'threshold_pps'"},
        {"hostgroup = g1:10.0.0.0/24\n", "", "is not listed verbatim in networks_list"},
        {"hostgroup = g2:999.1.1.1/33\n", "", "is not a canonical CIDR"},
        {"hostgroup = g3:10.0.0.0/24\n", "10.0.0.0/24\n", "g3"},
        {"", "10.0.0.1/24\n", "is not a canonical CIDR"},
        {"hostgroup = g_a:10.0.0.0/24\ng_b_threshold_pps = 5\n", "10.0.0.0/24\n", "unknown key 'g_b_threshold_pps'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (asprintf(&conf, "%s%s", base, cases[i].extra) < 0)
            continue;
        why[0] = '\0';
        CHECK_INT(fnm_validate(conf, cases[i].networks, "", why, sizeof why), 1);
        if (!strstr(why, cases[i].want))
            fprintf(stderr, "  case %zu: why = %s\n", i, why), unit_failed_checks++;
        free(conf);
    }
    /* the usage report must be off */
    char *no_report = strdup(base), *at = strstr(no_report, "disable_usage_report = on");
    if (at)
        memcpy(at, "disable_usage_report = of", 25);
    CHECK_INT(fnm_validate(no_report, "", "", why, sizeof why), 1);
    free(no_report);
    json_decref(head);
    CHECK(fnm_check_line_fails("[ERROR] Can't parse config line garbage"));
    CHECK(!fnm_check_line_fails("[ERROR] Folder for attack details does not exist: /var/log/fastnetmon_attacks"));
    CHECK(!fnm_check_line_fails("[INFO] Configuration file is correct"));
}

UNIT_MAIN(UNIT_CASE(op_site_groups), UNIT_CASE(cp_site_white_list), UNIT_CASE(non_canonical_blocks_left_out),
          UNIT_CASE(validator_refusals))
