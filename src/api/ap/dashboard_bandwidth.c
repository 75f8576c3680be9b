/* dashboard_bandwidth.c — a site's raw and clean bandwidth (doc 002:
 * .../site/{site_id}/traffic/bandwidth/{bandwidth_type} over a window the
 * caller gives, and .../overview/traffic/bandwidth/clean over the last hour
 * or day; docs/decisions.md, "Dashboards: Application Protection"), from
 * the per-minute samples of tel_bandwidth. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/ap/ap.h"
#include "api/ap/ap_kinds.h"
#include "api/ap/dashboard_calc.h"
#include "base/timefmt.h"

static int reply_series(struct req *r, const struct resource *site, enum ap_bw_kind kind, int64_t from, int64_t to,
                        int64_t step, int64_t now)
{
    struct tel_bw_minute *m;
    size_t n;
    int rc = r->store->ops->tel_bandwidth_minutes(r->store, site->rid, time_floor(from, step), to, &m, &n);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *in, *out;
    int64_t max;
    ap_bw_series(m, n, kind, from, to, step, now, &in, &out, &max);
    free(m);
    return reply_result(r, json_pack("{s:o,s:o,s:I}", "in", in, "out", out, "max", (json_int_t)max));
}

/* start_time or end_time: seconds, sent as a string of digits. */
static int read_seconds(struct req *r, const char *name, int64_t *out)
{
    if (time_parse_stamp(field_str(r, name), out) != 0)
        return reply_error(r, E_FIELD_INVALID, "%s: must be a timestamp in seconds", name), -1;
    return 0;
}

int ap_dash_bandwidth(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    const char *type = path_param(r, "bandwidth_type");
    enum ap_bw_kind kind = strcmp(type, "raw") == 0 ? AP_BW_RAW : AP_BW_CLEAN;
    int64_t from, to;
    if (read_seconds(r, "start_time", &from) != 0 || read_seconds(r, "end_time", &to) != 0)
        return 0;
    const struct ap_bw_period *p = ap_bw_period(field_str(r, "period"));
    int64_t span = to - from;
    if (span <= p->min_span || span >= p->max_span)
        return reply_error(r, E_RULE, "end_time: with period %s the span from start_time must be %s", p->name,
                           p->span_text);
    return reply_series(r, &site, kind, from, to, p->step, (int64_t)time(NULL));
}

/* The last hour (a point a minute) or day (a point every 10 minutes) up
 * to the current minute. */
int ap_dash_overview_clean(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    const struct ap_bw_period *p = ap_bw_period(field_str(r, "period"));
    int64_t now = (int64_t)time(NULL);
    int64_t to = time_floor(now, p->step) + p->step;
    int64_t from = to - (strcmp(p->name, "hour") == 0 ? 3600 : 86400);
    return reply_series(r, &site, AP_BW_CLEAN, from, to, p->step, now);
}
