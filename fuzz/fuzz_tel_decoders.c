/* fuzz_tel_decoders.c — the same bytes (one NDJSON line) to the simdjson
 * and the jansson record decoders: the same records accepted, the same
 * refusals with the same member, and whatever simdjson's reader takes,
 * jansson parses into the same members (tel_decoders_diff.h). */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_assert.h"
#include "tel_decoders_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct tel_simd *simd;
    if (!simd)
        simd = tel_simd_new();
    FUZZ_ASSERT(simd);
    FUZZ_ASSERT(tel_decoders_differ(simd, (const char *)data, size) == NULL);
    return 0;
}
