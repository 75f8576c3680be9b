/* decode.c — see decode.h. */
#include "core/decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "core/errors.h"

static int fail(struct decode_error *e, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct decode_error *e, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    e->err = err;
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* The number of values an object holds, counting array elements. */
static size_t values_in(const json_t *obj)
{
    size_t n = 0;
    const char *k;
    json_t *v;
    json_object_foreach ((json_t *)obj, k, v) {
        n += json_is_array(v) ? json_array_size(v) : 1;
    }
    return n;
}

int fields_add(json_t *obj, const char *key, size_t klen, const char *val, size_t vlen,
               struct decode_error *e)
{
    bool explicit_array = klen > 2 && key[klen - 2] == '[' && key[klen - 1] == ']';
    if (explicit_array)
        klen -= 2;
    if (klen == 0)
        return fail(e, E_BAD_REQUEST, "a field has an empty name");
    if (klen > DECODE_MAX_KEY)
        return fail(e, E_BAD_REQUEST, "a field name is longer than %d bytes", DECODE_MAX_KEY);
    if (memchr(key, '\0', klen))
        return fail(e, E_BAD_REQUEST, "a field name contains a NUL byte");
    char name[DECODE_MAX_KEY + 1];
    memcpy(name, key, klen);
    name[klen] = '\0';
    if (!utf8_valid(name, klen))
        return fail(e, E_BAD_REQUEST, "a field name is not valid UTF-8");
    if (vlen > DECODE_MAX_TEXT_VALUE)
        return fail(e, E_TOO_LARGE, "%s: value is longer than %d bytes", name, DECODE_MAX_TEXT_VALUE);
    if (memchr(val, '\0', vlen))
        return fail(e, E_FIELD_INVALID, "%s: must not contain a NUL byte", name);
    json_t *s = json_stringn(val, vlen);
    if (!s)
        return fail(e, E_FIELD_INVALID, "%s: is not valid UTF-8", name);
    if (values_in(obj) >= DECODE_MAX_FIELDS) {
        json_decref(s);
        return fail(e, E_TOO_MANY_FIELDS, "more than %d fields or values", DECODE_MAX_FIELDS);
    }

    json_t *old = json_object_get(obj, name);
    if (!old) {
        if (explicit_array) {
            json_t *arr = json_array();
            json_array_append_new(arr, s);
            json_object_set_new(obj, name, arr);
        } else {
            json_object_set_new(obj, name, s);
        }
    } else if (json_is_array(old)) {
        json_array_append_new(old, s);
    } else {
        json_t *arr = json_array();
        json_array_append(arr, old);
        json_array_append_new(arr, s);
        json_object_set_new(obj, name, arr);
    }
    return 0;
}

int query_decode(const char *q, size_t len, json_t *obj, struct decode_error *e)
{
    char *buf = malloc(len + 1);
    if (!buf)
        return fail(e, E_INTERNAL, "out of memory");
    int rc = 0;
    size_t start = 0;
    while (start <= len && rc == 0) {
        size_t end = start;
        while (end < len && q[end] != '&')
            end++;
        if (end > start) { /* empty pairs ("a=1&&b=2") are skipped */
            const char *eq = memchr(q + start, '=', end - start);
            size_t klen = eq ? (size_t)(eq - (q + start)) : end - start;
            long kd = percent_decode(q + start, klen, buf, true);
            if (kd < 0) {
                rc = fail(e, E_BAD_REQUEST, "a field name has a broken %%-escape");
                break;
            }
            char key[DECODE_MAX_KEY + 3];
            if ((size_t)kd > sizeof key - 1) {
                rc = fail(e, E_BAD_REQUEST, "a field name is longer than %d bytes", DECODE_MAX_KEY);
                break;
            }
            memcpy(key, buf, (size_t)kd);
            key[kd] = '\0';
            const char *v = eq ? eq + 1 : q + end;
            size_t vlen = eq ? (size_t)(q + end - v) : 0;
            long vd = percent_decode(v, vlen, buf, true);
            if (vd < 0) {
                rc = fail(e, E_BAD_REQUEST, "%s: has a broken %%-escape", key);
                break;
            }
            rc = fields_add(obj, key, (size_t)kd, buf, (size_t)vd, e);
        }
        start = end + 1;
    }
    free(buf);
    return rc;
}

json_t *json_body_decode(const char *buf, size_t len, struct decode_error *e)
{
    json_error_t je;
    /* DECODE_ANY: a valid scalar body gets "must be a JSON object" below */
    json_t *v = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!v) {
        fail(e, E_MALFORMED_BODY, "body is not valid JSON: %s (line %d, column %d)", je.text, je.line,
             je.column);
        return NULL;
    }
    if (!json_is_object(v)) {
        json_decref(v);
        fail(e, E_MALFORMED_BODY, "body must be a JSON object");
        return NULL;
    }
    return v;
}

static void value_reset(struct form_value *v)
{
    free(v->key);
    free(v->filename);
    free(v->content_type);
    free(v->data);
    memset(v, 0, sizeof *v);
}

/* Stops the sink with "<key>: <rule>" (or just the rule without a key). */
static int sink_fail(struct form_sink *s, int err, const char *key, const char *rule)
{
    s->failed = true;
    s->error.err = err;
    snprintf(s->error.message, sizeof s->error.message, "%s%s%s", key ? key : "", key ? ": " : "", rule);
    return -1;
}

/* Ends the value being received: text goes to the fields, files to on_file. */
static int finish_value(struct form_sink *s)
{
    struct form_value *v = &s->cur;
    if (!v->key)
        return 0;
    int rc = 0;
    if (v->filename) {
        s->on_file(s->ctx, v->key, v->filename, v->content_type, v->data, v->len);
        memset(v, 0, sizeof *v); /* ownership moved */
    } else {
        if (fields_add(s->fields, v->key, strlen(v->key), v->data ? v->data : "", v->len, &s->error) != 0) {
            s->failed = true;
            rc = -1;
        }
        value_reset(v);
    }
    return rc;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

int form_sink_piece(struct form_sink *s, const char *key, const char *filename, const char *content_type,
                    const char *data, size_t off, size_t size)
{
    if (s->failed)
        return -1;
    if (!key)
        return sink_fail(s, E_MALFORMED_BODY, NULL, "a form part has no field name");
    /* A piece at offset 0 starts a new value (possibly with the same key). */
    if (off == 0 || !s->cur.key || strcmp(s->cur.key, key) != 0) {
        if (finish_value(s) != 0)
            return -1;
        s->cur.key = strdup(key);
        s->cur.filename = dup_or_null(filename);
        s->cur.content_type = dup_or_null(content_type);
    }
    size_t cap = s->cur.filename ? s->max_file : DECODE_MAX_TEXT_VALUE;
    if (s->cur.len + size > cap)
        return sink_fail(s, E_TOO_LARGE, key, "value is too large");
    if (s->cur.len + size + 1 > s->cur.cap) {
        size_t ncap = s->cur.cap ? s->cur.cap * 2 : 256;
        while (ncap < s->cur.len + size + 1)
            ncap *= 2;
        char *nd = realloc(s->cur.data, ncap);
        if (!nd)
            return sink_fail(s, E_INTERNAL, NULL, "out of memory");
        s->cur.data = nd;
        s->cur.cap = ncap;
    }
    if (size)
        memcpy(s->cur.data + s->cur.len, data, size);
    s->cur.len += size;
    s->cur.data[s->cur.len] = '\0';
    return 0;
}

int form_sink_finish(struct form_sink *s)
{
    if (s->failed)
        return -1;
    return finish_value(s);
}

void form_sink_release(struct form_sink *s)
{
    value_reset(&s->cur);
}
