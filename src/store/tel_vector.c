/* tel_vector.c — see tel_vector.h. */
#include "store/tel_vector.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "store/telemetry_op.h"

/* Big-endian int64s; through be64toh (one instruction here): a month of a
 * customer's minutes is about 18,000 vectors read a request. */
static int64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return (int64_t)be64toh(v);
}

static void put64(uint8_t *p, int64_t value)
{
    uint64_t v = htobe64((uint64_t)value);
    memcpy(p, &v, sizeof v);
}

void tel_vec_get(const uint8_t *v, int i, int64_t *bytes, int64_t *packets)
{
    *bytes = get64(v + 16 * i);
    *packets = get64(v + 16 * i + 8);
}

void tel_vec_set(uint8_t *v, int i, int64_t bytes, int64_t packets)
{
    put64(v + 16 * i, bytes);
    put64(v + 16 * i + 8, packets);
}

void tel_vec_add(uint8_t *sum, const uint8_t *add)
{
    for (int i = 0; i < 2 * TEL_VEC_MINUTES; i++)
        put64(sum + 8 * i, (int64_t)((uint64_t)get64(sum + 8 * i) + (uint64_t)get64(add + 8 * i)));
}

bool tel_vec_valid(size_t n)
{
    return n == TEL_VEC_BYTES;
}

void tel_vec_sum(const uint8_t *v, int64_t hour, int64_t from, int64_t to, int64_t *bytes, int64_t *packets)
{
    for (int i = 0; i < TEL_VEC_MINUTES; i++) {
        int64_t minute = hour + 60 * i, b, p;
        if (minute < from || minute >= to)
            continue;
        tel_vec_get(v, i, &b, &p);
        *bytes += b;
        *packets += p;
    }
}

void tel_minutes_add_to(struct tel_minute *slots, int64_t first, int64_t to, int64_t minute, int action,
                        int64_t bytes, int64_t packets)
{
    if (minute < first || minute >= to)
        return;
    struct tel_minute *slot = &slots[(minute - first) / 60];
    slot->minute = minute - (minute - first) % 60;
    slot->bytes[action] += bytes;
    slot->packets[action] += packets;
}

void tel_vec_add_to_minutes(struct tel_minute *slots, int64_t first, int64_t from, int64_t to, int64_t hour,
                            int action, const uint8_t *v)
{
    for (int i = 0; i < TEL_VEC_MINUTES; i++) {
        int64_t bytes, packets;
        tel_vec_get(v, i, &bytes, &packets);
        if ((bytes || packets) && hour + 60 * i >= from)
            tel_minutes_add_to(slots, first, to, hour + 60 * i, action, bytes, packets);
    }
}

void tel_minutes_compact(struct tel_minute *slots, size_t nslots, struct tel_minute **out, size_t *n)
{
    size_t used = 0;
    for (size_t i = 0; i < nslots; i++)
        if (slots[i].minute)
            slots[used++] = slots[i];
    *out = used ? realloc(slots, used * sizeof *slots) : NULL;
    if (!used)
        free(slots);
    else if (!*out)
        *out = slots; /* shrinking failed: keep the larger block */
    *n = used;
}
