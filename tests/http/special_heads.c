/* special_heads.c — requests whose head is large in number (hundreds of
 * query parameters, header lines, cookies; thousands of form fields) or in
 * bytes are answered promptly with an envelope error, and the server goes
 * on serving. Sent over raw TLS so that a missing answer shows
 * as a timeout instead of a libcurl retry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/harness.h"
#include "http/rawconn.h"
#include "http/special.h"

#define FAIL(...) (check_fail(__func__, __VA_ARGS__), 1)

/* "Prompt" is measured against a hang: the server's idle timeout is 30 s,
 * so 10 s tells the two apart with room for a loaded machine (ASan, CI). */
enum { WAIT_MS = 15000, PROMPT_MS = 10000 };

struct head {
    char *p;
    size_t len, cap;
};

static void add(struct head *h, const char *s)
{
    size_t n = strlen(s);
    if (h->len + n + 1 > h->cap) {
        h->cap = (h->len + n + 1) * 2;
        h->p = realloc(h->p, h->cap);
    }
    memcpy(h->p + h->len, s, n + 1);
    h->len += n;
}

static void repeat(struct head *h, const char *s, int times)
{
    for (int i = 0; i < times; i++)
        add(h, s);
}

/* Sends the request, expects `status` (and `code` in the body, unless 0)
 * within PROMPT_MS and the connection closed (every request asks for it). */
static int expect(struct fixture *fx, const char *what, struct head *h, int status, const char *code)
{
    static char buf[65536];
    double ms;
    int n = tls_exchange(fx->main_port, h->p, h->len, buf, sizeof buf, WAIT_MS, &ms);
    int got = 0;
    sscanf(buf, "HTTP/1.1 %d", &got);
    int bad = 0;
    if (n <= 0)
        bad |= FAIL("%s: no answer (%d) after %.0f ms", what, n, ms);
    else if (got != status || (code && !strstr(buf, code)))
        bad |= FAIL("%s: answered %d, want %d %s: %.200s", what, got, status, code ? code : "", buf);
    else if (ms > PROMPT_MS)
        bad |= FAIL("%s: answer or close took %.0f ms", what, ms);
    free(h->p);
    memset(h, 0, sizeof *h);
    return bad;
}

static void start(struct head *h, const char *method, const char *path_and_query)
{
    memset(h, 0, sizeof *h);
    add(h, method);
    add(h, " ");
    add(h, path_and_query);
}

static void end_head(struct head *h)
{
    add(h, " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
}

enum { MAX_HEAD = 16384, MAX_RECORDS = 100 }; /* serve's defaults */
/* a form body of 20,000 bytes with a field the token endpoint does not take */
static const char body_start[] = "grant_type=client_credential&app_id=x&secret=y&pad=";
enum { BODY = 20000 };

/* A head of 100 records: header lines, and `cookies` cookies in one Cookie
 * line. Its X-0 line has `x0` bytes of value; `pad` more bytes go to the
 * last cookie, or with no cookies to X-0. Its weight (bytes, with the
 * Cookie value counted twice) in *weight. */
static void build_large_head(struct head *h, const char *method, int cookies, int x0, int pad, size_t *weight)
{
    int post = strcmp(method, "POST") == 0;
    char line[256];
    snprintf(line, sizeof line, "/api/spe/customers?access_token=%s", var_get("T_P1"));
    start(h, method, post ? "/oauth/credit/token" : line);
    end_head(h); /* Host, Connection */
    add(h, "X-0: ");
    repeat(h, "v", x0 + (cookies ? 0 : pad));
    add(h, "\r\n");
    if (post) {
        snprintf(line, sizeof line, "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n",
                 BODY);
        add(h, line);
    }
    int lines = 3 + 2 * post + (cookies > 0); /* Host, Connection, X-0, (two for the body,) (Cookie) */
    for (int i = 1; i <= MAX_RECORDS - cookies - lines; i++) {
        snprintf(line, sizeof line, "X-%d: v\r\n", i);
        add(h, line);
    }
    size_t value = 0;
    if (cookies) {
        add(h, "Cookie:");
        size_t value_from = h->len;
        add(h, " c0=v");
        for (int i = 1; i < cookies - 1; i++)
            add(h, "; c=v");
        add(h, "; pad=");
        repeat(h, "p", pad);
        value = h->len - value_from;
        add(h, "\r\n");
    }
    add(h, "\r\n");
    *weight = h->len + value;
    if (post) {
        add(h, body_start);
        repeat(h, "p", BODY - (int)strlen(body_start));
    }
}

/* The largest heads within every limit at once are served: 16384 bytes
 * with the Cookie value counted twice (libmicrohttpd copies it), 100 header
 * lines and cookies together (a record each), most bytes in the Cookie line
 * or in one header line; the connection's memory is sized from the limits.
 * One byte more is refused with an envelope. As a POST, its body (read
 * ahead with the head into what memory is left) is read through and
 * answered too. */
static int largest_head(struct fixture *fx, const char *method, int cookies)
{
    int bad = 0;
    int post = strcmp(method, "POST") == 0;
    struct head h;
    size_t weight;
    build_large_head(&h, method, cookies, 1, 0, &weight);
    free(h.p);
    int per_byte = cookies ? 2 : 1;
    int x0 = 1 + (int)((MAX_HEAD - weight) % (size_t)per_byte), pad = (int)((MAX_HEAD - weight) / (size_t)per_byte);
    for (int extra = 0; extra <= 1; extra++) {
        build_large_head(&h, method, cookies, x0 + extra, pad, &weight);
        if (weight != (size_t)MAX_HEAD + (size_t)extra)
            return FAIL("the test built a head of weight %zu", weight);
        char what[128];
        snprintf(what, sizeof what, "a %s head of 16384 bytes (cookies twice), 100 records, %d cookies%s", method,
                 cookies, extra ? ", and one byte" : "");
        bad |= extra ? expect(fx, what, &h, 431, "43100001")
                     : expect(fx, what, &h, post ? 400 : 200, post ? "40000006" : "\"code\":0");
    }
    return bad;
}

/* Bodies are not counted as heads: a body of many lines, then the next
 * request on the same connection, are both answered as usual. */
static int bodies_are_not_heads(struct fixture *fx)
{
    struct head body = {0}, h;
    add(&body, "{");
    repeat(&body, "\r\n", 3000);
    add(&body, "\"x\": 1}");
    start(&h, "POST", "/api/specp/dp/v2/zones/standard");
    add(&h, " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n");
    char line[256];
    snprintf(line, sizeof line, "Content-Length: %zu\r\n\r\n", body.len);
    add(&h, line);
    add(&h, body.p);
    free(body.p);
    snprintf(line, sizeof line, "GET /api/spe/customers?access_token=%s", var_get("T_P1"));
    add(&h, line);
    end_head(&h);
    add(&h, "\r\n");
    static char buf[65536];
    double ms;
    int n = tls_exchange(fx->main_port, h.p, h.len, buf, sizeof buf, WAIT_MS, &ms);
    free(h.p);
    int first = 0, second = 0;
    const char *next = n > 0 ? strstr(buf + 1, "HTTP/1.1 ") : NULL;
    if (n > 0)
        sscanf(buf, "HTTP/1.1 %d", &first);
    if (next)
        sscanf(next, "HTTP/1.1 %d", &second);
    if (first != 401 || second != 200)
        return FAIL("a 3000-line body then a GET: answered %d then %d, want 401 then 200: %.300s", first, second,
                    n > 0 ? buf : "");
    return 0;
}

int oversized_heads(struct fixture *fx)
{
    int bad = 0;
    char line[256];
    struct head h;
    snprintf(line, sizeof line, "/api/spe/customers?access_token=%s", var_get("T_P1"));
    /* 250 and 700 parameters: the field check answers (page given twice) */
    int counts[] = {250, 700};
    for (int i = 0; i < 2; i++) {
        start(&h, "GET", line);
        repeat(&h, "&page=1", counts[i]);
        end_head(&h);
        add(&h, "\r\n");
        char what[64];
        snprintf(what, sizeof what, "%d query parameters", counts[i]);
        bad |= expect(fx, what, &h, 400, "40000007");
    }
    start(&h, "GET", line);
    repeat(&h, "&a=1", 1100);
    end_head(&h);
    add(&h, "\r\n");
    bad |= expect(fx, "1100 query parameters", &h, 400, "40000008");

    start(&h, "GET", line);
    add(&h, "&x=");
    repeat(&h, "y", 9000);
    end_head(&h);
    add(&h, "\r\n");
    bad |= expect(fx, "a 9 KB URI", &h, 414, "41400001");

    start(&h, "GET", line);
    end_head(&h);
    for (int i = 0; i < 150; i++) {
        snprintf(line, sizeof line, "X-H%d: v\r\n", i);
        add(&h, line);
    }
    add(&h, "\r\n");
    bad |= expect(fx, "150 header lines", &h, 431, "43100001");

    snprintf(line, sizeof line, "/api/spe/customers?access_token=%s", var_get("T_P1"));
    start(&h, "GET", line);
    end_head(&h);
    add(&h, "Cookie: a=1");
    repeat(&h, "; c=v", 150);
    add(&h, "\r\n\r\n");
    bad |= expect(fx, "150 cookies", &h, 431, "43100001");

    /* far beyond the limits: refused as the head arrives, before
     * libmicrohttpd's memory for it runs out (it would answer in HTML) */
    start(&h, "GET", line);
    end_head(&h);
    add(&h, "Cookie: a=1");
    repeat(&h, "; c", 3000);
    add(&h, "\r\n\r\n");
    bad |= expect(fx, "3000 cookies", &h, 431, "43100001");

    start(&h, "GET", line);
    end_head(&h);
    for (int i = 0; i < 3000; i++) {
        snprintf(line, sizeof line, "X-H%d: v\r\n", i);
        add(&h, line);
    }
    add(&h, "\r\n");
    bad |= expect(fx, "3000 header lines", &h, 431, "43100001");

    snprintf(line, sizeof line, "/api/spe/customers?access_token=%s", var_get("T_P1"));
    start(&h, "GET", line);
    end_head(&h);
    add(&h, "X-Big: ");
    repeat(&h, "b", 100000);
    add(&h, "\r\n\r\n");
    bad |= expect(fx, "a 100 KB header line", &h, 431, "43100001");

    start(&h, "GET", line);
    add(&h, "&x=");
    repeat(&h, "y", 20000);
    end_head(&h);
    add(&h, "\r\n");
    bad |= expect(fx, "a 20 KB URI", &h, 414, "41400001");

    for (int cookies = 0; cookies <= 90; cookies += 45) {
        bad |= largest_head(fx, "GET", cookies);
        bad |= largest_head(fx, "POST", cookies);
    }
    bad |= bodies_are_not_heads(fx);

    /* 5000 form fields */
    struct head body = {0};
    repeat(&body, "f=1&", 5000);
    start(&h, "POST", "/oauth/credit/token");
    end_head(&h);
    snprintf(line, sizeof line, "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %zu\r\n\r\n",
             body.len);
    add(&h, line);
    add(&h, body.p);
    free(body.p);
    bad |= expect(fx, "5000 form fields", &h, 400, "40000008");

    /* and the server still serves */
    snprintf(line, sizeof line, "/api/spe/customers?access_token=%s", var_get("T_P1"));
    start(&h, "GET", line);
    end_head(&h);
    add(&h, "\r\n");
    bad |= expect(fx, "a normal request afterwards", &h, 200, "\"code\":0");
    return bad;
}
