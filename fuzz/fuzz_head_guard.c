/* fuzz_head_guard.c — server/head_guard.h. Input: [split byte] stream.
 * Invariants: the verdict does not depend on how the stream is cut into
 * reads (whole, byte by byte, or in pieces of the split size); a verdict
 * other than OK names a limit the stream really passes. */
#include <stdint.h>
#include <string.h>

#include "fuzz_assert.h"
#include "server/head_guard.h"

static const struct head_limits lim = {.max_uri_bytes = 64, .max_head_bytes = 512, .max_fields = 14};

static enum head_verdict in_pieces(const char *s, size_t n, size_t piece)
{
    struct head_guard g;
    head_guard_init(&g);
    enum head_verdict v = HEAD_OK;
    for (size_t i = 0; i < n && v == HEAD_OK; i += piece)
        v = head_guard_feed(&g, &lim, s + i, n - i < piece ? n - i : piece);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t piece = data[0] % 16 + 1;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    enum head_verdict whole = in_pieces(s, n, n ? n : 1);
    FUZZ_ASSERT(in_pieces(s, n, 1) == whole);
    FUZZ_ASSERT(in_pieces(s, n, piece) == whole);
    if (whole == HEAD_TOO_LARGE) /* the Cookie lines' values count twice (head_limits) */
        FUZZ_ASSERT(2 * n > lim.max_head_bytes);
    if (whole == HEAD_URI_TOO_LONG)
        FUZZ_ASSERT(n > lim.max_uri_bytes + HEAD_LINE_ROOM);
    return 0;
}
