/* test_head_guard.c — server/head_guard.h: limits on request heads counted
 * as bytes arrive, whole or in pieces, across keep-alive requests. */
#include "server/head_guard.h"

#include <stdlib.h>

#include "unit.h"

static const struct head_limits lim = {.max_uri_bytes = 8, .max_head_bytes = 300, .max_fields = 4};

/* The verdict for text fed at once, and fed byte by byte (which must agree). */
static enum head_verdict feed(const char *text)
{
    struct head_guard whole, bytes;
    head_guard_init(&whole);
    head_guard_init(&bytes);
    enum head_verdict a = head_guard_feed(&whole, &lim, text, strlen(text));
    enum head_verdict b = HEAD_OK;
    for (size_t i = 0; text[i] && b == HEAD_OK; i++)
        b = head_guard_feed(&bytes, &lim, text + i, 1);
    CHECK_INT(a, b);
    return a;
}

TEST(ordinary_heads_pass)
{
    CHECK_INT(feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), HEAD_OK);
    CHECK_INT(feed("\r\nGET / HTTP/1.1\nHost: a\n\n"), HEAD_OK); /* bare LF, a leading empty line */
    CHECK_INT(feed("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n"), HEAD_OK);
    CHECK_INT(feed("GET / HTTP/1.1\r\nCookie: a=1; b=2; c=3\r\n\r\n"), HEAD_OK); /* 3 cookies, 1 line */
}

TEST(each_limit_refused)
{
    CHECK_INT(feed("GET /012345678901234567890123456789012345678 HTTP/1.1\r\n"), HEAD_URI_TOO_LONG);
    CHECK_INT(feed("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n"), HEAD_TOO_MANY_FIELDS);
    CHECK_INT(feed("GET / HTTP/1.1\r\nCookie: a=1; b=2; c=3; d=4; e=5; f=6\r\n"), HEAD_TOO_MANY_FIELDS);
    CHECK_INT(feed("GET / HTTP/1.1\r\nCookie: a=1\r\nCOOKIE: d=4; e=5\r\n"), HEAD_TOO_MANY_FIELDS);
    char big[400];
    snprintf(big, sizeof big, "GET / HTTP/1.1\r\nX: %0300d\r\n\r\n", 0);
    CHECK_INT(feed(big), HEAD_TOO_LARGE);
}

/* Header lines and cookies share one count: each is a record in
 * libmicrohttpd's pool. */
TEST(lines_and_cookies_counted_together)
{
    CHECK_INT(feed("GET / HTTP/1.1\r\nA: 1\r\nCookie: a=1; b=2\r\n\r\n"), HEAD_OK); /* 2 lines, 2 cookies */
    CHECK_INT(feed("GET / HTTP/1.1\r\nA: 1\r\nCookie: a=1; b=2; c=3\r\n"), HEAD_TOO_MANY_FIELDS);
    CHECK_INT(feed("GET / HTTP/1.1\r\nCookie: a=1; b=2\r\nA: 1\r\nB: 2\r\n"), HEAD_TOO_MANY_FIELDS);
}

/* libmicrohttpd copies the Cookie values: they count twice toward the
 * head's bytes, the empty line that ends the head included. */
TEST(cookie_bytes_count_twice)
{
    char text[400];
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nX: a=%0120d\r\n\r\n", 0); /* 145 bytes */
    CHECK_INT(feed(text), HEAD_OK);
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nCookie: a=%0120d\r\n\r\n", 0); /* 150 + 123 */
    CHECK_INT(feed(text), HEAD_OK);
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nCookie: a=%0132d\r\n\r\n", 0); /* 162 + 135: 297 */
    CHECK_INT(feed(text), HEAD_OK);
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nCookie: a=%0134d\r\nX: 1\r\n\r\n", 0); /* 164 + 137 */
    CHECK_INT(feed(text), HEAD_TOO_LARGE);
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nCookie: a=%0133d\r\n\r\n", 0); /* 163 + 136: 299... */
    CHECK_INT(feed(text), HEAD_OK);
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nCookie: a=%0134d\r\n\r\n", 0); /* ... and 301 */
    CHECK_INT(feed(text), HEAD_TOO_LARGE);
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nCookie: a=%0140d\r\n\r\n", 0); /* 170 + 143 */
    CHECK_INT(feed(text), HEAD_TOO_LARGE);
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nX: a=%0140d\r\n\r\n", 0);
    CHECK_INT(feed(text), HEAD_OK);
    /* a folded Cookie line's second part counts too */
    snprintf(text, sizeof text, "GET / HTTP/1.1\r\nCookie: a=%070d\r\n b=%065d\r\n\r\n", 0, 0);
    CHECK_INT(feed(text), HEAD_TOO_LARGE);
}

/* A refusal comes as soon as the limit is passed, not at the end of the head. */
TEST(refused_before_the_head_ends)
{
    struct head_guard g;
    head_guard_init(&g);
    const char *t = "GET / HTTP/1.1\r\nCookie: a; b; c; d; e; f";
    CHECK_INT(head_guard_feed(&g, &lim, t, strlen(t)), HEAD_TOO_MANY_FIELDS);
}

/* Only the names themselves are recognised, in any case, read whole or cut. */
TEST(field_names_matched_exactly)
{
    CHECK_INT(feed("GET / HTTP/1.1\r\nX-Not-A-Cookie-Header-At-All: a;b;c;d;e;f;g\r\n\r\n"), HEAD_OK);
    CHECK_INT(feed("GET / HTTP/1.1\r\nCookie2: a;b;c;d;e;f;g\r\n\r\n"), HEAD_OK);
    CHECK_INT(feed("GET / HTTP/1.1\r\ncOoKiE: a;b;c;d;e;f;g\r\n\r\n"), HEAD_TOO_MANY_FIELDS);
    /* a Content-Length too long to be read as one is no framing to follow */
    CHECK_INT(feed("POST / HTTP/1.1\r\nContent-Length-Long-Name-Here: 5\r\n\r\nA\nB\nC\nD\nE\nF\n"),
              HEAD_TOO_MANY_FIELDS);
}

/* A CR inside a line is content; the CR of a CRLF cut from its LF is not. */
TEST(carriage_returns)
{
    struct head_guard g;
    head_guard_init(&g);
    const char *parts[] = {"GET / HTTP/1.1\r", "\n", "Host: a\r", "\n\r", "\n"};
    for (size_t i = 0; i < 5; i++)
        CHECK_INT(head_guard_feed(&g, &lim, parts[i], strlen(parts[i])), HEAD_OK);
    CHECK_INT(g.phase, HEAD_IN_HEAD);
    CHECK_INT(g.request_seen, 0); /* the head ended: a new one begins */
    CHECK_INT(feed("GET / HTTP/1.1\r\n\rA: 1\r\n\r\n"), HEAD_OK);
}

/* obs-fold continues the Cookie line, and its cookies still count. */
TEST(folded_cookie_lines_count)
{
    CHECK_INT(feed("GET / HTTP/1.1\r\nCookie: a=1;\r\n b; c;\r\n d; e; f\r\n\r\n"), HEAD_TOO_MANY_FIELDS);
}

/* Bodies are skipped by Content-Length: a body full of newlines is no head,
 * and the next request's head is counted afresh. */
TEST(bodies_skipped_heads_counted_afresh)
{
    char text[600];
    snprintf(text, sizeof text,
             "POST / HTTP/1.1\r\nContent-Length: 12\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n\n\n\n\n\n\n\n\n\n\n\n\n"
             "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n"
             "GET / HTTP/1.1\r\ncontent-length:  0 \r\n\r\n"
             "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n");
    CHECK_INT(feed(text), HEAD_OK);
    /* and the fifth field of a later request is still found */
    char more[700];
    snprintf(more, sizeof more, "%sGET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n", text);
    CHECK_INT(feed(more), HEAD_TOO_MANY_FIELDS);
}

/* A head's byte count starts again with each request. */
TEST(byte_limit_is_per_head)
{
    char one[200], text[2000] = "";
    snprintf(one, sizeof one, "GET / HTTP/1.1\r\nX: %0150d\r\n\r\n", 0);
    for (int i = 0; i < 8; i++)
        strcat(text, one);
    CHECK_INT(feed(text), HEAD_OK);
}

/* Chunked bodies are skipped chunk by chunk; their trailer lines add to
 * the head's count; the next request is counted afresh. */
TEST(chunked_bodies_followed)
{
    const char *two = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nA: 1\r\n\r\n"
                      "5\r\nA\nB\nC\r\na;ext=1\r\n\n\n\n\n\n\n\n\n\n\n\r\n0\r\nT: 1\r\n\r\n"
                      "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n";
    CHECK_INT(feed(two), HEAD_OK);
    char more[400];
    snprintf(more, sizeof more, "%sGET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n", two);
    CHECK_INT(feed(more), HEAD_TOO_MANY_FIELDS);
    /* 2 head lines and 2 trailer lines reach the limit of 4; a third trailer passes it */
    CHECK_INT(feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nA: 1\r\n\r\n0\r\nT: 1\r\nU: 2\r\n\r\n"),
              HEAD_OK);
    CHECK_INT(feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nA: 1\r\n\r\n0\r\nT: 1\r\nU: 2\r\nV: 3\r\n"),
              HEAD_TOO_MANY_FIELDS);
}

/* Framing the guard does not follow ends its watch: never a false refusal. */
TEST(unusual_framing_unwatched)
{
    const char *bad_chunk = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                            "zz\r\nA\nB\nC\nD\nE\nF\n";
    CHECK_INT(feed(bad_chunk), HEAD_OK);
    CHECK_INT(feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
                   "0\r\nA\nB\nC\nD\nE\nF\n"),
              HEAD_OK);
    CHECK_INT(feed("POST / HTTP/1.1\r\nContent-Length: 1, 1\r\n\r\nx\nA\nB\nC\nD\nE\nF\n"), HEAD_OK);
    CHECK_INT(feed("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx\nA\nB\nC\nD\nE\nF\n"), HEAD_OK);
    CHECK_INT(feed("POST / HTTP/1.1\r\nContent-Length:\r\n\r\nA\nB\nC\nD\nE\nF\n"), HEAD_OK);
    CHECK_INT(feed("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\nA\nB\nC\nD\nE\nF\n"), HEAD_OK);
}

/* A large declared body is skipped whatever it holds, fed in pieces. */
TEST(large_body_in_pieces)
{
    struct head_guard g;
    head_guard_init(&g);
    const char *h = "POST / HTTP/1.1\r\nContent-Length: 100000\r\n\r\n";
    CHECK_INT(head_guard_feed(&g, &lim, h, strlen(h)), HEAD_OK);
    char *body = malloc(1000);
    memset(body, '\n', 1000);
    for (int i = 0; i < 100; i++)
        CHECK_INT(head_guard_feed(&g, &lim, body, 1000), HEAD_OK);
    free(body);
    CHECK_INT(g.phase, HEAD_IN_HEAD);
    const char *next = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n";
    CHECK_INT(head_guard_feed(&g, &lim, next, strlen(next)), HEAD_TOO_MANY_FIELDS);
}

UNIT_MAIN(UNIT_CASE(ordinary_heads_pass), UNIT_CASE(field_names_matched_exactly), UNIT_CASE(carriage_returns), UNIT_CASE(each_limit_refused),
          UNIT_CASE(lines_and_cookies_counted_together), UNIT_CASE(cookie_bytes_count_twice),
          UNIT_CASE(refused_before_the_head_ends),
          UNIT_CASE(folded_cookie_lines_count), UNIT_CASE(bodies_skipped_heads_counted_afresh),
          UNIT_CASE(byte_limit_is_per_head), UNIT_CASE(chunked_bodies_followed), UNIT_CASE(unusual_framing_unwatched), UNIT_CASE(large_body_in_pieces))
