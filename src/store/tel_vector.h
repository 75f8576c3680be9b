/* tel_vector.h — the per-minute sums of one hour in one value: the `mins`
 * column of tel_site_hours (both stores), 60 minutes x (bytes, packets),
 * each a big-endian int64 (PostgreSQL's int8send order), 960 bytes. A month
 * of a site's traffic is then 720 rows a key instead of 43,200. */
#ifndef PARAPET_TEL_VECTOR_H
#define PARAPET_TEL_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TEL_VEC_MINUTES = 60, TEL_VEC_BYTES = TEL_VEC_MINUTES * 2 * 8 };

/* Minute i's (0..59) bytes and packets. */
void tel_vec_get(const uint8_t *v, int i, int64_t *bytes, int64_t *packets);
void tel_vec_set(uint8_t *v, int i, int64_t bytes, int64_t packets);
/* sum += add, minute by minute. */
void tel_vec_add(uint8_t *sum, const uint8_t *add);
/* Whether a stored value of n bytes is a vector. */
bool tel_vec_valid(size_t n);
/* Adds to *bytes and *packets the minutes of the vector of the hour
 * starting at `hour` that start in [from, to). */
void tel_vec_sum(const uint8_t *v, int64_t hour, int64_t from, int64_t to, int64_t *bytes, int64_t *packets);

struct tel_minute;
/* Adds one minute's sums of an action to the dense slots of the minutes
 * [first, to) (first is a minute's start; a slot a minute); a minute
 * outside is left out. */
void tel_minutes_add_to(struct tel_minute *slots, int64_t first, int64_t to, int64_t minute, int action,
                        int64_t bytes, int64_t packets);
/* Adds the minutes of the vector v of the hour starting at `hour` that
 * start in [from, to) to those slots, as tel_minutes_add_to. */
void tel_vec_add_to_minutes(struct tel_minute *slots, int64_t first, int64_t from, int64_t to, int64_t hour,
                            int action, const uint8_t *v);
/* Moves the minutes of the dense slots that saw flows to *out (*n of
 * them), the slots' block reused (or freed when none did). */
void tel_minutes_compact(struct tel_minute *slots, size_t nslots, struct tel_minute **out, size_t *n);

#endif
