/* dashboard_policy.c — GET {CPC}/dashboard/policy: the customer's dropped
 * and passed traffic toward its CleanPipe sites (or only toward `ips`, and
 * only what the countermeasure `policy_type` handled) as bps and pps series
 * over the window of the event list (up to now; one point per minute up to
 * 2 hours, then 10 minutes, then an hour: each the highest one-minute rate
 * in its bucket). */
#include <stdlib.h>

#include "api/op/dashboard_flows.h"
#include "base/timefmt.h"
#include "telemetry/record.h"

enum { POLICY_IPS_MAX = 64 };

int cp_dash_policy(struct req *r)
{
    int64_t now = dash_now(), start, end;
    struct dash_window_rule rule = {DASH_STAMP, time_month_start(now, 0), 0, DASH_MONTH_SPAN, "31 days", 0};
    if (dash_window(r, &rule, &start, &end) != 0)
        return 0;
    int64_t from = time_floor(start, DASH_MINUTE);
    int64_t to = time_floor(end < now ? end : now, DASH_MINUTE) + DASH_MINUTE;
    if (to < from)
        to = from;
    struct tel_range ranges[POLICY_IPS_MAX];
    size_t n = 0;
    json_t *ips = field_json(r, "ips"), *ip;
    size_t i;
    json_array_foreach (ips, i, ip) {
        struct cidr c;
        if (n < POLICY_IPS_MAX && cidr_parse(json_string_value(ip), CIDR_ALLOW_BARE, &c) == 0)
            tel_block_keys(&c, ranges[n].lo, ranges[n].hi), n++;
    }
    struct tel_minutes_query q = {.customer_id = r->customer.id, .site_kind = "cp.site",
                                  .policy = field_str(r, "policy_type"), .from = from, .to = to};
    struct tel_minute *m;
    size_t nm;
    if (dash_minutes(r, &q, ranges, n, &m, &nm) != 0)
        return 0;
    int64_t step = dash_step(to - from);
    json_t *out = json_pack("{s:o,s:o,s:o,s:o}", "drop_bps", dash_series(m, nm, from, to, step, DASH_BPS, DASH_DROP),
                            "drop_pps", dash_series(m, nm, from, to, step, DASH_PPS, DASH_DROP), "pass_bps",
                            dash_series(m, nm, from, to, step, DASH_BPS, DASH_PASS), "pass_pps",
                            dash_series(m, nm, from, to, step, DASH_PPS, DASH_PASS));
    free(m);
    return reply_result(r, out);
}
