/* window.c — the time windows of the dashboard lists (dashboard.h). */
#include <stdio.h>

#include "api/dashboard/dashboard.h"
#include "core/timefmt.h"

static int read_time(struct req *r, const char *name, enum dash_time_format format, int64_t *out)
{
    const char *text = field_str(r, name);
    if (!text)
        return 0;
    int rc = format == DASH_TEXT ? time_parse_text(text, 0, out) : time_parse_stamp(text, out);
    if (rc != 0) {
        reply_error(r, E_FIELD_INVALID, "%s: must be %s", name,
                    format == DASH_TEXT ? "a time as 'year-month-day hour:minute:second'"
                                        : "a 10-digit timestamp (seconds)");
        return -1;
    }
    return 1;
}

int dash_window(struct req *r, const struct dash_window_rule *rule, int64_t *from, int64_t *to)
{
    int has_start = read_time(r, "start_time", rule->format, from);
    int has_end = has_start < 0 ? -1 : read_time(r, "end_time", rule->format, to);
    if (has_start < 0 || has_end < 0)
        return -1;
    if (!has_start)
        *from = rule->default_start;
    if (!has_end)
        *to = rule->default_end ? rule->default_end : *from + rule->max_span;
    if (*to < *from)
        return reply_error(r, E_RULE, "end_time: is before start_time"), -1;
    if (*to - *from > rule->max_span)
        return reply_error(r, E_RULE, "end_time: the span from start_time is at most %s", rule->span_text), -1;
    return 0;
}
