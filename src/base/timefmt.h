/* timefmt.h — the documents' time formats and the windows the dashboards
 * share: 'year-month-day hour:minute:second' text at a UTC offset, 10-digit
 * timestamps, the first day of the current month, bucket alignment. */
#ifndef PARAPET_TIMEFMT_H
#define PARAPET_TIMEFMT_H

#include <stdint.h>

enum { TIME_TEXT_LEN = 20 }; /* "2026-11-24 18:05:00" and its NUL */

/* Parses "YYYY-MM-DD HH:MM:SS" (a 'T' is taken for the space) read at
 * offset_s seconds east of UTC; 0 and *out set, or -1 when it is not that
 * format or not a real date and time. */
int time_parse_text(const char *s, int64_t offset_s, int64_t *out);
/* t as "YYYY-MM-DD HH:MM:SS" at offset_s seconds east of UTC. */
void time_format_text(int64_t t, int64_t offset_s, char out[TIME_TEXT_LEN]);
/* Parses a 10-digit timestamp ("1764000000"; 1–10 digits taken, no sign or
 * other characters); 0 or -1. */
int time_parse_stamp(const char *s, int64_t *out);
/* 00:00:00 of the first day of t's month, at offset_s east of UTC. */
int64_t time_month_start(int64_t t, int64_t offset_s);
/* t rounded down to a multiple of step (step > 0; t may be negative). */
int64_t time_floor(int64_t t, int64_t step);

#endif
