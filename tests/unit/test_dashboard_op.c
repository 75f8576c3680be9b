/* test_dashboard_op.c — api/dashboard/calc.h: buckets, rates, series,
 * percents and address ranges of the Origin Protection and CleanPipe
 * dashboards that read flows. */
#include "api/dashboard/calc.h"

#include <stdlib.h>

#include "api/op/dashboard_flows.h"

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

/* A minute with a scrubber's verdicts takes its split from them; one with
 * observations only keeps them (as passed); other minutes are untouched. */
TEST(verdicts_over_observations)
{
    struct tel_minute all[] = {
        {.minute = 60, .bytes = {1000, 0}, .packets = {10, 0}},        /* flows of a router: no observation */
        {.minute = 120, .bytes = {7000, 5000}, .packets = {70, 50}},   /* observed 6000/60, verdicts 1000/10 + 5000/50 */
        {.minute = 180, .bytes = {3000, 0}, .packets = {30, 0}},       /* observed only */
        {.minute = 240, .bytes = {2000, 900}, .packets = {20, 9}},     /* observed 2000/20, nothing else passed */
    };
    struct tel_minute observed[] = {
        {.minute = 120, .bytes = {6000, 0}, .packets = {60, 0}},
        {.minute = 180, .bytes = {3000, 0}, .packets = {30, 0}},
        {.minute = 240, .bytes = {2000, 0}, .packets = {20, 0}},
    };
    dash_prefer_verdicts(all, 4, observed, 3);
    CHECK_INT(all[0].packets[0], 10);
    CHECK_INT(all[1].packets[0], 10);
    CHECK_INT(all[1].bytes[0], 1000);
    CHECK_INT(all[1].packets[1], 50);
    CHECK_INT(all[1].bytes[1], 5000);
    CHECK_INT(all[2].packets[0], 30);
    CHECK_INT(all[2].bytes[0], 3000);
    CHECK_INT(all[3].packets[0], 0);
    CHECK_INT(all[3].bytes[0], 0);
    CHECK_INT(all[3].packets[1], 9);
    CHECK_INT(all[3].minute, 240);
    dash_prefer_verdicts(all, 4, NULL, 0); /* no observations: unchanged */
    CHECK_INT(all[0].packets[0], 10);
}

TEST(steps)
{
    CHECK_INT(dash_step(60), 60);
    CHECK_INT(dash_step(7200), 60);
    CHECK_INT(dash_step(7201), 600);
    CHECK_INT(dash_step(2 * 86400), 600);
    CHECK_INT(dash_step(2 * 86400 + 1), 3600);
    CHECK_INT(dash_step(60 * 86400), 3600);
    CHECK_INT(dash_step(60 * 86400 + 1), 86400);
}

TEST(rates)
{
    CHECK_INT(dash_rate_of(7500, 0, 60, DASH_BPS), 1000);
    CHECK_INT(dash_rate_of(7499, 0, 60, DASH_BPS), 999); /* rounded down */
    CHECK_INT(dash_rate_of(0, 119, 60, DASH_PPS), 1);
    CHECK_INT(dash_rate_of(1, 1, 0, DASH_BPS), 0);
    CHECK_INT(dash_rate_of(INT64_MAX, 0, 1, DASH_BPS), INT64_MAX); /* saturates */
    struct tel_minute m = {.minute = 60, .bytes = {150, 300}, .packets = {60, 120}};
    CHECK_INT(dash_minute_rate(&m, DASH_BPS, DASH_TOTAL), 60);
    CHECK_INT(dash_minute_rate(&m, DASH_BPS, DASH_PASS), 20);
    CHECK_INT(dash_minute_rate(&m, DASH_BPS, DASH_DROP), 40);
    CHECK_INT(dash_minute_rate(&m, DASH_PPS, DASH_TOTAL), 3);
}

TEST(series_buckets)
{
    struct tel_minute m[] = {
        {.minute = 600, .bytes = {7500, 0}},  /* 1000 bit/s */
        {.minute = 660, .bytes = {0, 15000}}, /* 2000, dropped */
        {.minute = 1260, .bytes = {750, 0}},  /* 100 */
    };
    /* minute points, zero-filled, from the start's minute while before `to` */
    CHECK_STR(dump(dash_series(m, 3, 630, 840, 60, DASH_BPS, DASH_TOTAL)), "[[600,1000],[660,2000],[720,0],[780,0]]");
    CHECK_STR(dump(dash_series(m, 3, 600, 720, 60, DASH_BPS, DASH_DROP)), "[[600,0],[660,2000]]");
    /* 10-minute buckets hold their highest minute */
    CHECK_STR(dump(dash_series(m, 3, 600, 1800, 600, DASH_BPS, DASH_TOTAL)), "[[600,2000],[1200,100]]");
    CHECK_STR(dump(dash_series(m, 3, 600, 1800, 600, DASH_BPS, DASH_PASS)), "[[600,1000],[1200,100]]");
    /* minutes before the window are skipped; an empty window has no points */
    CHECK_STR(dump(dash_series(m, 3, 700, 760, 60, DASH_BPS, DASH_TOTAL)), "[[660,2000],[720,0]]");
    CHECK_STR(dump(dash_series(m, 3, 600, 600, 60, DASH_BPS, DASH_TOTAL)), "[]");
    CHECK_STR(dump(dash_series(NULL, 0, 0, 120, 60, DASH_PPS, DASH_TOTAL)), "[[0,0],[60,0]]");
}

TEST(percents_by_largest_remainder)
{
    int p[4];
    int64_t a[] = {195000, 30000};
    dash_percents(a, 2, 225000, p);
    CHECK_INT(p[0], 87);
    CHECK_INT(p[1], 13);
    int64_t b[] = {1800, 300, 60};
    dash_percents(b, 3, 2160, p);
    CHECK_INT(p[0], 83);
    CHECK_INT(p[1], 14);
    CHECK_INT(p[2], 3);
    /* a rest that is not answered keeps its share */
    int64_t c[] = {1, 1};
    dash_percents(c, 2, 4, p);
    CHECK_INT(p[0] + p[1], 50);
    int64_t d[] = {1, 1, 1};
    dash_percents(d, 3, 3, p);
    CHECK_INT(p[0], 34); /* ties: the earlier value */
    CHECK_INT(p[1], 33);
    CHECK_INT(p[2], 33);
    dash_percents(d, 3, 0, p);
    CHECK_INT(p[0] + p[1] + p[2], 0);
    int64_t big[] = {INT64_MAX / 2, INT64_MAX / 2};
    dash_percents(big, 2, INT64_MAX - 1, p);
    CHECK_INT(p[0] + p[1], 100);
}

static struct tel_range range(uint8_t lo, uint8_t hi)
{
    struct tel_range r = {0};
    r.lo[0] = r.hi[0] = 4;
    r.lo[4] = lo;
    r.hi[4] = hi;
    return r;
}

TEST(ranges_merge)
{
    struct tel_range r[] = {range(20, 30), range(0, 10), range(5, 12), range(30, 30), range(40, 50)};
    size_t n = dash_ranges_merge(r, 5);
    CHECK_INT(n, 3);
    CHECK_INT(r[0].lo[4], 0);
    CHECK_INT(r[0].hi[4], 12);
    CHECK_INT(r[1].lo[4], 20);
    CHECK_INT(r[1].hi[4], 30);
    CHECK_INT(r[2].lo[4], 40);
    struct tel_range inside[] = {range(0, 255), range(10, 10)};
    CHECK_INT(dash_ranges_merge(inside, 2), 1);
    CHECK_INT(inside[0].hi[4], 255);
    CHECK_INT(dash_ranges_merge(inside, 0), 0);
}

UNIT_MAIN(UNIT_CASE(steps), UNIT_CASE(rates), UNIT_CASE(series_buckets), UNIT_CASE(percents_by_largest_remainder),
          UNIT_CASE(ranges_merge), UNIT_CASE(verdicts_over_observations))
