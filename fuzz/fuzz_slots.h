/* fuzz_slots.h — the input of the renderer targets: after a flag byte,
 * NUL-separated values, each a JSON string of arbitrary bytes (missing ones
 * empty), as if they had reached the store around the API. */
#ifndef PARAPET_FUZZ_SLOTS_H
#define PARAPET_FUZZ_SLOTS_H

#include <jansson.h>
#include <stdint.h>
#include <string.h>

/* Fills v[0..n) from data[0..size) (the bytes after the flag byte); the
 * caller releases them (fuzz_slots_free). */
static inline void fuzz_slots(const uint8_t *data, size_t size, json_t **v, int n)
{
    const uint8_t *p = data, *end = data + size;
    for (int i = 0; i < n; i++) {
        const uint8_t *z = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
        size_t len = p < end ? (z ? (size_t)(z - p) : (size_t)(end - p)) : 0;
        v[i] = json_stringn_nocheck((const char *)p, len);
        p += len + (z ? 1 : 0);
        if (p > end)
            p = end;
    }
}

static inline void fuzz_slots_free(json_t **v, int n)
{
    for (int i = 0; i < n; i++)
        json_decref(v[i]);
}

#endif
