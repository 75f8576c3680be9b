/* head_guard.c — see head_guard.h. A head is taken a line (or what has
 * come of it) at a time with memchr; only header names are looked at byte
 * by byte, and a body is skipped in one step. */
#include "server/head_guard.h"

#include <string.h>

static void new_line(struct head_guard *g)
{
    g->line_bytes = 0;
    g->name_len = 0;
    g->name_done = 0;
}

static void new_head(struct head_guard *g)
{
    enum head_phase phase = g->phase;
    memset(g, 0, sizeof *g);
    g->phase = phase;
}

void head_guard_init(struct head_guard *g)
{
    memset(g, 0, sizeof *g);
    g->phase = HEAD_IN_HEAD;
}

static enum head_field field_of(const char *name, unsigned len)
{
    static const struct {
        const char *name;
        enum head_field field;
    } known[] = {
        {"cookie", FIELD_COOKIE},
        {"content-length", FIELD_CONTENT_LENGTH},
        {"transfer-encoding", FIELD_TRANSFER_ENCODING},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].name) == len && memcmp(known[i].name, name, len) == 0)
            return known[i].field;
    return FIELD_OTHER;
}

/* Lines and cookies share one count: each is a record in the pool. */
static enum head_verdict count_record(struct head_guard *g, const struct head_limits *lim, unsigned *which)
{
    ++*which;
    return g->lines + g->cookies > lim->max_fields ? HEAD_TOO_MANY_FIELDS : HEAD_OK;
}

/* The empty line: the head is complete; what follows is its body. For a
 * chunked body the head's counts go on (its trailer lines add to them). */
static void end_head(struct head_guard *g)
{
    if (g->in_trailers) { /* the end of a chunked message */
        new_head(g);
        g->phase = HEAD_IN_HEAD;
    } else if (g->length_bad || (g->chunked && g->length_seen)) {
        g->phase = HEAD_UNWATCHED;
    } else if (g->chunked) {
        g->phase = HEAD_CHUNK_SIZE;
    } else {
        uint64_t body = g->length_seen ? g->content_length : 0;
        new_head(g);
        g->body_left = body;
        g->phase = body ? HEAD_IN_BODY : HEAD_IN_HEAD;
    }
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A byte of a chunk's size line: hex digits, then anything (extensions,
 * blanks) up to the LF. */
static void chunk_size_byte(struct head_guard *g, char c)
{
    int v = hex_value(c);
    if (++g->chunk_line_bytes > 4096) {
        g->phase = HEAD_UNWATCHED;
    } else if (c == '\n') {
        if (g->chunk_digits == 0) {
            g->phase = HEAD_UNWATCHED;
        } else if (g->chunk_size == 0) { /* the last chunk: trailer lines follow */
            g->phase = HEAD_IN_HEAD;
            g->in_trailers = 1;
            new_line(g);
        } else {
            g->body_left = g->chunk_size;
            g->phase = HEAD_CHUNK_DATA;
        }
        g->chunk_size = 0;
        g->chunk_digits = g->chunk_line_bytes = 0;
        g->chunk_size_done = 0;
    } else if (v >= 0 && !g->chunk_size_done) {
        if (++g->chunk_digits > 15)
            g->phase = HEAD_UNWATCHED;
        g->chunk_size = g->chunk_size * 16 + (uint64_t)v;
    } else {
        g->chunk_size_done = 1;
    }
}

/* The CRLF after a chunk's data. */
static void chunk_end_byte(struct head_guard *g, char c)
{
    if (c == '\n')
        g->phase = HEAD_CHUNK_SIZE;
    else if (c != '\r')
        g->phase = HEAD_UNWATCHED;
}

static enum head_verdict end_line(struct head_guard *g, const struct head_limits *lim)
{
    if (!g->request_seen) { /* empty lines before a request line are ignored (RFC 9112 §2.2) */
        g->request_seen = g->line_bytes > 0;
        new_line(g);
        return HEAD_OK;
    }
    /* libmicrohttpd copies the cookies once the head is complete: their
     * bytes count again, checked as each line ends, where the verdict does
     * not depend on how the line was cut into reads */
    if (g->head_bytes + g->cookie_bytes > lim->max_head_bytes)
        return HEAD_TOO_LARGE;
    if (g->line_bytes == 0) {
        end_head(g);
        return HEAD_OK;
    }
    if (g->field == FIELD_CONTENT_LENGTH && g->length_digits == 0)
        g->length_bad = 1;
    new_line(g);
    return count_record(g, lim, &g->lines);
}

/* Part of a header line's value. */
static enum head_verdict value_part(struct head_guard *g, const struct head_limits *lim, const char *p, size_t n)
{
    switch (g->field) {
    case FIELD_COOKIE:
        g->cookie_bytes += n;
        for (const char *semi; (semi = memchr(p, ';', n)) != NULL; n -= (size_t)(semi + 1 - p), p = semi + 1)
            if (count_record(g, lim, &g->cookies) != HEAD_OK)
                return HEAD_TOO_MANY_FIELDS;
        return HEAD_OK;
    case FIELD_TRANSFER_ENCODING: g->chunked |= n > 0; return HEAD_OK;
    case FIELD_CONTENT_LENGTH:
        for (size_t i = 0; i < n; i++) {
            char c = p[i];
            if (c >= '0' && c <= '9' && !g->length_done && g->length_digits < 19) {
                g->content_length = g->content_length * 10 + (uint64_t)(c - '0');
                g->length_digits++;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                g->length_done = g->length_digits > 0; /* trailing blanks end it */
            } else {
                g->length_bad = 1; /* a list, a sign, 20 digits: libmicrohttpd decides */
            }
        }
        return HEAD_OK;
    case FIELD_OTHER: return HEAD_OK;
    }
    return HEAD_OK;
}

/* Part of a header line (not the request line), without its line end. */
static enum head_verdict header_part(struct head_guard *g, const struct head_limits *lim, const char *p, size_t n)
{
    if (g->line_bytes == 0 && (p[0] == ' ' || p[0] == '\t'))
        g->name_done = 1; /* obs-fold: continues the line before, and its field */
    g->line_bytes += n;
    if (g->name_done)
        return value_part(g, lim, p, n);
    const char *colon = memchr(p, ':', n);
    size_t name = colon ? (size_t)(colon - p) : n;
    if (g->name_len + name > sizeof g->name) { /* longer than any name we look for */
        g->name_len = sizeof g->name + 1;
    } else {
        for (size_t i = 0; i < name; i++) {
            char c = p[i];
            g->name[g->name_len++] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        }
    }
    if (!colon)
        return HEAD_OK;
    g->name_done = 1;
    g->field = g->name_len <= sizeof g->name ? field_of(g->name, g->name_len) : FIELD_OTHER;
    if (g->field == FIELD_CONTENT_LENGTH) {
        if (g->length_seen)
            g->length_bad = 1; /* two of them: libmicrohttpd decides */
        g->length_seen = 1;
        g->content_length = 0;
        g->length_digits = 0;
        g->length_done = 0;
    }
    if (g->field == FIELD_COOKIE && count_record(g, lim, &g->cookies) != HEAD_OK)
        return HEAD_TOO_MANY_FIELDS;
    return value_part(g, lim, colon + 1, n - name - 1);
}

/* Content of the current line (its line end excluded). */
static enum head_verdict line_content(struct head_guard *g, const struct head_limits *lim, const char *p, size_t n)
{
    if (n == 0)
        return HEAD_OK;
    if (g->request_seen)
        return header_part(g, lim, p, n);
    g->line_bytes += n;
    return g->line_bytes > lim->max_uri_bytes + HEAD_LINE_ROOM ? HEAD_URI_TOO_LONG : HEAD_OK;
}

/* Head bytes up to the next line end, or all of them: a part of one line.
 * A line ends with CRLF or a bare LF; a CR that ends a part is held until
 * the next part shows whether the LF follows. */
static enum head_verdict line_part(struct head_guard *g, const struct head_limits *lim, const char *p, size_t n,
                                   int ends_line)
{
    int held_cr = g->cr_held, line_end_only = n == 0 && ends_line;
    g->cr_held = 0;
    if (n > 0 && p[n - 1] == '\r') {
        n--;
        g->cr_held = !ends_line;
    }
    enum head_verdict v = HEAD_OK;
    if (held_cr && !line_end_only)
        v = line_content(g, lim, "\r", 1);
    if (v == HEAD_OK)
        v = line_content(g, lim, p, n);
    return v != HEAD_OK || !ends_line ? v : end_line(g, lim);
}

/* The same, counted against the head's size. Bytes within the size are
 * looked at first, so that the verdict does not depend on how the stream
 * was cut into reads. */
static enum head_verdict head_part(struct head_guard *g, const struct head_limits *lim, const char *p, size_t n,
                                   int ends_line)
{
    size_t room = lim->max_head_bytes - g->head_bytes;
    if (n + (size_t)ends_line > room) {
        enum head_verdict v = room ? line_part(g, lim, p, room < n ? room : n, 0) : HEAD_OK;
        return v != HEAD_OK ? v : HEAD_TOO_LARGE;
    }
    g->head_bytes += n + (size_t)ends_line;
    return line_part(g, lim, p, n, ends_line);
}

enum head_verdict head_guard_feed(struct head_guard *g, const struct head_limits *lim, const char *data, size_t n)
{
    size_t i = 0;
    while (i < n) {
        switch (g->phase) {
        case HEAD_UNWATCHED: return HEAD_OK;
        case HEAD_IN_BODY:
        case HEAD_CHUNK_DATA: {
            size_t take = n - i < g->body_left ? n - i : (size_t)g->body_left;
            i += take;
            g->body_left -= take;
            if (g->body_left == 0)
                g->phase = g->phase == HEAD_IN_BODY ? HEAD_IN_HEAD : HEAD_CHUNK_END;
            break;
        }
        case HEAD_CHUNK_SIZE: chunk_size_byte(g, data[i++]); break;
        case HEAD_CHUNK_END: chunk_end_byte(g, data[i++]); break;
        case HEAD_IN_HEAD: {
            const char *nl = memchr(data + i, '\n', n - i);
            size_t len = nl ? (size_t)(nl - (data + i)) : n - i;
            enum head_verdict v = head_part(g, lim, data + i, len, nl != NULL);
            if (v != HEAD_OK)
                return v;
            i += len + (nl != NULL);
            break;
        }
        }
    }
    return HEAD_OK;
}
