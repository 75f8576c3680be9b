/* send.c — see send.h. */
#include "webhook/send.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "webhook/sign.h"

enum { RESPONSE_READ_MAX = 1 << 20 }; /* a longer response is cut off (an error) */

struct transfer {
    CURL *easy;
    struct curl_slist *headers;
    char *body;
    const struct webhook_dest_policy *dest;
    struct webhook_outcome *out;
    size_t kept, read;
    bool refused; /* the destination's address is not allowed */
    struct timespec began;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

char *webhook_body(const json_t *row)
{
    const char *payload = json_string_value(json_object_get(row, "payload"));
    json_t *data = payload ? json_loads(payload, 0, NULL) : NULL;
    json_t *body =
        json_pack("{s:O?,s:O?,s:O?,s:O?,s:o}", "id", json_object_get(row, "event_id"), "type",
                  json_object_get(row, "type"), "created_at", json_object_get(row, "event_created_at"),
                  "customer_id", json_object_get(row, "customer_id"), "data", data ? data : json_object());
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    return text;
}

/* Keeps the start of the response as printable ASCII (it is stored and
 * answered as JSON text); reads on to let the connection be reused. */
static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
    struct transfer *t = arg;
    size_t len = size * n;
    for (size_t i = 0; i < len && t->kept < WEBHOOK_RESPONSE_KEPT; i++) {
        unsigned char c = (unsigned char)p[i];
        t->out->response[t->kept++] = (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' ? (char)c : '?';
    }
    t->out->response[t->kept] = '\0';
    t->read += len;
    return t->read > RESPONSE_READ_MAX ? 0 : len;
}

/* Every connection's address is checked against the policy, whatever the
 * name resolved to. */
static curl_socket_t open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *sa)
{
    struct transfer *t = arg;
    struct ip_addr a = {0};
    (void)purpose;
    if (sa->family == AF_INET) {
        a.family = NET_V4;
        memcpy(a.b, &((struct sockaddr_in *)(void *)&sa->addr)->sin_addr, 4);
    } else if (sa->family == AF_INET6) {
        a.family = NET_V6;
        memcpy(a.b, &((struct sockaddr_in6 *)(void *)&sa->addr)->sin6_addr, 16);
    }
    if (!a.family || !webhook_addr_allowed(t->dest, &a)) {
        t->refused = true;
        return CURL_SOCKET_BAD;
    }
    return socket(sa->family, sa->socktype, sa->protocol);
}

static bool transfer_init(struct transfer *t, const struct webhook_settings *w, const json_t *row)
{
    const char *url = json_string_value(json_object_get(row, "url"));
    const char *secret = json_string_value(json_object_get(row, "secret"));
    t->body = webhook_body(row);
    t->easy = curl_easy_init();
    t->out->at_ms = now_ms();
    char sig[WEBHOOK_SIGNATURE_MAX], line[256];
    if (!url || !secret || !t->body || !t->easy ||
        webhook_sign(secret, t->out->at_ms / 1000, t->body, strlen(t->body), sig) != 0) {
        snprintf(t->out->error, sizeof t->out->error, "the delivery could not be prepared");
        return false;
    }
    t->headers = curl_slist_append(t->headers, "Content-Type: application/json");
    t->headers = curl_slist_append(t->headers, "User-Agent: parapet-webhooks/1");
    t->headers = curl_slist_append(t->headers, "Expect:");
    snprintf(line, sizeof line, "X-Parapet-Event: %s", json_string_value(json_object_get(row, "type")));
    t->headers = curl_slist_append(t->headers, line);
    snprintf(line, sizeof line, "X-Parapet-Delivery: %s", json_string_value(json_object_get(row, "id")));
    t->headers = curl_slist_append(t->headers, line);
    snprintf(line, sizeof line, "%s: %s", WEBHOOK_SIGNATURE_HEADER, sig);
    t->headers = curl_slist_append(t->headers, line);
    CURL *e = t->easy;
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, w->timeout_ms);
    curl_easy_setopt(e, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    if (w->ca_file) { /* that file only: libcurl would also read every file of the system's CA directory */
        curl_easy_setopt(e, CURLOPT_CAINFO, w->ca_file);
        curl_easy_setopt(e, CURLOPT_CAPATH, NULL);
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body);
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, (long)strlen(t->body));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, t);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t);
    return true;
}

static void transfer_done(struct transfer *t, CURLcode rc)
{
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    t->out->status = (int)status;
    t->out->duration_ms = now_ms() - t->out->at_ms;
    if (t->refused)
        snprintf(t->out->error, sizeof t->out->error,
                 "the destination address is not allowed (loopback, link-local, multicast or private)");
    else if (rc == CURLE_WRITE_ERROR && t->read > RESPONSE_READ_MAX)
        snprintf(t->out->error, sizeof t->out->error, "the response was longer than %d bytes",
                 RESPONSE_READ_MAX);
    else if (rc != CURLE_OK)
        snprintf(t->out->error, sizeof t->out->error, "%s", curl_easy_strerror(rc));
}

void *webhook_sender_new(void)
{
    CURLM *m = curl_multi_init();
    /* room for a round's connections to each of a few receivers */
    if (m)
        curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, 64L);
    return m;
}

void webhook_sender_free(void *sender)
{
    curl_multi_cleanup(sender);
}

void webhook_send_round(void *sender, const struct webhook_settings *w, json_t *rows,
                        struct webhook_outcome *out, const atomic_bool *stop)
{
    size_t n = json_array_size(rows);
    struct transfer *t = calloc(n ? n : 1, sizeof *t);
    CURLM *m = sender;
    if (!t) {
        for (size_t i = 0; i < n; i++)
            snprintf(out[i].error, sizeof out[i].error, "out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        t[i].out = &out[i];
        t[i].dest = &w->dest;
        if (transfer_init(&t[i], w, json_array_get(rows, i)))
            curl_multi_add_handle(m, t[i].easy);
    }
    int running = 1;
    while (running && !atomic_load(stop)) {
        if (curl_multi_perform(m, &running) != CURLM_OK)
            break;
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(m, &left)))
            if (msg->msg == CURLMSG_DONE) {
                struct transfer *done;
                curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&done);
                transfer_done(done, msg->data.result);
            }
        if (running)
            curl_multi_poll(m, NULL, 0, 100, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        if (t[i].easy && running && !out[i].duration_ms && !out[i].error[0] && !out[i].status)
            snprintf(out[i].error, sizeof out[i].error, "stopped");
        if (t[i].easy) {
            curl_multi_remove_handle(m, t[i].easy);
            curl_easy_cleanup(t[i].easy);
        }
        curl_slist_free_all(t[i].headers);
        free(t[i].body);
    }
    free(t);
}
