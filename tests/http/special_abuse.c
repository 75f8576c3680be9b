/* special_abuse.c — the abuse limits of abuse.h on a server of their own
 * with small numbers: an app's request quota (429, Retry-After, the
 * RateLimit headers) and the slow-down of failed token requests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "http/harness.h"
#include "http/rawconn.h"
#include "http/special.h"

#define FAIL(...) (check_fail(__func__, __VA_ARGS__), 1)

static char answer[16384];

/* One request on its own connection; the status, and the full answer in `answer`. */
static int ask(int port, const char *method, const char *target, const char *form)
{
    char rq[2048];
    if (form)
        snprintf(rq, sizeof rq,
                 "%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %zu\r\n\r\n%s",
                 method, target, strlen(form), form);
    else
        snprintf(rq, sizeof rq, "%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", method, target);
    double ms;
    tls_exchange(port, rq, strlen(rq), answer, sizeof answer, 5000, &ms);
    int status = 0;
    sscanf(answer, "HTTP/1.1 %d", &status);
    return status;
}

/* The value of header `name` in `answer`, or "". */
static const char *header(const char *name)
{
    static char v[256];
    v[0] = '\0';
    size_t n = strlen(name);
    for (const char *p = strstr(answer, "\r\n"); p && p[2] != '\r'; p = strstr(p + 2, "\r\n"))
        if (strncasecmp(p + 2, name, n) == 0 && p[2 + n] == ':') {
            const char *s = p + 3 + n + strspn(p + 3 + n, " ");
            snprintf(v, sizeof v, "%.*s", (int)strcspn(s, "\r"), s);
            break;
        }
    return v;
}

static int quota(int port)
{
    char target[256], want[64];
    int bad = 0;
    snprintf(target, sizeof target, "/api/spe/customers?access_token=%s", var_get("T_P1"));
    for (int i = 0; i < 5; i++) {
        int st = ask(port, "GET", target, NULL);
        snprintf(want, sizeof want, "\"app\";r=%d;", 4 - i);
        bad |= st != 200 ? FAIL("request %d: %d", i + 1, st) : 0;
        if (4 - i > 2) { /* less than half the quota spent: no headers */
            bad |= header("RateLimit")[0] ? FAIL("request %d: RateLimit '%s' early", i + 1, header("RateLimit")) : 0;
            continue;
        }
        bad |= strcmp(header("RateLimit-Policy"), "\"app\";q=5;w=3600") != 0
                   ? FAIL("RateLimit-Policy: '%s'", header("RateLimit-Policy"))
                   : 0;
        bad |= strncmp(header("RateLimit"), want, strlen(want)) != 0
                   ? FAIL("request %d: RateLimit '%s', want %s...", i + 1, header("RateLimit"), want)
                   : 0;
    }
    int st = ask(port, "GET", target, NULL);
    int retry = atoi(header("Retry-After"));
    bad |= st != 429 || !strstr(answer, "42900001") ? FAIL("sixth request: %d %.300s", st, answer) : 0;
    bad |= retry < 1 || retry > 3600 ? FAIL("Retry-After '%s'", header("Retry-After")) : 0;
    bad |= strncmp(header("RateLimit"), "\"app\";r=0;", 10) != 0 ? FAIL("RateLimit '%s'", header("RateLimit")) : 0;
    /* another app's quota is its own */
    snprintf(target, sizeof target, "/api/spe/customer/%s?access_token=%s", var_get("C1"), var_get("IA1_C1_TOKEN"));
    st = ask(port, "GET", target, NULL);
    bad |= st != 200 ? FAIL("another app after the first ran out: %d %.200s", st, answer) : 0;
    return bad;
}

static int credit(int port, const char *secret)
{
    char form[512];
    snprintf(form, sizeof form, "app_id=%s&secret=%s&grant_type=client_credential", var_get("PA2_ID"), secret);
    return ask(port, "POST", "/oauth/credit/token", form);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

static int failures(int port)
{
    const char *wrong = "0000000000000000000000000000000000000000000000000000000000000000";
    int bad = 0;
    for (int i = 0; i < 4; i++) /* three free failures, the fourth blocks for 1 s */
        bad |= credit(port, wrong) != 401 ? FAIL("failure %d: %.200s", i + 1, answer) : 0;
    int st = credit(port, var_get("PA2_SECRET"));
    bad |= st != 429 ? FAIL("right secret while blocked: %d", st) : 0;
    bad |= strcmp(header("Retry-After"), "1") != 0 ? FAIL("Retry-After '%s', want 1", header("Retry-After")) : 0;
    sleep_ms(1100);
    bad |= credit(port, wrong) != 401 ? FAIL("fifth failure after the wait: %.200s", answer) : 0;
    st = credit(port, var_get("PA2_SECRET"));
    bad |= st != 429 || strcmp(header("Retry-After"), "2") != 0
               ? FAIL("after the fifth failure: %d, Retry-After '%s', want 429 and 2", st, header("Retry-After"))
               : 0;
    sleep_ms(2100);
    st = credit(port, var_get("PA2_SECRET"));
    bad |= st != 200 ? FAIL("right secret after the wait: %d %.200s", st, answer) : 0;
    /* the success forgave: three more failures are free again */
    for (int i = 0; i < 3; i++)
        bad |= credit(port, wrong) != 401 ? FAIL("failure %d after a success: %.200s", i + 1, answer) : 0;
    return bad;
}

int abuse_limits(struct fixture *fx)
{
    int port = free_port();
    pid_t pid = server_start(fx->bin, fx->data, port,
                             "--rate-limit 5 --rate-window 3600 --auth-failures 3 --auth-block-max 60 "
                             "--no-dns-deploy",
                             fx->log);
    if (pid < 0)
        return FAIL("cannot start a server");
    int bad = quota(port);
    bad |= failures(port);
    bad |= server_stop(pid) != 0 ? FAIL("unclean stop") : 0;
    return bad;
}
