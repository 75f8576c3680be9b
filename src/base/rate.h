/* rate.h — "rate values": the bps/pps limits and thresholds of the API, a
 * number optionally followed by K, M or G (10K, 2.5M, 1G; decimal units). */
#ifndef PARAPET_RATE_H
#define PARAPET_RATE_H

#include <stdint.h>

#define RATE_TEXT_MAX 32

/* Digits, an optional '.' with 1 to 3 digits, an optional K/M/G (any case);
 * the scaled value must be whole ("1.5" and "1.0005K" are refused), no sign,
 * no spaces, no leading zeros ("010K"), at most 20 characters. Returns 0;
 * -1 on bad syntax; -2 when above max. */
int rate_parse(const char *s, uint64_t max, uint64_t *out);
/* Shortest exact text with the largest suffix that needs at most 3 decimals:
 * 2500 -> "2.5K", 1000000000 -> "1G", 1234567 -> "1234.567K". */
void rate_format(uint64_t v, char out[RATE_TEXT_MAX]);
const char *rate_error(int rc);

#endif
