/* calc.h — the pure arithmetic of the dashboards that read flows and
 * bandwidth (docs/decisions.md, "Dashboards"), every family:
 * series buckets, rates, percents, address ranges. Nothing here touches a
 * request or the store (tests/unit/test_dashboard_op.c). The list windows
 * and the event shape are api/dashboard/dashboard.h's. */
#ifndef PARAPET_API_DASHBOARD_CALC_H
#define PARAPET_API_DASHBOARD_CALC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/dashboard/dashboard.h"
#include "store/telemetry_op.h"

enum {
    DASH_MINUTE = 60,
    DASH_HOUR = 3600,
    DASH_RECENT_S = 5 * DASH_MINUTE, /* active_mitigation looks at the last 5 complete minutes */
};

/* The bucket of a series over `span` seconds: a minute up to 2 hours, 10
 * minutes up to 2 days, an hour up to 60 days, else a day. */
int64_t dash_step(int64_t span);

enum dash_rate { DASH_BPS, DASH_PPS };
enum dash_part { DASH_TOTAL, DASH_PASS, DASH_DROP };

/* The mean rate of a sum over `seconds`: bits per second of bytes (bps) or
 * packets per second (pps), rounded down; 0 for seconds <= 0. */
int64_t dash_rate_of(int64_t bytes, int64_t packets, int64_t seconds, enum dash_rate rate);
/* The rate of one minute's flows (all, passed or dropped). */
int64_t dash_minute_rate(const struct tel_minute *m, enum dash_rate rate, enum dash_part part);

/* A series [[t, v], ...]: one point per bucket of `step` seconds from
 * floor(from, step) while t < to, each the highest one-minute rate in its
 * bucket (0 where no flows were seen). m is ascending by minute. */
json_t *dash_series(const struct tel_minute *m, size_t n, int64_t from, int64_t to, int64_t step,
                    enum dash_rate rate, enum dash_part part);

/* Integer percents of values[0..n) in total, rounded by largest remainder
 * so that together with the rest (total minus their sum) they make 100
 * (ties: the earlier value); all 0 when total <= 0. */
void dash_percents(const int64_t *values, size_t n, int64_t total, int *out);

/* Sorts ranges by their start and merges the overlapping ones; returns the
 * new count. */
size_t dash_ranges_merge(struct tel_range *r, size_t n);

#endif
