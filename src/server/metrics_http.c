/* metrics_http.c — see metrics_http.h. */
#include "server/metrics_http.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/metrics.h"
#include "base/strbuf.h"
#include "store/select/select.h"
#include "store/write_fence.h"

static struct MHD_Daemon *daemon_;
static struct store *store_;
static pthread_mutex_t store_mu = PTHREAD_MUTEX_INITIALIZER;

/* Sites per data plane and deploy state, as gauges. */
static char *deploy_gauges(void)
{
    struct strbuf b = {0};
    json_t *rows = NULL;
    pthread_mutex_lock(&store_mu);
    bool ok = store_ && store_->ops->begin(store_, false) == STORE_OK;
    if (ok) {
        ok = store_->ops->dataplane_states(store_, NULL, 0, &rows) == STORE_OK;
        store_->ops->commit(store_);
    }
    pthread_mutex_unlock(&store_mu);
    json_t *counts = json_object();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        char key[96];
        snprintf(key, sizeof key, "plane=\"%s\",state=\"%s\"", json_string_value(json_object_get(row, "plane")),
                 json_string_value(json_object_get(row, "state")));
        json_object_set_new(counts, key, json_integer(json_integer_value(json_object_get(counts, key)) + 1));
    }
    sb_add(&b, "# HELP parapet_dataplane_sites Sites by data plane and deploy state.\n"
               "# TYPE parapet_dataplane_sites gauge\n");
    const char *key;
    json_t *n;
    json_object_foreach (counts, key, n)
        sb_printf(&b, "parapet_dataplane_sites{%s} %lld\n", key, (long long)json_integer_value(n));
    sb_printf(&b, "# HELP parapet_store_up Whether the metrics reader reached the store.\n"
                  "# TYPE parapet_store_up gauge\nparapet_store_up %d\n",
              ok ? 1 : 0);
    write_fence_metrics(&b);
    json_decref(counts);
    json_decref(rows);
    return sb_take(&b);
}

static enum MHD_Result answer(struct MHD_Connection *conn, unsigned status, char *body, const char *type)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    enum MHD_Result ok = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **ctx)
{
    (void)cls, (void)version, (void)upload;
    if (!*ctx) { /* first call: the head only */
        *ctx = (void *)1;
        return MHD_YES;
    }
    if (*upload_size) { /* a body is not expected: drop it */
        *upload_size = 0;
        return MHD_YES;
    }
    if (strcmp(url, "/metrics") != 0)
        return answer(conn, MHD_HTTP_NOT_FOUND, strdup("not found: the metrics are at /metrics\n"), "text/plain");
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return answer(conn, MHD_HTTP_METHOD_NOT_ALLOWED, strdup("GET /metrics\n"), "text/plain");
    char *extra = deploy_gauges();
    char *text = metrics_render(extra);
    free(extra);
    return answer(conn, MHD_HTTP_OK, text, "text/plain; version=0.0.4; charset=utf-8");
}

int metrics_http_start(const char *host, int port, const struct store_config *cfg)
{
    struct sockaddr_storage ss = {0};
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (strchr(host, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
            goto bad;
        flags |= MHD_USE_IPv6;
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)port);
        if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
            goto bad;
    }
    store_ = store_open(cfg);
    daemon_ = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR, &ss,
                               MHD_OPTION_CONNECTION_LIMIT, 16u, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
                               MHD_OPTION_END);
    if (!daemon_) {
        fprintf(stderr, "parapet: --metrics-listen %s:%d: cannot listen there\n", host, port);
        if (store_)
            store_->ops->close(store_);
        store_ = NULL;
        return -1;
    }
    return 0;
bad:
    fprintf(stderr, "parapet: --metrics-listen: %s is not an IP address\n", host);
    return -1;
}

void metrics_http_stop(void)
{
    if (daemon_)
        MHD_stop_daemon(daemon_);
    daemon_ = NULL;
    pthread_mutex_lock(&store_mu);
    if (store_)
        store_->ops->close(store_);
    store_ = NULL;
    pthread_mutex_unlock(&store_mu);
}
