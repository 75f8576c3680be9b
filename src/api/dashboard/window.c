/* window.c — the time windows of the dashboard lists (dashboard.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "api/dashboard/dashboard.h"
#include "base/timefmt.h"

static const char *const FORMAT_TEXT[] = {
    [DASH_TEXT] = "a time as 'year-month-day hour:minute:second'",
    [DASH_STAMP] = "a 10-digit timestamp (seconds)",
    [DASH_TEXT_OR_STAMP] = "a time as 'year-month-day hour:minute:second' or a 10-digit timestamp (seconds)",
};

/* 1 and *out set, 0 when absent (or blank), -1 after replying. */
static int read_time(struct req *r, const char *name, const struct dash_window_rule *rule, int64_t *out)
{
    const char *text = field_str(r, name);
    if (!text || !*text)
        return 0;
    bool stamp = rule->format == DASH_STAMP ||
                 (rule->format == DASH_TEXT_OR_STAMP && strspn(text, "0123456789") == strlen(text));
    int rc = stamp ? time_parse_stamp(text, out) : time_parse_text(text, rule->offset_s, out);
    if (rc != 0) {
        reply_error(r, E_FIELD_INVALID, "%s: must be %s", name, FORMAT_TEXT[rule->format]);
        return -1;
    }
    return 1;
}

int dash_window(struct req *r, const struct dash_window_rule *rule, int64_t *from, int64_t *to)
{
    int has_start = read_time(r, "start_time", rule, from);
    int has_end = has_start < 0 ? -1 : read_time(r, "end_time", rule, to);
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
