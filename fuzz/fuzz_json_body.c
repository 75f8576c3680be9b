/* fuzz_json_body.c — json_body_decode, then spec_check of the body as JSON
 * against real route specs and specs of our own, nested ones included.
 * Input: [spec selector] JSON-body. */
#include <stdint.h>

#include "core/decode.h"
#include "fuzz_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const struct field_spec *specs = fz_pick_spec(data[0]);
    struct decode_error de = {0};
    json_t *body = json_body_decode((const char *)data + 1, size - 1, &de);
    if (!body) {
        FUZZ_ASSERT(de.err == E_MALFORMED_BODY && de.message[0]);
        return 0;
    }
    FUZZ_ASSERT(json_is_object(body));
    json_t *path = fz_path_for(specs), *out = NULL;
    struct spec_error e;
    spec_check(specs, NULL, body, true, path, NULL, &out, &e);
    fz_check_result(specs, out, &e);
    json_decref(out);
    json_decref(path);
    json_decref(body);
    return 0;
}
