/* fuzz_waf_csv.c — a WAF entry's download row (api/ap/waf_csv.h): the
 * input as an entry's stored text. Invariant: the row read by the flat
 * reader (base/json_flat.h, with jansson behind it for what it leaves) is
 * the row jansson alone reads, byte for byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/ap/waf_csv.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct strbuf a = {0}, b = {0};
    ap_waf_csv_row(&a, text);
    ap_waf_csv_row_json(&b, text);
    FUZZ_ASSERT(a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0));
    sb_free(&a);
    sb_free(&b);
    free(text);
    return 0;
}
