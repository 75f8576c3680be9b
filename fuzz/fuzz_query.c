/* fuzz_query.c — query_decode, then spec_check against real route specs and
 * specs of our own (fuzz_spec.h).
 * Input: [spec selector][files selector] query-string [NUL form-body]. The
 * form body is url-encoded text, decoded like the query. */
#include <stdint.h>
#include <stdlib.h>

#include "core/decode.h"
#include "fuzz_spec.h"

/* Every decoded value is a string or an array of strings, within limits. */
static void check_decoded(json_t *obj)
{
    size_t values = 0;
    const char *k;
    json_t *v;
    json_object_foreach (obj, k, v) {
        FUZZ_ASSERT(*k && strlen(k) <= DECODE_MAX_KEY);
        if (json_is_array(v)) {
            FUZZ_ASSERT(json_array_size(v) > 0);
            for (size_t i = 0; i < json_array_size(v); i++)
                FUZZ_ASSERT(json_is_string(json_array_get(v, i)));
            values += json_array_size(v);
        } else {
            FUZZ_ASSERT(json_is_string(v));
            values++;
        }
    }
    FUZZ_ASSERT(values <= DECODE_MAX_FIELDS);
}

static int decode(const char *s, size_t n, json_t **out)
{
    struct decode_error e = {0};
    *out = json_object();
    if (query_decode(s, n, *out, &e) != 0) {
        FUZZ_ASSERT(e.err != E_OK && e.message[0]);
        return -1;
    }
    check_decoded(*out);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const struct field_spec *specs = fz_pick_spec(data[0]);
    static const char *const cert[] = {"cert", NULL}, *twice[] = {"cert", "cert", NULL},
                             *other[] = {"other", NULL};
    const char *const *files = data[1] % 4 == 1   ? cert
                               : data[1] % 4 == 2 ? twice
                               : data[1] % 4 == 3 ? other
                                                  : NULL;
    const char *q = (const char *)data + 2;
    size_t n = size - 2;
    const char *nul = memchr(q, '\0', n);
    size_t qlen = nul ? (size_t)(nul - q) : n;

    json_t *query = NULL, *body = NULL, *out = NULL;
    if (decode(q, qlen, &query) == 0 && (!nul || decode(nul + 1, n - qlen - 1, &body) == 0)) {
        json_t *path = fz_path_for(specs);
        struct spec_error e;
        spec_check(specs, query, body, false, path, files, &out, &e);
        fz_check_result(specs, out, &e);
        json_decref(path);
    }
    json_decref(query);
    json_decref(body);
    json_decref(out);
    return 0;
}
