/* decode.h — turning request input into field objects. Query strings,
 * url-encoded and multipart bodies and JSON bodies all end up as one JSON
 * object per source: text encodings give strings, and arrays of strings for
 * repeated keys or keys written `name[]` (doc 000 rule 7); JSON bodies keep
 * their own types. The field spec (spec.h) then checks and normalises. */
#ifndef PARAPET_DECODE_H
#define PARAPET_DECODE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

enum {
    DECODE_MAX_FIELDS = 1000,           /* keys plus repeated values per source */
    DECODE_MAX_KEY = 128,               /* bytes in a field name */
    DECODE_MAX_TEXT_VALUE = 1024 * 1024 /* bytes in one non-file form value */
};

/* The reason a decode failed: the envelope error and a message. */
struct decode_error {
    int err; /* enum err */
    char message[200];
};

/* Adds one text value under `key` to `obj` (a key ending in "[]" is an array;
 * a repeated key becomes an array). Checks UTF-8, NUL bytes and limits.
 * Returns 0, or -1 with e filled. */
int fields_add(json_t *obj, const char *key, size_t klen, const char *val, size_t vlen,
               struct decode_error *e);

/* Decodes an application/x-www-form-urlencoded string (a query string or
 * a url-encoded body).
 * Returns 0, or -1 with e filled; obj may hold some fields on failure. */
int query_decode(const char *q, size_t len, json_t *obj, struct decode_error *e);

/* Decodes a JSON request body, which must be one object. Returns the new
 * object, or NULL with e filled. */
json_t *json_body_decode(const char *buf, size_t len, struct decode_error *e);

/* Joins the pieces of form values as libmicrohttpd's PostProcessor hands
 * them over (a value may arrive in several calls with growing offsets). */
struct form_value {
    char *key, *filename, *content_type;
    char *data;
    size_t len, cap;
};

struct form_sink {
    json_t *fields;        /* text values */
    struct form_value cur; /* the value being received */
    size_t max_file;       /* cap on one file part, bytes */
    struct decode_error error;
    bool failed;
    /* called for each finished file part; takes ownership of the strings */
    void (*on_file)(void *ctx, char *key, char *filename, char *content_type, char *data, size_t len);
    void *ctx;
};

/* Feeds one piece; returns 0 to go on, -1 to stop (sink->error says why). */
int form_sink_piece(struct form_sink *s, const char *key, const char *filename, const char *content_type,
                    const char *data, size_t off, size_t size);
/* Finishes the last value; returns 0 or -1. */
int form_sink_finish(struct form_sink *s);
void form_sink_release(struct form_sink *s);

#endif
