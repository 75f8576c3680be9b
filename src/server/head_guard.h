/* head_guard.h — counts a connection's request heads as their bytes arrive,
 * before libmicrohttpd parses them.
 *
 * libmicrohttpd 0.9.75 keeps the whole head of a request, one record per
 * header line and per cookie, and a copy of the Cookie line's value, in a
 * connection pool of fixed size, and calls us only once the head is
 * complete. A head that overflows the pool is answered by the library
 * itself: a plain HTML page and a closed connection. The guard sees the
 * same bytes first (server/tls_guard.h) and refuses a head that breaks a
 * limit while it still fits, so the pool is sized from the limits and
 * never overflows. The limits are on what the pool holds: the head's bytes
 * with its cookie values counted twice, and its records (header lines and
 * cookies together).
 *
 * It follows HTTP/1.1 framing (RFC 9112): a head ends at an empty line;
 * the body that follows is Content-Length bytes (none without one), or
 * chunks, and is skipped; a chunked body's trailer lines count as lines of
 * its head (libmicrohttpd keeps them alongside). Framing the guard cannot
 * follow (two lengths, both a length and chunks, a bad chunk size) ends
 * its watch on that connection: libmicrohttpd's own checks remain. */
#ifndef PARAPET_HEAD_GUARD_H
#define PARAPET_HEAD_GUARD_H

#include <stddef.h>
#include <stdint.h>

struct head_limits {
    size_t max_uri_bytes;   /* the request line may hold this and a method and version */
    size_t max_head_bytes;  /* request line and header lines, CRLFs included, and the
                             * Cookie lines' values again (libmicrohttpd copies them) */
    unsigned max_fields;    /* header lines and cookies (over all Cookie lines), together */
};

/* Room on the request line besides the URI: "OPTIONS " and " HTTP/1.1",
 * with some to spare (a longer line surely holds a longer URI). */
enum { HEAD_LINE_ROOM = 32 };

enum head_verdict {
    HEAD_OK,
    HEAD_URI_TOO_LONG,
    HEAD_TOO_LARGE,
    HEAD_TOO_MANY_FIELDS, /* header lines and cookies */
};

enum head_phase {
    HEAD_IN_HEAD,     /* the head, or a chunked body's trailer lines */
    HEAD_IN_BODY,     /* Content-Length bytes */
    HEAD_CHUNK_SIZE,  /* a chunk's size line */
    HEAD_CHUNK_DATA,  /* a chunk's bytes */
    HEAD_CHUNK_END,   /* the CRLF after them */
    HEAD_UNWATCHED,
};

/* Which header a line is, as far as the guard cares. */
enum head_field { FIELD_OTHER, FIELD_COOKIE, FIELD_CONTENT_LENGTH, FIELD_TRANSFER_ENCODING };

struct head_guard {
    enum head_phase phase;
    size_t head_bytes, line_bytes;
    int cr_held; /* the last part read ended with a CR */
    int request_seen;
    unsigned lines, cookies; /* header lines (not the request line), cookies */
    size_t cookie_bytes;     /* the Cookie lines' values (libmicrohttpd's copy) */
    /* the current header line: its name so far, then what it is */
    char name[20];
    unsigned name_len;
    int name_done;
    enum head_field field; /* kept on an obs-fold line, which continues it */
    /* Content-Length, as the value streams in */
    uint64_t content_length, body_left;
    int length_seen, length_digits, length_done, length_bad, chunked;
    /* a chunked body: the size line being read, and whether the trailer
     * lines have begun */
    uint64_t chunk_size;
    unsigned chunk_digits, chunk_line_bytes;
    int chunk_size_done, in_trailers;
};

void head_guard_init(struct head_guard *g);
/* Feeds the next n bytes read from the connection. HEAD_OK, or the limit
 * the current head breaks (the guard then stays as it is). */
enum head_verdict head_guard_feed(struct head_guard *g, const struct head_limits *lim, const char *data, size_t n);

#endif
