/* dashboard.h — what the dashboard handlers of Origin Protection and
 * CleanPipe share (docs/decisions.md, "Dashboards"): the time windows of the
 * lists with their defaults and maximum spans, and a DDoS event as the lists
 * answer it, in each family's severity scale. */
#ifndef PARAPET_API_DASHBOARD_H
#define PARAPET_API_DASHBOARD_H

#include <jansson.h>
#include <stdint.h>

#include "core/req.h"

enum dash_time_format {
    DASH_TEXT,          /* 'year-month-day hour:minute:second', at the rule's offset */
    DASH_STAMP,         /* a 10-digit timestamp */
    DASH_TEXT_OR_STAMP, /* either (a string of digits is a timestamp) */
};

/* The window of a list: start_time and end_time read in `format`; an absent
 * start_time is default_start, an absent end_time default_end (or, when
 * default_end is 0, start + max_span). end before start, or a span over
 * max_span, is refused with a clear 400 (replied: -1). */
struct dash_window_rule {
    enum dash_time_format format;
    int64_t default_start, default_end, max_span;
    const char *span_text; /* "31 days" */
    int64_t offset_s;      /* text times are read this many seconds east of UTC */
};
int dash_window(struct req *r, const struct dash_window_rule *rule, int64_t *from, int64_t *to);

/* 31 days, the documents' list span. */
enum { DASH_DAY = 86400, DASH_MONTH_SPAN = 31 * DASH_DAY };

/* A stored event row (store_ops.tel_events_list) as document 001's DDoS
 * event in `family`'s scale ("op": 0 low, 1 high, 2 medium, 3 blackhole;
 * "cp": 1 low ... 4 blackhole with severity_level and p_type). end_time is
 * 0 and duration runs to `now` while the event is ongoing. New reference. */
json_t *dash_event_json(const json_t *row, const char *family, const char *site_name, int64_t now);

/* Names of the catalogue (names.c): a country's name from its ISO code
 * ("" stays ""), a protocol's keyword from its number (the number when
 * unknown). */
const char *dash_country_name(json_t *countries, const char *code);
const char *dash_protocol_name(json_t *protocols, const char *number);

/* The end of looking up an event by the path's {event_id} (event.c): rc
 * is the store's answer and owner the customer the event belongs to; an
 * event of another customer than r->customer answers 404 "event_id: no
 * such event" like an unknown one. 0 when found and the caller's; -1 after
 * replying. */
int dash_event_lookup(struct req *r, int rc, const char *owner);

#endif
