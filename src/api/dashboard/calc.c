/* calc.c — see calc.h. */
#include "api/dashboard/calc.h"

#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"

int64_t dash_step(int64_t span)
{
    if (span <= 2 * DASH_HOUR)
        return DASH_MINUTE;
    if (span <= 2 * DASH_DAY)
        return 10 * DASH_MINUTE;
    if (span <= 60 * DASH_DAY)
        return DASH_HOUR;
    return DASH_DAY;
}

int64_t dash_rate_of(int64_t bytes, int64_t packets, int64_t seconds, enum dash_rate rate)
{
    if (seconds <= 0)
        return 0;
    __int128 v = rate == DASH_BPS ? (__int128)bytes * 8 : (__int128)packets;
    v /= seconds;
    return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

int64_t dash_minute_rate(const struct tel_minute *m, enum dash_rate rate, enum dash_part part)
{
    int64_t bytes = part == DASH_PASS ? m->bytes[0] : part == DASH_DROP ? m->bytes[1] : m->bytes[0] + m->bytes[1];
    int64_t packets =
        part == DASH_PASS ? m->packets[0] : part == DASH_DROP ? m->packets[1] : m->packets[0] + m->packets[1];
    return dash_rate_of(bytes, packets, DASH_MINUTE, rate);
}

json_t *dash_series(const struct tel_minute *m, size_t n, int64_t from, int64_t to, int64_t step,
                    enum dash_rate rate, enum dash_part part)
{
    json_t *points = json_array();
    if (step <= 0)
        return points;
    size_t i = 0;
    for (int64_t t = time_floor(from, step); t < to; t += step) {
        int64_t peak = 0;
        while (i < n && m[i].minute < t)
            i++;
        for (; i < n && m[i].minute < t + step; i++) {
            int64_t v = dash_minute_rate(&m[i], rate, part);
            if (v > peak)
                peak = v;
        }
        json_array_append_new(points, json_pack("[I,I]", (json_int_t)t, (json_int_t)peak));
    }
    return points;
}

void dash_percents(const int64_t *values, size_t n, int64_t total, int *out)
{
    if (n == 0)
        return;
    memset(out, 0, n * sizeof *out);
    if (total <= 0)
        return;
    __int128 sum = 0;
    int given = 0;
    __int128 *rem = calloc(n + 1, sizeof *rem);
    if (!rem)
        return;
    for (size_t i = 0; i < n; i++) {
        __int128 scaled = (__int128)(values[i] > 0 ? values[i] : 0) * 100;
        out[i] = (int)(scaled / total);
        rem[i] = scaled % total;
        given += out[i];
        sum += values[i] > 0 ? values[i] : 0;
    }
    /* the rest takes part in the rounding but is not answered */
    __int128 rest = total > sum ? (__int128)total - sum : 0;
    int rest_pct = (int)(rest * 100 / total);
    rem[n] = rest * 100 % total;
    given += rest_pct;
    for (int left = 100 - given; left > 0; left--) {
        size_t best = n + 1;
        for (size_t i = 0; i <= n; i++)
            if (rem[i] > 0 && (best > n || rem[i] > rem[best]))
                best = i;
        if (best > n)
            break;
        if (best < n)
            out[best]++;
        rem[best] = 0;
    }
    free(rem);
}

static int cmp_range(const void *pa, const void *pb)
{
    const struct tel_range *a = pa, *b = pb;
    int c = memcmp(a->lo, b->lo, TEL_ADDR_KEY);
    return c ? c : memcmp(a->hi, b->hi, TEL_ADDR_KEY);
}

size_t dash_ranges_merge(struct tel_range *r, size_t n)
{
    if (n < 2)
        return n;
    qsort(r, n, sizeof *r, cmp_range);
    size_t out = 0;
    for (size_t i = 1; i < n; i++) {
        if (memcmp(r[i].lo, r[out].hi, TEL_ADDR_KEY) <= 0) {
            if (memcmp(r[i].hi, r[out].hi, TEL_ADDR_KEY) > 0)
                memcpy(r[out].hi, r[i].hi, TEL_ADDR_KEY);
        } else {
            r[++out] = r[i];
        }
    }
    return out + 1;
}
