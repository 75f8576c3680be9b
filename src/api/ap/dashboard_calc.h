/* dashboard_calc.h — the pure parts of the Application Protection
 * dashboards (docs/decisions.md, "Dashboards: Application Protection"): the
 * bandwidth periods with their spans and points, a WAF event's
 * attack_type_summary, the display name of an attack type and CSV cells.
 * Nothing here touches a request or the store (tests/unit/test_dashboard_ap.c). */
#ifndef PARAPET_API_AP_DASHBOARD_CALC_H
#define PARAPET_API_AP_DASHBOARD_CALC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "store/telemetry_ap.h"

/* A bandwidth period of doc 002: the span it takes (exclusive bounds) and
 * the step of its points. NULL for an unknown name. */
struct ap_bw_period {
    const char *name;
    int64_t min_span, max_span, step;
    const char *span_text; /* "more than 1 minute and less than 2 hours" */
};
const struct ap_bw_period *ap_bw_period(const char *name);

enum ap_bw_kind { AP_BW_RAW, AP_BW_CLEAN };

/* The in and out series of `kind` over [from, to): one point {time, value}
 * per step from floor(from, step) while time < to, each the mean bits/s of
 * the bucket's complete minutes (those before `now`'s minute; a minute
 * without samples is 0, a bucket with none complete is 0); *max the highest
 * one-minute rate of the window's complete minutes in either direction. m
 * ascending by minute. */
void ap_bw_series(const struct tel_bw_minute *m, size_t n, enum ap_bw_kind kind, int64_t from, int64_t to,
                  int64_t step, int64_t now, json_t **in, json_t **out, int64_t *max);

/* attack_type_summary of a WAF event: an object keyed by the three
 * commonest attack types (rows: [{"key","count"}] largest first, any
 * length, possibly holding "others" itself) and "others" (the rest, also
 * when 0), each {count, name, percent}; percents by largest remainder
 * summing to 100 when all > 0. */
json_t *ap_waf_type_summary(const json_t *rows, int64_t all);

/* The display name of an attack type key ("sqli" -> "SQL injection"); the
 * key itself when unknown. */
const char *ap_attack_type_name(const char *key);

/* Appends one CSV cell (RFC 4180 quoting) that a spreadsheet shows as text:
 * a value starting with = + - @ or a control character gets a leading '. */
void ap_csv_cell(struct strbuf *b, const char *value);

#endif
