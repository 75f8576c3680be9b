/* fuzz_dnsname.c — zone and TSIG key name normalisation and the base64
 * check. Input: the name text (NUL bytes end it). Invariants: an accepted
 * name is canonical (lowercase letters, digits, hyphens, dots; labels of 1
 * to 63; at most 253 in all; at least two labels for zones) and normalising
 * it again gives itself; base64 lengths agree with the text's length. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/dnsname.h"
#include "fuzz_assert.h"

static void check_canonical(const char *name, const char *extra, int min_labels)
{
    size_t n = strlen(name);
    FUZZ_ASSERT(n >= 1 && n <= DNS_NAME_MAX);
    int labels = 1;
    size_t label = 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c == '.') {
            FUZZ_ASSERT(label >= 1);
            labels++;
            label = 0;
            continue;
        }
        FUZZ_ASSERT((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || strchr(extra, c));
        FUZZ_ASSERT(++label <= DNS_LABEL_MAX);
    }
    FUZZ_ASSERT(label >= 1 && labels >= min_labels);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char out[DNS_NAME_MAX + 1], again[DNS_NAME_MAX + 1], why[DNS_WHY_MAX];
    if (zone_name_normalise(text, out, why) == 0) {
        check_canonical(out, "", 2);
        FUZZ_ASSERT(zone_name_normalise(out, again, why) == 0 && strcmp(out, again) == 0);
    } else {
        FUZZ_ASSERT(why[0] != '\0' && strlen(why) < DNS_WHY_MAX);
    }
    if (key_name_normalise(text, out, why) == 0) {
        check_canonical(out, "_", 1);
        FUZZ_ASSERT(key_name_normalise(out, again, why) == 0 && strcmp(out, again) == 0);
    }
    long n = base64_decoded_length(text);
    if (n >= 0) {
        size_t len = strlen(text);
        FUZZ_ASSERT(len % 4 == 0 && (size_t)n <= len / 4 * 3 && (size_t)n + 2 >= len / 4 * 3);
    }
    free(text);
    return 0;
}
