/* receiver.c — see receiver.h. */
#include "http/receiver.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/harness.h"

struct upload {
    char *data;
    size_t len;
};

static struct {
    struct MHD_Daemon *daemon;
    pthread_mutex_t mu;
    struct received got[RECEIVED_MAX];
    size_t n;
    size_t connections; /* TLS connections accepted */
    int flaky_left;
    char *cert, *key;
} rx = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void header(struct MHD_Connection *c, const char *name, char *dst, size_t size)
{
    const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
    snprintf(dst, size, "%s", v ? v : "");
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **state)
{
    (void)cls, (void)version;
    struct upload *u = *state;
    if (!u) {
        *state = calloc(1, sizeof *u);
        return *state ? MHD_YES : MHD_NO;
    }
    if (*size) {
        char *grown = realloc(u->data, u->len + *size + 1);
        if (!grown)
            return MHD_NO;
        u->data = grown;
        memcpy(u->data + u->len, data, *size);
        u->len += *size;
        u->data[u->len] = '\0';
        *size = 0;
        return MHD_YES;
    }
    int status = 200;
    pthread_mutex_lock(&rx.mu);
    if (strncmp(url, "/flaky", 6) == 0 && rx.flaky_left > 0) {
        rx.flaky_left--;
        status = 500;
    }
    if (strcmp(method, "POST") == 0 && rx.n < RECEIVED_MAX) {
        struct received *r = &rx.got[rx.n++];
        snprintf(r->path, sizeof r->path, "%s", url);
        header(c, "X-Parapet-Event", r->event, sizeof r->event);
        header(c, "X-Parapet-Delivery", r->delivery, sizeof r->delivery);
        header(c, "X-Parapet-Signature", r->signature, sizeof r->signature);
        r->body = u->data ? u->data : strdup("");
        u->data = NULL;
        r->status = status;
    }
    pthread_mutex_unlock(&rx.mu);
    const char *text = status == 200 ? "thanks" : "boom: try later";
    struct MHD_Response *rs =
        MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)status, rs);
    MHD_destroy_response(rs);
    return ok;
}

static void finished(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode tc)
{
    (void)cls, (void)c, (void)tc;
    struct upload *u = *state;
    if (u) {
        free(u->data);
        free(u);
    }
    *state = NULL;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 65536);
    size_t n = buf ? fread(buf, 1, 65535, f) : 0;
    fclose(f);
    if (buf && n == 0) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

static void connection(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode code)
{
    (void)cls, (void)c, (void)socket_context;
    if (code != MHD_CONNECTION_NOTIFY_STARTED)
        return;
    pthread_mutex_lock(&rx.mu);
    rx.connections++;
    pthread_mutex_unlock(&rx.mu);
}

int receiver_start(const char *cert_file, const char *key_file, int flaky_failures)
{
    rx.cert = slurp(cert_file);
    rx.key = slurp(key_file);
    rx.flaky_left = flaky_failures;
    if (!rx.cert || !rx.key)
        return -1;
    int port = free_port();
    rx.daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_TLS | MHD_USE_ERROR_LOG,
                                 (uint16_t)port, NULL, NULL, answer, NULL, MHD_OPTION_HTTPS_MEM_KEY, rx.key,
                                 MHD_OPTION_HTTPS_MEM_CERT, rx.cert, MHD_OPTION_NOTIFY_COMPLETED, finished,
                                 NULL, MHD_OPTION_NOTIFY_CONNECTION, connection, NULL, MHD_OPTION_END);
    return rx.daemon ? port : -1;
}

void receiver_stop(void)
{
    if (rx.daemon)
        MHD_stop_daemon(rx.daemon);
    rx.daemon = NULL;
    for (size_t i = 0; i < rx.n; i++)
        free(rx.got[i].body);
    rx.n = 0;
    rx.connections = 0;
    free(rx.cert);
    free(rx.key);
    rx.cert = rx.key = NULL;
}

size_t receiver_snapshot(struct received *out, size_t max)
{
    pthread_mutex_lock(&rx.mu);
    size_t n = rx.n < max ? rx.n : max;
    memcpy(out, rx.got, n * sizeof *out);
    pthread_mutex_unlock(&rx.mu);
    return n;
}

size_t receiver_connections(void)
{
    pthread_mutex_lock(&rx.mu);
    size_t n = rx.connections;
    pthread_mutex_unlock(&rx.mu);
    return n;
}
