/* test_dashboard_ap.c — api/ap/dashboard_calc.h: the bandwidth periods and
 * series, a WAF event's attack_type_summary and CSV cells of the
 * Application Protection dashboards. */
#include "api/ap/dashboard_calc.h"

#include <stdlib.h>

#include "unit.h"

static char *dump(json_t *v)
{
    static char text[4096];
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    snprintf(text, sizeof text, "%s", s ? s : "(null)");
    free(s);
    json_decref(v);
    return text;
}

TEST(periods)
{
    const struct ap_bw_period *hour = ap_bw_period("hour"), *month = ap_bw_period("month");
    CHECK(hour && month && !ap_bw_period("year") && !ap_bw_period(NULL));
    CHECK_INT(hour->min_span, 60);
    CHECK_INT(hour->max_span, 7200);
    CHECK_INT(hour->step, 60);
    CHECK_INT(ap_bw_period("day")->step, 600);
    CHECK_INT(ap_bw_period("week")->step, 3600);
    CHECK_INT(month->min_span, 7 * 86400);
    CHECK_INT(month->max_span, 31 * 86400);
}

TEST(series_means_of_buckets)
{
    /* minutes 600..1140; the bucket of 600 s starting at 600 has samples at
     * 600 and 660 (in: 100 and 300), the one at 1200 none */
    struct tel_bw_minute m[] = {{600, 100, 10, 50, 5}, {660, 300, 30, 150, 15}, {1260, 7, 70, 1, 2}};
    json_t *in, *out;
    int64_t max;
    ap_bw_series(m, 3, AP_BW_RAW, 600, 1800, 600, 100000, &in, &out, &max);
    CHECK_STR(dump(in), "[{\"time\":600,\"value\":40},{\"time\":1200,\"value\":0}]");
    CHECK_STR(dump(out), "[{\"time\":600,\"value\":4},{\"time\":1200,\"value\":7}]");
    CHECK_INT(max, 300);
    ap_bw_series(m, 3, AP_BW_CLEAN, 600, 1800, 600, 100000, &in, &out, &max);
    CHECK_STR(dump(in), "[{\"time\":600,\"value\":20},{\"time\":1200,\"value\":0}]");
    dump(out);
    CHECK_INT(max, 150);
}

TEST(series_edges)
{
    struct tel_bw_minute m[] = {{540, 999, 999, 999, 999}, {600, 60, 0, 0, 0}, {660, 120, 0, 0, 0}};
    json_t *in, *out;
    int64_t max;
    /* from inside a bucket: the bucket starts at its floor; the max looks only at the window */
    ap_bw_series(m, 3, AP_BW_RAW, 630, 700, 60, 100000, &in, &out, &max);
    CHECK_STR(dump(in), "[{\"time\":600,\"value\":60},{\"time\":660,\"value\":120}]");
    dump(out);
    CHECK_INT(max, 120);
    /* the bucket holding now counts only its complete minutes: 600 and 660 of 600..1199 at now 725 */
    ap_bw_series(m + 1, 2, AP_BW_RAW, 600, 1200, 600, 725, &in, &out, &max);
    CHECK_STR(dump(in), "[{\"time\":600,\"value\":90}]");
    dump(out);
    /* a bucket wholly in the future is 0 */
    ap_bw_series(m + 1, 2, AP_BW_RAW, 600, 1800, 600, 700, &in, &out, &max);
    CHECK_STR(dump(in), "[{\"time\":600,\"value\":60},{\"time\":1200,\"value\":0}]");
    dump(out);
    /* no samples: zero-filled */
    ap_bw_series(NULL, 0, AP_BW_RAW, 0, 180, 60, 100000, &in, &out, &max);
    CHECK_STR(dump(in), "[{\"time\":0,\"value\":0},{\"time\":60,\"value\":0},{\"time\":120,\"value\":0}]");
    dump(out);
    CHECK_INT(max, 0);
}

TEST(type_summary)
{
    json_t *rows = json_loads("[{\"key\":\"sqli\",\"count\":2},{\"key\":\"oscmd\",\"count\":1},"
                              "{\"key\":\"path_traversal\",\"count\":1},{\"key\":\"xss\",\"count\":1}]",
                              0, NULL);
    CHECK_STR(dump(ap_waf_type_summary(rows, 6)),
              "{\"sqli\":{\"count\":2,\"name\":\"SQL injection\",\"percent\":33},"
              "\"oscmd\":{\"count\":1,\"name\":\"OS command injection\",\"percent\":17},"
              "\"path_traversal\":{\"count\":1,\"name\":\"Path traversal\",\"percent\":17},"
              "\"others\":{\"count\":2,\"name\":\"Others\",\"percent\":33}}");
    json_decref(rows);
    /* "others" among the commonest: the next type is listed, others holds the rest */
    rows = json_loads("[{\"key\":\"others\",\"count\":5},{\"key\":\"xss\",\"count\":3}]", 0, NULL);
    CHECK_STR(dump(ap_waf_type_summary(rows, 8)),
              "{\"xss\":{\"count\":3,\"name\":\"Cross-site scripting\",\"percent\":38},"
              "\"others\":{\"count\":5,\"name\":\"Others\",\"percent\":62}}");
    json_decref(rows);
    /* none: others alone, 0 */
    rows = json_array();
    CHECK_STR(dump(ap_waf_type_summary(rows, 0)), "{\"others\":{\"count\":0,\"name\":\"Others\",\"percent\":0}}");
    json_decref(rows);
}

TEST(csv_cells)
{
    struct strbuf b = {0};
    ap_csv_cell(&b, "plain");
    sb_add(&b, "|");
    ap_csv_cell(&b, "a,b \"c\"");
    sb_add(&b, "|");
    ap_csv_cell(&b, "=HYPERLINK(\"x\")");
    sb_add(&b, "|");
    ap_csv_cell(&b, "-1+2");
    sb_add(&b, "|");
    ap_csv_cell(&b, "@SUM(A1)");
    sb_add(&b, "|");
    ap_csv_cell(&b, "\tx");
    sb_add(&b, "|");
    ap_csv_cell(&b, NULL);
    sb_add(&b, "|");
    ap_csv_cell(&b, "line\nbreak");
    CHECK_STR(sb_text(&b), "plain|\"a,b \"\"c\"\"\"|\"'=HYPERLINK(\"\"x\"\")\"|\"'-1+2\"|\"'@SUM(A1)\"|\"'\tx\"||"
                           "\"line\nbreak\"");
    sb_free(&b);
    CHECK_STR(ap_attack_type_name("xxe_injection"), "XML external entity injection");
    CHECK_STR(ap_attack_type_name("unknown_key"), "unknown_key");
}

UNIT_MAIN(UNIT_CASE(periods), UNIT_CASE(series_means_of_buckets), UNIT_CASE(series_edges), UNIT_CASE(type_summary),
          UNIT_CASE(csv_cells))
