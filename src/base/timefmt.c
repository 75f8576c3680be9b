/* timefmt.c — see timefmt.h. Calendar arithmetic without the C library's
 * time zone state (timegm/gmtime_r are UTC-only and thread-safe). */
#include "base/timefmt.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int digits(const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

static int days_in_month(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

int time_parse_text(const char *s, int64_t offset_s, int64_t *out)
{
    int y, mo, d, h, mi, se;
    if (!s || strlen(s) != 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
        s[13] != ':' || s[16] != ':')
        return -1;
    if (digits(s, 4, &y) || digits(s + 5, 2, &mo) || digits(s + 8, 2, &d) || digits(s + 11, 2, &h) ||
        digits(s + 14, 2, &mi) || digits(s + 17, 2, &se))
        return -1;
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || se > 59)
        return -1;
    struct tm tm = {.tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h, .tm_min = mi, .tm_sec = se};
    *out = (int64_t)timegm(&tm) - offset_s;
    return 0;
}

void time_format_text(int64_t t, int64_t offset_s, char out[TIME_TEXT_LEN])
{
    time_t local = (time_t)(t + offset_s);
    struct tm tm;
    if (!gmtime_r(&local, &tm)) {
        snprintf(out, TIME_TEXT_LEN, "0000-00-00 00:00:00");
        return;
    }
    /* each member is bounded to its width, so the text is always 19 characters */
    snprintf(out, TIME_TEXT_LEN, "%04u-%02u-%02u %02u:%02u:%02u", (unsigned)(tm.tm_year + 1900) % 10000u,
             (unsigned)(tm.tm_mon + 1) % 100u, (unsigned)tm.tm_mday % 100u, (unsigned)tm.tm_hour % 100u,
             (unsigned)tm.tm_min % 100u, (unsigned)tm.tm_sec % 100u);
}

int time_parse_stamp(const char *s, int64_t *out)
{
    size_t n = s ? strlen(s) : 0;
    if (n < 1 || n > 10)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

int64_t time_month_start(int64_t t, int64_t offset_s)
{
    time_t local = (time_t)(t + offset_s);
    struct tm tm;
    if (!gmtime_r(&local, &tm))
        return 0;
    struct tm first = {.tm_year = tm.tm_year, .tm_mon = tm.tm_mon, .tm_mday = 1};
    return (int64_t)timegm(&first) - offset_s;
}

int64_t time_floor(int64_t t, int64_t step)
{
    int64_t r = t % step;
    return r < 0 ? t - r - step : t - r;
}
