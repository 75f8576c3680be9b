/* rate.c — see rate.h. */
#include "base/rate.h"

#include <stdio.h>
#include <string.h>

static uint64_t unit_of(char c)
{
    switch (c) {
    case 'K':
    case 'k': return 1000ULL;
    case 'M':
    case 'm': return 1000000ULL;
    case 'G':
    case 'g': return 1000000000ULL;
    default: return 0;
    }
}

int rate_parse(const char *s, uint64_t max, uint64_t *out)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 20)
        return -1;
    uint64_t unit = unit_of(s[n - 1]);
    size_t digits_end = unit ? n - 1 : n;
    if (!unit)
        unit = 1;
    size_t int_len = strspn(s, "0123456789");
    if (int_len == 0 || (s[0] == '0' && int_len > 1))
        return -1;
    size_t frac_len = 0;
    if (int_len < digits_end) {
        if (s[int_len] != '.')
            return -1;
        frac_len = strspn(s + int_len + 1, "0123456789");
        if (frac_len == 0 || frac_len > 3 || int_len + 1 + frac_len != digits_end)
            return -1;
    }
    /* value = int * unit + frac * unit / 10^frac_len, exactly */
    uint64_t whole = 0;
    for (size_t i = 0; i < int_len; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (whole > (UINT64_MAX - d) / 10)
            return -2;
        whole = whole * 10 + d;
    }
    uint64_t frac = 0, scale = 1;
    for (size_t i = 0; i < frac_len; i++) {
        frac = frac * 10 + (uint64_t)(s[int_len + 1 + i] - '0');
        scale *= 10;
    }
    if ((frac * unit) % scale != 0)
        return -1; /* not a whole number once scaled */
    if (whole > UINT64_MAX / unit)
        return -2;
    uint64_t v = whole * unit, f = frac * unit / scale;
    if (v > UINT64_MAX - f)
        return -2;
    v += f;
    if (v > max)
        return -2;
    *out = v;
    return 0;
}

void rate_format(uint64_t v, char out[RATE_TEXT_MAX])
{
    static const struct {
        uint64_t unit;
        char suffix;
    } units[] = {{1000000000ULL, 'G'}, {1000000ULL, 'M'}, {1000ULL, 'K'}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        uint64_t u = units[i].unit;
        if (v < u || (v % u) % (u / 1000) != 0)
            continue; /* below the unit, or more than 3 decimals */
        uint64_t frac = (v % u) / (u / 1000);
        if (frac == 0) {
            snprintf(out, RATE_TEXT_MAX, "%llu%c", (unsigned long long)(v / u), units[i].suffix);
        } else {
            char f[4] = {(char)('0' + frac / 100), (char)('0' + frac / 10 % 10), (char)('0' + frac % 10),
                         '\0'};
            for (int k = 2; k > 0 && f[k] == '0'; k--)
                f[k] = '\0';
            snprintf(out, RATE_TEXT_MAX, "%llu.%s%c", (unsigned long long)(v / u), f, units[i].suffix);
        }
        return;
    }
    snprintf(out, RATE_TEXT_MAX, "%llu", (unsigned long long)v);
}

const char *rate_error(int rc)
{
    return rc == -2 ? "is too large" : "must be a number, optionally followed by K, M or G";
}
