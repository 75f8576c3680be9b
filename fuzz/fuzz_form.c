/* fuzz_form.c — the form sink fed in random piece sizes, checked against a
 * simple model: each part's pieces joined in order, text parts added with
 * fields_add, file parts handed to on_file whole, the file cap enforced.
 *
 * Input: [max_file] then parts, each:
 *   [kind] [len] value[len] [piece size seeds...]
 * kind: bits 0-1 pick the key ("a", "b", "a[]", "f"), bit 2 makes it a
 * file part, bit 3 a part without a key (malformed). Pieces are 1 + seed%32
 * bytes, one seed byte per piece while the input lasts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode.h"
#include "core/errors.h"
#include "fuzz_assert.h"

enum { MAX_FILES = 64 };

struct seen {
    int n;
    struct {
        char *key, *filename;
        size_t len;
        char *data;
    } f[MAX_FILES];
};

static void on_file(void *ctx, char *key, char *filename, char *content_type, char *data, size_t len)
{
    struct seen *s = ctx;
    FUZZ_ASSERT(s->n < MAX_FILES && key && filename && (data || len == 0));
    s->f[s->n].key = key;
    s->f[s->n].filename = filename;
    s->f[s->n].data = data;
    s->f[s->n].len = len;
    s->n++;
    free(content_type);
}

struct cursor {
    const uint8_t *p;
    size_t left;
};

static int next(struct cursor *c)
{
    if (!c->left)
        return -1;
    c->left--;
    return *c->p++;
}

/* A text value the model has not added yet. */
struct text {
    const char *key, *val;
    size_t len;
};

static int flush(json_t *want, struct text *t, struct decode_error *e)
{
    int rc = t->key ? fields_add(want, t->key, strlen(t->key), t->val, t->len, e) : 0;
    t->key = NULL;
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const keys[] = {"a", "b", "a[]", "f"};
    struct cursor c = {data, size};
    int cap = next(&c);
    if (cap < 0)
        return 0;

    struct seen seen = {0};
    struct form_sink sink = {
        .fields = json_object(), .max_file = (size_t)cap, .on_file = on_file, .ctx = &seen};
    /* the model */
    json_t *want = json_object();
    struct decode_error want_err = {0};
    bool want_failed = false;
    int want_files = 0;
    struct text pending = {0};
    size_t want_len[MAX_FILES];
    const uint8_t *want_data[MAX_FILES];

    bool failed = false;
    int kind;
    while (!failed && (kind = next(&c)) >= 0) {
        int len = next(&c);
        if (len < 0 || (size_t)len > c.left || want_files == MAX_FILES)
            break;
        const uint8_t *val = c.p;
        c.p += len;
        c.left -= (size_t)len;
        const char *key = kind & 8 ? NULL : keys[kind & 3];
        const char *filename = kind & 4 ? "x.bin" : NULL;

        /* model: a text value is checked when the next part starts (or at
         * the end), after that part's own key check */
        if (!want_failed) {
            if (!key) {
                want_failed = true;
                want_err.err = E_MALFORMED_BODY;
            } else if (flush(want, &pending, &want_err) != 0) {
                want_failed = true;
            } else if (filename && (size_t)len > sink.max_file) {
                want_failed = true;
                want_err.err = E_TOO_LARGE;
            } else if (filename) {
                want_len[want_files] = (size_t)len;
                want_data[want_files++] = val;
            } else {
                pending = (struct text){key, (const char *)val, (size_t)len};
            }
        }

        /* the sink, in pieces; an empty value is one empty piece */
        size_t off = 0;
        do {
            int seed = next(&c);
            size_t piece = seed < 0 ? (size_t)len - off : 1 + (size_t)seed % 32;
            if (piece > (size_t)len - off)
                piece = (size_t)len - off;
            if (form_sink_piece(&sink, key, filename, NULL, (const char *)val + off, off, piece) != 0) {
                failed = true;
                break;
            }
            off += piece;
        } while (off < (size_t)len);
    }
    if (!failed)
        failed = form_sink_finish(&sink) != 0;
    if (!want_failed && flush(want, &pending, &want_err) != 0)
        want_failed = true;

    if (want_failed) {
        FUZZ_ASSERT(failed && sink.failed && sink.error.err == want_err.err && sink.error.message[0]);
        FUZZ_ASSERT(form_sink_piece(&sink, "a", NULL, NULL, "x", 0, 1) == -1); /* stays stopped */
    } else if (!failed) {
        FUZZ_ASSERT(json_equal(sink.fields, want));
        FUZZ_ASSERT(seen.n == want_files);
        for (int i = 0; i < seen.n; i++)
            FUZZ_ASSERT(seen.f[i].len == want_len[i] &&
                        memcmp(seen.f[i].data, want_data[i], want_len[i]) == 0);
    } else {
        FUZZ_ASSERT(0); /* the sink refused what the model accepts */
    }

    for (int i = 0; i < seen.n; i++) {
        free(seen.f[i].key);
        free(seen.f[i].filename);
        free(seen.f[i].data);
    }
    form_sink_release(&sink);
    json_decref(sink.fields);
    json_decref(want);
    return 0;
}
