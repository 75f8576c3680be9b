/* special_framing.c — replies on one keep-alive TLS connection, read below
 * libcurl: each is exactly its head plus Content-Length bytes (none after
 * the head of a HEAD reply), and a small reply's head and body arrive in one
 * TLS record (server/tls_coalesce.h joins them), over TLS 1.3 and 1.2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/harness.h"
#include "http/rawconn.h"
#include "http/special.h"

#define FAIL(...) (check_fail(__func__, __VA_ARGS__), 1)

struct exchange {
    const char *method, *path;
    int status;
};

/* Sends one request and reads its reply; 0 when it is framed as it should
 * be and came in one record. */
static int one_reply(gnutls_session_t s, const char *tls, const struct exchange *x)
{
    char rq[512];
    snprintf(rq, sizeof rq, "%s %s HTTP/1.1\r\nHost: localhost\r\n\r\n", x->method, x->path);
    if (gnutls_record_send(s, rq, strlen(rq)) != (ssize_t)strlen(rq))
        return FAIL("%s %s: the request could not be sent", tls, x->method);
    static char buf[65536];
    size_t len = 0, want = 0;
    int records = 0;
    while (!want || len < want) {
        ssize_t n = gnutls_record_recv(s, buf + len, sizeof buf - 1 - len);
        if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED)
            continue;
        if (n <= 0)
            return FAIL("%s %s: the reply stopped after %zu bytes (%zd)", tls, x->method, len, n);
        len += (size_t)n;
        buf[len] = '\0';
        records++;
        const char *end = strstr(buf, "\r\n\r\n");
        const char *cl = strstr(buf, "Content-Length: ");
        if (end && cl && cl < end)
            want =
                (size_t)(end + 4 - buf) + (strcmp(x->method, "HEAD") == 0 ? 0 : strtoul(cl + 16, NULL, 10));
    }
    int status = 0;
    sscanf(buf, "HTTP/1.1 %d", &status);
    int bad = 0;
    if (status != x->status)
        bad |= FAIL("%s %s %s: status %d, want %d: %.200s", tls, x->method, x->path, status, x->status, buf);
    if (len != want)
        bad |= FAIL("%s %s: %zu bytes after the reply's end: %.100s", tls, x->method, len - want, buf + want);
    if (records != 1)
        bad |= FAIL("%s %s: a %zu-byte reply came in %d TLS records", tls, x->method, len, records);
    return bad;
}

int reply_framing(struct fixture *fx)
{
    static const char *const tls[][2] = {{"TLS 1.3", "NORMAL:-VERS-ALL:+VERS-TLS1.3"},
                                         {"TLS 1.2", "NORMAL:-VERS-ALL:+VERS-TLS1.2"}};
    char customer[256];
    snprintf(customer, sizeof customer, "/api/spe/customer/%s?access_token=%s", var_get("C1"),
             var_get("T_P1"));
    const struct exchange xs[] = {
        {"HEAD", customer, 200},
        {"GET", customer, 200},
        {"HEAD", customer, 200},
        {"GET", "/api/spe/customers?access_token=nope", 401},
        {"DELETE", "/api/spe/customers", 405},
        {"GET", customer, 200},
    };
    gnutls_certificate_credentials_t cred;
    gnutls_certificate_allocate_credentials(&cred);
    int bad = 0;
    for (size_t t = 0; t < sizeof tls / sizeof tls[0]; t++) {
        gnutls_session_t s = tls_client(fx->main_port, tls[t][1], cred);
        if (!s) {
            bad |= FAIL("%s: no connection", tls[t][0]);
            continue;
        }
        for (size_t i = 0; i < sizeof xs / sizeof xs[0] && !bad; i++)
            bad |= one_reply(s, tls[t][0], &xs[i]);
        tls_client_close(s);
    }
    gnutls_certificate_free_credentials(cred);
    return bad;
}
