/* decode_simd.h — the fast reader of one NDJSON record (simdjson's
 * On-Demand API, decode_simd.cpp, the one C++ unit): it hands record.c the
 * members of a flat object, or declines, and the caller then decodes the
 * line with jansson, which also words every refusal. So both decoders
 * accept the same records and refuse with the same message by
 * construction, as long as this one declines whatever jansson would refuse
 * to parse (fuzz/fuzz_tel_decoders.c checks that). */
#ifndef PARAPET_TEL_DECODE_SIMD_H
#define PARAPET_TEL_DECODE_SIMD_H

#include <stddef.h>

#include "telemetry/members.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tel_simd;

struct tel_simd *tel_simd_new(void);
void tel_simd_free(struct tel_simd *d);

/* 0 when text[0..len) is one JSON object, with nothing but whitespace
 * around it, whose members all have names of tel_member_id, each once, with
 * a string, an integer (int64) or null, strings free of NUL: *out then
 * holds them, its strings valid until the next call on d. -1 otherwise. */
int tel_simd_fields(struct tel_simd *d, const char *text, size_t len, struct tel_fields *out);

#ifdef __cplusplus
}
#endif

#endif
