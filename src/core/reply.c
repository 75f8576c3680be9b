/* reply.c — the envelope: {"code":0,"msg":"success","result":...} on
 * success, {"code":<8 digits>,"msg":"<field>: <rule>"} on failure, with the
 * HTTP status of the error catalogue (errors.def). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/req.h"
#include "store/store.h"

static const char *const method_names[] = {
    [M_GET] = "GET",     [M_POST] = "POST", [M_PUT] = "PUT",         [M_DELETE] = "DELETE",
    [M_PATCH] = "PATCH", [M_HEAD] = "HEAD", [M_OPTIONS] = "OPTIONS", [M_OTHER] = "OTHER",
};

const char *method_name(enum http_method m)
{
    return method_names[m];
}

enum http_method method_parse(const char *s)
{
    for (int m = 0; m < M_OTHER; m++)
        if (strcmp(s, method_names[m]) == 0)
            return (enum http_method)m;
    return M_OTHER;
}

static void set_body(struct req *r, int status, long code, char *body, size_t len)
{
    free(r->reply_body);
    r->status = status;
    r->code = code;
    r->reply_body = body;
    r->reply_len = body ? len : 0;
    r->reply_type = body ? "application/json" : NULL;
}

/* A reply body being encoded: jansson writes straight into it, after the
 * envelope's head. Before, json_dumps grew its own buffer from 16 bytes by
 * doubling, copied it out, and the envelope was a third copy: ~3,000
 * instructions and 9 allocations per 300-byte reply. */
struct body {
    char *p;
    size_t len, cap;
};

static int body_append(const char *data, size_t size, void *ctx)
{
    struct body *b = ctx;
    if (b->len + size + 2 > b->cap) { /* +2: the envelope's closing '}' and a NUL */
        size_t cap = b->cap * 2;
        while (cap < b->len + size + 2)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return -1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, size);
    b->len += size;
    return 0;
}

/* head + JSON of v + tail, malloc'd; NULL if v cannot be encoded. */
static char *encode(const char *head, json_t *v, size_t flags, const char *tail, size_t *len)
{
    struct body b = {malloc(1024), 0, 1024};
    if (!b.p)
        return NULL;
    if (body_append(head, strlen(head), &b) != 0 || json_dump_callback(v, body_append, &b, flags) != 0 ||
        body_append(tail, strlen(tail), &b) != 0) {
        free(b.p);
        return NULL;
    }
    b.p[b.len] = '\0';
    *len = b.len;
    return b.p;
}

int reply_result(struct req *r, json_t *result)
{
    static const char empty[] = "{\"code\":0,\"msg\":\"success\"}";
    if (!result) {
        set_body(r, 200, 0, strdup(empty), sizeof empty - 1);
        return 0;
    }
    size_t len;
    char *body = encode("{\"code\":0,\"msg\":\"success\",\"result\":", result, JSON_COMPACT | JSON_ENCODE_ANY,
                        "}", &len);
    json_decref(result);
    if (!body)
        return reply_error(r, E_INTERNAL, "the result could not be encoded");
    set_body(r, 200, 0, body, len);
    return 0;
}

int reply_error(struct req *r, enum err e, const char *fmt, ...)
{
    char msg[512];
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    } else {
        snprintf(msg, sizeof msg, "%s", err_meaning(e));
    }
    json_t *env = json_pack("{s:I,s:s}", "code", (json_int_t)err_code(e), "msg", msg);
    if (!env) /* msg was not UTF-8 (it echoes input): fall back to the meaning */
        env = json_pack("{s:I,s:s}", "code", (json_int_t)err_code(e), "msg", err_meaning(e));
    size_t len = 0;
    char *body = encode("", env, JSON_COMPACT, "", &len);
    set_body(r, err_status(e), err_code(e), body, len);
    json_decref(env);
    return 0;
}

int reply_store_error(struct req *r, int store_rc)
{
    switch (store_rc) {
    case STORE_NOT_FOUND: return reply_error(r, E_NOT_FOUND, NULL);
    case STORE_CONFLICT: return reply_error(r, E_CONFLICT, NULL);
    default: return reply_error(r, E_STORE, NULL);
    }
}

int reply_redirect(struct req *r, const char *location)
{
    set_body(r, 302, 0, NULL, 0);
    r->location = arena_strdup(&r->arena, location);
    return 0;
}

int reply_raw(struct req *r, const char *content_type, char *body, size_t len)
{
    set_body(r, 200, 0, body, len);
    r->reply_type = content_type;
    return 0;
}

int reply_download(struct req *r, const char *content_type, const char *filename, char *body, size_t len)
{
    char disposition[256];
    snprintf(disposition, sizeof disposition, "attachment; filename=\"%s\"", filename);
    r->disposition = arena_strdup(&r->arena, disposition);
    return reply_raw(r, content_type, body, len);
}

const char *field_str(struct req *r, const char *name)
{
    return json_string_value(json_object_get(r->fields, name));
}

long long field_int(struct req *r, const char *name, long long fallback)
{
    json_t *v = json_object_get(r->fields, name);
    return json_is_integer(v) ? json_integer_value(v) : fallback;
}

bool field_bool(struct req *r, const char *name, bool fallback)
{
    json_t *v = json_object_get(r->fields, name);
    return json_is_boolean(v) ? json_is_true(v) : fallback;
}

json_t *field_json(struct req *r, const char *name)
{
    return json_object_get(r->fields, name);
}

const struct upload_file *field_file(struct req *r, const char *name)
{
    for (const struct upload_file *f = r->files; f; f = f->next)
        if (strcmp(f->field, name) == 0)
            return f;
    return NULL;
}

const char *path_param(struct req *r, const char *name)
{
    return json_string_value(json_object_get(r->path_params, name));
}

const char *field_as_sent(struct req *r, const char *name)
{
    json_t *v = r->body_fields ? json_object_get(r->body_fields, name) : NULL;
    if (!v && r->query_fields)
        v = json_object_get(r->query_fields, name);
    return json_string_value(v);
}
