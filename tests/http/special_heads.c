/* special_heads.c — requests whose head is large in number rather than in
 * bytes (hundreds of query parameters, header lines, cookies; thousands of
 * form fields) are answered promptly with an envelope error, and the
 * server goes on serving. Sent over raw TLS so that a missing answer shows
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

    /* beyond what the connection's memory holds: libmicrohttpd's own 431 */
    start(&h, "GET", line);
    end_head(&h);
    add(&h, "Cookie: a=1");
    repeat(&h, "; c", 3000);
    add(&h, "\r\n\r\n");
    bad |= expect(fx, "3000 cookies", &h, 431, NULL);

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
