/* http.c — see http.h. Each request is decoded as it streams in (query by
 * our decoder, url-encoded bodies buffered then decoded alike, multipart by libmicrohttpd's
 * PostProcessor, JSON buffered then parsed) and dispatched only once the
 * whole body has arrived: queueing a reply earlier makes libmicrohttpd
 * close the connection instead of keeping it alive. */
#include "server/http.h"

#include <jansson.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/metrics.h"
#include "base/net.h"
#include "console/console.h"
#include "core/decode.h"
#include "core/dispatch.h"
#include "core/req.h"
#include "core/route.h"
#include "core/route_metrics.h"
#include "server/console_http.h"
#include "server/listener.h"
#include "server/store_failure.h"
#include "server/tls_conn.h"
#include "server/worker_store.h"
#include "server/write_lane.h"

const char http_tls_priorities[] = "SECURE128:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:"
                                   "-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:"
                                   "-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:%SERVER_PRECEDENCE";

struct http_server {
    struct MHD_Daemon *daemon;
    struct listener *listener;
    const struct server_config *cfg;
    struct head_limits head_limits; /* for the guard of TLS connections */
    atomic_uint in_flight;
    bool lane; /* write handlers run on the write lane (SQLite's one writer) */
};

/* Set while a TLS server runs: its sessions are libmicrohttpd's. */
static atomic_bool guarding_tls;

/* One request on its way through the adapter. */
struct pending {
    struct req r;
    struct http_server *server;
    struct timespec started;
    char request_id[24]; /* echoed as X-Request-Id and in the access log */
    bool headers_seen;
    bool refused; /* the head broke a limit: answer input_error, dispatch nothing */
    size_t body_bytes;
    struct MHD_PostProcessor *pp;
    struct form_sink sink;
    char *raw; /* JSON (or unknown) body bytes */
    size_t raw_len, raw_cap;
    /* A write is answered once it is durable (store_ops.durable_notify):
     * the connection is suspended meanwhile, the worker thread serves others. */
    struct MHD_Connection *conn;
    _Atomic int durable; /* enum durable_state */
    struct lane_job lane; /* a write's handler, on the write lane (write_lane.h) */
};

/* replies from this size on are followed by malloc_trim (on_completed) */
enum { TRIM_AFTER_REPLY_BYTES = 1 << 20 };

enum durable_state { DURABLE_NONE, DURABLE_WAITING, DURABLE_OK, DURABLE_FAILED };

/* Request ids: this process's start stamp and a counter, unique across
 * restarts and nodes in practice, and free to make (no randomness). */
static atomic_uint_fast64_t request_seq;
static unsigned request_epoch;

/* v's last `digits` hex digits, zero-padded (snprintf "%08x%012llx" was
 * ~1% of a cached GET). */
static void put_hex(char *out, uint64_t v, int digits)
{
    for (int i = digits - 1; i >= 0; i--, v >>= 4)
        out[i] = "0123456789abcdef"[v & 15];
}

static void request_id_next(char out[24])
{
    if (!request_epoch)
        request_epoch = (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
    uint64_t n = atomic_fetch_add_explicit(&request_seq, 1, memory_order_relaxed);
    put_hex(out, request_epoch, 8);
    put_hex(out + 8, n, 12);
    out[20] = '\0';
}

static double elapsed_s(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

/* Each worker thread keeps the last finished request's memory for the next
 * one. A struct pending is ~2.3 KB: calloc of that size skips glibc's
 * per-thread cache and, with small chunks freed (jansson frees dozens per
 * request), first consolidates them all, on every request. */
static __thread struct pending *spare;
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void make_spare_key(void)
{
    pthread_key_create(&spare_key, free);
}

static struct pending *new_pending(void)
{
    struct pending *p = spare;
    if (!p)
        return calloc(1, sizeof *p);
    spare = NULL;
    pthread_setspecific(spare_key, NULL);
    memset(p, 0, sizeof *p);
    return p;
}

static void keep_or_free(struct pending *p)
{
    if (spare) {
        free(p);
        return;
    }
    pthread_once(&spare_once, make_spare_key);
    spare = p;
    pthread_setspecific(spare_key, p);
}

static void set_input_error(struct pending *p, int code, const char *msg)
{
    if (!p->r.input_error) {
        p->r.input_error = arena_strdup(&p->r.arena, msg);
        p->r.input_error_code = code;
    }
}

/* Called with the raw request line's URI, before libmicrohttpd parses the
 * query or reads the headers. We decode the query ourselves (decode.h), so
 * libmicrohttpd's copy is cut at the '?': it would otherwise keep a record
 * per parameter in the connection's memory pool, and a few hundred
 * parameters exhaust the pool, after which libmicrohttpd 0.9.75 queues a 431
 * it never sends and the client hangs. The URI is in the connection's read
 * buffer, which libmicrohttpd itself writes into right after this call. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    (void)conn;
    struct http_server *h = cls;
    struct pending *p = new_pending();
    if (!p)
        return NULL;
    p->server = h;
    p->r.config = h->cfg;
    clock_gettime(CLOCK_MONOTONIC, &p->started);
    request_id_next(p->request_id);
    p->r.request_id = p->request_id;
    char *q = strchr(uri, '?'); /* char *: see above */
    size_t len = strlen(uri), path_len = q ? (size_t)(q - uri) : len;
    if (len > h->cfg->max_uri_bytes) {
        char msg[96];
        snprintf(msg, sizeof msg, "the request URI is longer than %zu bytes", h->cfg->max_uri_bytes);
        set_input_error(p, E_URI_TOO_LONG, msg);
        p->refused = true;
        path_len = path_len < 200 ? path_len : 200; /* only for the log line */
        p->r.query = "";
    } else {
        p->r.query = arena_strdup(&p->r.arena, q ? q + 1 : "");
    }
    p->r.path = arena_strndup(&p->r.arena, uri, path_len);
    if (q)
        q[1] = '\0';
    atomic_fetch_add(&h->in_flight, 1);
    return p;
}

static void free_pending(struct pending *p)
{
    if (p->pp)
        MHD_destroy_post_processor(p->pp);
    form_sink_release(&p->sink);
    json_decref(p->r.query_fields);
    json_decref(p->r.body_fields);
    json_decref(p->r.path_params);
    json_decref(p->r.fields);
    json_decref(p->r.held);
    json_decref(p->r.audit_before);
    for (struct upload_file *f = p->r.files, *next; f; f = next) {
        next = f->next;
        free((char *)f->field);
        free((char *)f->filename);
        free((char *)f->content_type);
        free(f->data);
        free(f);
    }
    free(p->raw);
    free(p->r.reply_body);
    arena_free(&p->r.arena);
    keep_or_free(p);
}

/* The connection's own context (tls_conn.h); NULL with --plain-http. */
static struct tls_conn *tls_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    struct http_server *h = cls;
    struct tls_conn *tls = tls_of(conn);
    if (tls)
        tls_conn_expect_body(tls, NULL, 0); /* nothing announced outlives its reply */
    if (*con_cls) {
        struct pending *p = *con_cls;
        size_t reply_len = p->r.reply_len;
        free_pending(p);
        *con_cls = NULL;
        atomic_fetch_sub(&h->in_flight, 1);
        /* A large answer (a site report of 1,000 sites: 1.8 MB) was built
         * from a JSON tree ~20 times its size; glibc keeps those pages
         * after the free (a node's RSS went from 17 to 62 MB after one
         * such read). Hand them back: it costs a walk of the heap, only
         * after replies this large. */
        if (reply_len >= TRIM_AFTER_REPLY_BYTES)
            malloc_trim(0);
    }
}

static void on_file(void *ctx, char *key, char *filename, char *content_type, char *data, size_t len)
{
    struct pending *p = ctx;
    struct upload_file *f = calloc(1, sizeof *f);
    f->field = key;
    f->filename = filename;
    f->content_type = content_type;
    f->data = data;
    f->len = len;
    struct upload_file **tail = &p->r.files;
    while (*tail)
        tail = &(*tail)->next;
    *tail = f;
}

static enum MHD_Result on_post_piece(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *filename, const char *content_type,
                                     const char *transfer_encoding, const char *data, uint64_t off,
                                     size_t size)
{
    (void)kind;
    (void)transfer_encoding;
    struct pending *p = cls;
    return form_sink_piece(&p->sink, key, filename, content_type, data, (size_t)off, size) == 0 ? MHD_YES
                                                                                                : MHD_NO;
}

static enum body_kind body_kind_of(const char *ctype)
{
    if (!ctype)
        return BODY_OTHER;
    size_t n = strcspn(ctype, "; \t");
    if (n == 33 && strncasecmp(ctype, "application/x-www-form-urlencoded", n) == 0)
        return BODY_FORM;
    if (n == 19 && strncasecmp(ctype, "multipart/form-data", n) == 0)
        return BODY_MULTIPART;
    if (n == 16 && strncasecmp(ctype, "application/json", n) == 0)
        return BODY_JSON;
    if (n == 20 && strncasecmp(ctype, "application/x-ndjson", n) == 0)
        return BODY_NDJSON;
    return BODY_OTHER;
}

static void client_address(struct pending *p, struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    struct ip_addr *a = &p->r.client;
    memset(a, 0, sizeof *a);
    if (ci && ci->client_addr->sa_family == AF_INET) {
        a->family = NET_V4;
        memcpy(a->b, &((const struct sockaddr_in *)ci->client_addr)->sin_addr, 4);
    } else if (ci && ci->client_addr->sa_family == AF_INET6) {
        a->family = NET_V6;
        memcpy(a->b, &((const struct sockaddr_in6 *)ci->client_addr)->sin6_addr, 16);
        ip_unmap(a); /* IPv4 clients of a dual-stack socket */
    }
    /* Behind a trusted proxy, the client is the last X-Forwarded-For hop
     * that is not itself a trusted proxy. */
    const struct server_config *cfg = p->server->cfg;
    bool trusted = false;
    for (int i = 0; i < cfg->n_trusted_proxies && !trusted; i++)
        trusted = cidr_contains_ip(&cfg->trusted_proxies[i], a);
    const char *xff = trusted ? MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Forwarded-For") : NULL;
    if (!xff)
        return;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", xff);
    for (char *hop; (hop = strrchr(buf, ',')) || buf[0];) {
        char *text = hop ? hop + 1 : buf;
        text += strspn(text, " \t");
        text[strcspn(text, " \t")] = '\0';
        struct ip_addr hop_addr;
        if (ip_parse(text, &hop_addr) != 0)
            return;
        ip_unmap(&hop_addr);
        *a = hop_addr;
        bool hop_trusted = false;
        for (int i = 0; i < cfg->n_trusted_proxies && !hop_trusted; i++)
            hop_trusted = cidr_contains_ip(&cfg->trusted_proxies[i], &hop_addr);
        if (!hop_trusted || !hop)
            return;
        *hop = '\0';
    }
}

/* Limits on the head that libmicrohttpd does not apply: header lines and
 * cookies, together, are counted (each costs a record in the connection's
 * pool). Over TLS the head guard (tls_conn.h) has refused such heads
 * already, as they arrived; this answers them with --plain-http. */
static void check_head(struct pending *p, struct MHD_Connection *conn)
{
    unsigned max = p->server->cfg->max_header_fields;
    int headers = MHD_get_connection_values(conn, MHD_HEADER_KIND, NULL, NULL);
    int cookies = MHD_get_connection_values(conn, MHD_COOKIE_KIND, NULL, NULL);
    if (headers + cookies <= (int)max)
        return;
    char msg[96];
    snprintf(msg, sizeof msg, "more than %u header fields and cookies", max);
    set_input_error(p, E_HEADERS_TOO_LARGE, msg);
    p->refused = true;
}

/* First call for a request: headers are in; set up body decoding. */
static void begin_request(struct pending *p, struct MHD_Connection *conn)
{
    struct req *r = &p->r;
    client_address(p, conn);
    const char *auth = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0)
        r->bearer = arena_strdup(&r->arena, auth + 7 + strspn(auth + 7, " "));
    r->query_fields = json_object();
    struct decode_error e;
    if (query_decode(r->query, strlen(r->query), r->query_fields, &e) != 0)
        set_input_error(p, e.err, e.message);

    const char *ctype = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    r->body_kind = body_kind_of(ctype);
    if (r->body_kind == BODY_MULTIPART) {
        r->body_fields = json_object();
        p->sink.fields = r->body_fields;
        p->sink.max_file = p->server->cfg->max_body_bytes;
        p->sink.on_file = on_file;
        p->sink.ctx = p;
        p->pp = MHD_create_post_processor(conn, 16 * 1024, on_post_piece, p);
        if (!p->pp)
            set_input_error(p, E_MALFORMED_BODY, "Content-Type: multipart/form-data needs a boundary");
    }
}

static void take_body(struct pending *p, const char *data, size_t size)
{
    p->body_bytes += size;
    if (p->r.input_error)
        return; /* already failed: read and drop the rest, keep the connection */
    if (p->pp) {
        if (MHD_post_process(p->pp, data, size) != MHD_YES)
            set_input_error(p, p->sink.failed ? p->sink.error.err : E_MALFORMED_BODY,
                            p->sink.failed ? p->sink.error.message : "the form body cannot be decoded");
        return;
    }
    if (p->r.body_kind != BODY_JSON && p->r.body_kind != BODY_FORM && p->r.body_kind != BODY_NDJSON)
        return; /* refused later with 415; no need to keep it */
    if (p->raw_len + size > p->raw_cap) {
        size_t cap = p->raw_cap ? p->raw_cap : 4096;
        while (cap < p->raw_len + size)
            cap *= 2;
        p->raw = realloc(p->raw, cap);
        p->raw_cap = cap;
    }
    memcpy(p->raw + p->raw_len, data, size);
    p->raw_len += size;
}

static bool starts_array(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    return i < len && buf[i] == '[';
}

static void finish_body(struct pending *p)
{
    struct req *r = &p->r;
    if (p->body_bytes == 0) {
        r->body_kind = BODY_NONE;
        json_decref(r->body_fields);
        r->body_fields = NULL;
        return;
    }
    if (r->input_error)
        return;
    if (p->pp) {
        enum MHD_Result ok = MHD_destroy_post_processor(p->pp);
        p->pp = NULL;
        if (ok != MHD_YES || form_sink_finish(&p->sink) != 0)
            set_input_error(p, p->sink.failed ? p->sink.error.err : E_MALFORMED_BODY,
                            p->sink.failed ? p->sink.error.message : "the form body is incomplete");
    } else if (r->body_kind == BODY_FORM) {
        /* our decoder, as for the query: libmicrohttpd's PostProcessor
         * refuses a '=' inside a value and empty pairs ("a=1&&b=2") */
        struct decode_error e;
        r->body_fields = json_object();
        if (query_decode(p->raw, p->raw_len, r->body_fields, &e) != 0)
            set_input_error(p, e.err, e.message);
    } else if (r->body_kind == BODY_NDJSON || (r->body_kind == BODY_JSON && starts_array(p->raw, p->raw_len))) {
        /* read by the route's handler itself (ROUTE_RAW_BODY); the
         * dispatcher refuses it for other routes */
        r->body_raw = p->raw;
        r->body_raw_len = p->raw_len;
        r->body_is_array = r->body_kind == BODY_JSON;
    } else if (r->body_kind == BODY_JSON) {
        struct decode_error e;
        r->body_fields = json_body_decode(p->raw, p->raw_len, &e);
        if (!r->body_fields)
            set_input_error(p, e.err, e.message);
    }
}

/* The app's quota (IETF httpapi ratelimit-headers, draft 10) and, on a
 * 429, when to come back. */
static void add_rate_headers(struct MHD_Response *resp, const struct req *r)
{
    char v[96];
    if (r->rate_limit) {
        snprintf(v, sizeof v, "\"app\";q=%u;w=%u", r->rate_limit, r->rate_window);
        MHD_add_response_header(resp, "RateLimit-Policy", v);
        snprintf(v, sizeof v, "\"app\";r=%u;t=%u", r->rate_remaining, r->rate_reset);
        MHD_add_response_header(resp, "RateLimit", v);
    }
    if (r->retry_after) {
        snprintf(v, sizeof v, "%u", r->retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, v);
    }
}

/* One JSON object a line on stderr: never the query string (tokens travel
 * there) nor a header or body. */
static void access_log(const struct pending *p, size_t reply_len, double took)
{
    const struct req *r = &p->r;
    char when[32], client[NET_TEXT_MAX] = "";
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    if (r->client.family)
        ip_format(&r->client, client);
    json_t *line = json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:I,s:f,s:s,s:s,s:s,s:s,s:I,s:I}", "time", when, "request_id",
                             p->request_id, "route", r->route ? r->route->id : "", "method", method_name(r->method),
                             "path", r->path ? r->path : "", "status", r->status, "code", (json_int_t)r->code,
                             "duration_ms", took * 1000, "app", r->caller.app_id, "portal", r->caller.portal_id,
                             "customer", r->customer.id[0] ? r->customer.id : r->caller.customer_id, "client",
                             client, "bytes_in", (json_int_t)p->body_bytes, "bytes_out", (json_int_t)reply_len);
    char *text = line ? json_dumps(line, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(4)) : NULL;
    if (text)
        fprintf(stderr, "%s\n", text);
    free(text);
    json_decref(line);
}

/* Whether libmicrohttpd 0.9.75 sends the body of this answer: never to
 * HEAD, nor with a 1xx, 204 or 304 status (is_reply_body_needed in its
 * connection.c; RFC 9110). Only the methods parapet routes are taken, so
 * that CONNECT and unknown methods stay out. */
static bool body_follows(const struct req *r)
{
    bool method = r->method == M_GET || r->method == M_POST || r->method == M_PUT || r->method == M_DELETE ||
                  r->method == M_PATCH;
    return method && r->status >= 200 && r->status != 204 && r->status != 304;
}

static enum MHD_Result send_reply(struct pending *p, struct MHD_Connection *conn)
{
    struct req *r = &p->r;
    struct tls_conn *tls = tls_of(conn);
    if (tls && r->reply_body && body_follows(r)) /* head and body in one TLS record (tls_coalesce.h) */
        tls_conn_expect_body(tls, r->reply_body, r->reply_len);
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(r->reply_len, r->reply_body ? r->reply_body : (char *)"",
                                        r->reply_body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    r->reply_body = NULL; /* the response owns it now */
    if (!resp)
        return MHD_NO;
    if (r->reply_type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->reply_type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (r->location)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, r->location);
    if (r->allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
    if (r->disposition)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_DISPOSITION, r->disposition);
    add_rate_headers(resp, r);
    MHD_add_response_header(resp, "X-Request-Id", p->request_id);
    size_t reply_len = r->reply_len;
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    double took = elapsed_s(&p->started);
    metrics_request(route_metrics_row(r->route), (int)r->method, r->status, took);
    if (p->server->cfg->log_requests || r->status >= 500)
        access_log(p, reply_len, took);
    return ok;
}

/* Answers before the body is complete (too large, too slow): the
 * connection closes afterwards, which is what we want then. */
static enum MHD_Result reply_early(struct pending *p, struct MHD_Connection *conn, enum err e,
                                   const char *msg)
{
    reply_error(&p->r, e, "%s", msg);
    return send_reply(p, conn);
}

/* From the store's syncer thread (or at once): the write is on disk, or
 * can no longer be made so. */
static void on_durable(void *arg, bool ok)
{
    struct pending *p = arg;
    atomic_store(&p->durable, ok ? DURABLE_OK : DURABLE_FAILED);
    MHD_resume_connection(p->conn);
}

/* Resumes p's suspended connection once its commit `ticket` is durable
 * (at once when it is already, or cannot be made so). */
static void resume_when_durable(struct pending *p, struct store *s, uint64_t ticket)
{
    int rc = s->ops->durable_notify(s, ticket, on_durable, p);
    if (rc != 0)
        on_durable(p, rc == 1);
}

/* Sends the reply now, or once the request's write is durable. */
static enum MHD_Result reply_when_durable(struct pending *p, struct MHD_Connection *conn)
{
    struct store *s = p->r.store;
    uint64_t ticket = s ? s->ops->commit_ticket(s) : 0;
    if (!ticket)
        return send_reply(p, conn);
    p->conn = conn;
    atomic_store(&p->durable, DURABLE_WAITING);
    MHD_suspend_connection(conn); /* before the callback can resume it */
    resume_when_durable(p, s, ticket);
    return MHD_YES;
}

/* On the write lane's thread (or the poll thread's, when the lane is
 * stopping): the handler, in a transaction of this thread's store, then the
 * connection resumed once the write is durable. */
static void run_write(struct lane_job *job)
{
    struct pending *p = (struct pending *)((char *)job - offsetof(struct pending, lane));
    p->r.store = worker_store();
    if (!p->r.store) {
        reply_error(&p->r, E_STORE, "the store is not available");
        on_durable(p, true);
        return;
    }
    dispatch_write(&p->r);
    explain_store_failure(&p->r);
    struct store *s = p->r.store;
    uint64_t ticket = s->ops->commit_ticket(s);
    if (ticket)
        resume_when_durable(p, s, ticket);
    else
        on_durable(p, true); /* nothing written: answer now */
}

/* The lane's hint to its store (write_lane.h). */
static void lane_writes_coming(bool on)
{
    struct store *s = worker_store();
    if (s)
        s->ops->writes_coming(s, on);
}

/* A write's handler waits its turn on the lane, the connection suspended. */
static enum MHD_Result write_on_lane(struct pending *p, struct MHD_Connection *conn)
{
    p->conn = conn;
    atomic_store(&p->durable, DURABLE_WAITING);
    MHD_suspend_connection(conn); /* before the lane can resume it */
    p->lane.run = run_write;
    if (!write_lane_submit(&p->lane))
        run_write(&p->lane);
    return MHD_YES;
}

/* Called again once on_durable resumed the connection. */
static enum MHD_Result reply_resumed(struct pending *p, struct MHD_Connection *conn)
{
    if (atomic_load(&p->durable) == DURABLE_FAILED)
        reply_not_durable(&p->r);
    return send_reply(p, conn);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)cls;
    (void)url;
    (void)version;
    struct pending *p = *con_cls;
    if (!p)
        return MHD_NO; /* out of memory in on_uri: close the connection */
    const struct server_config *cfg = p->server->cfg;
    if (atomic_load(&p->durable) != DURABLE_NONE)
        return reply_resumed(p, conn);
    if (!p->headers_seen) {
        p->headers_seen = true;
        p->r.method = method_parse(method);
        check_head(p, conn);
        if (!p->refused)
            begin_request(p, conn);
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        unsigned long long announced = cl ? strtoull(cl, NULL, 10) : 0;
        if (announced > cfg->max_body_bytes)
            set_input_error(p, E_TOO_LARGE, "the request body is larger than the server accepts");
        if (announced > 2 * (unsigned long long)cfg->max_body_bytes) /* not worth reading */
            return reply_early(p, conn, E_TOO_LARGE, p->r.input_error);
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        /* Past the limit the rest is read and dropped, so that the client
         * reads our 413 on a live connection; past twice the limit we stop
         * reading and close. */
        if (p->body_bytes + *upload_data_size > cfg->max_body_bytes) {
            set_input_error(p, E_TOO_LARGE, "the request body is larger than the server accepts");
            if (p->body_bytes + *upload_data_size > 2 * cfg->max_body_bytes)
                return reply_early(p, conn, E_TOO_LARGE, p->r.input_error);
        }
        if (elapsed_s(&p->started) > cfg->request_timeout_s)
            return reply_early(p, conn, E_TIMEOUT, "the request body took too long to arrive");
        take_body(p, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (p->refused)
        return reply_early(p, conn, p->r.input_error_code, p->r.input_error);
    finish_body(p);
    if (!cfg->console_off && console_path(p->r.path)) /* the web console's files: no store, no envelope */
        return console_http_reply(conn, &p->r);
    p->r.store = worker_store();
    if (!p->r.store) /* a thread's first request while the database is down (PostgreSQL): retry later */
        reply_error(&p->r, E_UNAVAILABLE, "the store is not reachable; try again shortly");
    else if (dispatch_to(&p->r, p->server->lane))
        return write_on_lane(p, conn);
    else
        explain_store_failure(&p->r);
    return reply_when_durable(p, conn);
}

/* TLS connections have a context of their own (tls_conn.h), set up before
 * the connection's first read and freed after its session. */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    struct http_server *h = cls;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        tls_conn_free(*socket_context);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *tls = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    const union MHD_ConnectionInfo *fd = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (tls && tls->tls_session && fd)
        *socket_context = tls_conn_attach(fd->connect_fd, &h->head_limits, h->cfg->log_requests);
}

/* libmicrohttpd makes each session's user pointer its connection
 * (tls_conn_find_with). */
static struct tls_conn *tls_conn_of_session(gnutls_session_t session)
{
    if (!atomic_load_explicit(&guarding_tls, memory_order_relaxed))
        return NULL;
    struct MHD_Connection *conn = gnutls_session_get_ptr(session);
    return conn ? tls_of(conn) : NULL;
}

/* The guard's limits from the configuration, and the connection memory
 * that holds any head within them. libmicrohttpd reads a head into the
 * first half of the pool (body bytes that come with it too) and takes its
 * records (64 bytes per header line and per cookie) and the copy of the
 * Cookie value from the end: the copy is at most half of max_head_bytes
 * (the guard counts it in the head's bytes), so each half holds half of
 * the head and the records; then room for the reply's head. 32 KiB by
 * default. libmicrohttpd zeroes the whole pool between requests and half
 * of it as it turns to answering, so its size is paid on every request
 * (it was 48.5 KiB when lines and cookies were counted apart and cookies
 * not counted in the head's bytes: ~11% of a small GET's CPU in perf).
 * Without the guard (--plain-http) nothing counts the head as it arrives:
 * the pool holds any head whose every part is within the limits. */
static size_t head_limits_and_pool(const struct server_config *cfg, struct head_limits *l)
{
    l->max_uri_bytes = cfg->max_uri_bytes;
    l->max_head_bytes = cfg->max_header_bytes;
    l->max_fields = cfg->max_header_fields;
    size_t reply_head = 3584, records = 64 * (size_t)l->max_fields;
    if (cfg->plain_http)
        return 2 * l->max_head_bytes + 2 * records + reply_head;
    return 2 * (l->max_head_bytes / 2 + records) + reply_head;
}

/* libmicrohttpd's messages; fmt is its own format string. */
static void mhd_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    fputs("parapet: http: ", stderr);
    vfprintf(stderr, fmt, ap);
}

struct http_server *http_start(const struct server_config *cfg, const char *cert_pem, const char *key_pem)
{
    struct http_server *h = calloc(1, sizeof *h);
    h->cfg = cfg;
    h->listener = listener_open(cfg->listen_host, cfg->listen_port);
    if (!h->listener) {
        free(h);
        return NULL;
    }
    /* connections come from our listener (see listener.h); the poll loop,
     * not epoll: libmicrohttpd 0.9.75's epoll loop spins on a TLS handshake
     * that waits for the client (docs/decisions.md) */
    unsigned flags =
        MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG | MHD_USE_NO_LISTEN_SOCKET |
        MHD_ALLOW_SUSPEND_RESUME;
    if (!cfg->plain_http)
        flags |= MHD_USE_TLS;
    struct MHD_OptionItem tls_opts[] = {
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)key_pem},
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)cert_pem},
        {MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)cfg->tls_priority},
        {MHD_OPTION_END, 0, NULL},
    };
    struct MHD_OptionItem none[] = {{MHD_OPTION_END, 0, NULL}};
    size_t pool = head_limits_and_pool(cfg, &h->head_limits);
    h->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, h, MHD_OPTION_EXTERNAL_LOGGER, mhd_log,
        NULL, /* first, so that every message goes there */
        MHD_OPTION_THREAD_POOL_SIZE, cfg->threads, MHD_OPTION_CONNECTION_LIMIT, cfg->max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, cfg->max_connections_per_ip, MHD_OPTION_CONNECTION_TIMEOUT,
        cfg->request_timeout_s, MHD_OPTION_CONNECTION_MEMORY_LIMIT, pool,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, h, MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, h, MHD_OPTION_ARRAY, cfg->plain_http ? none : tls_opts,
        MHD_OPTION_END);
    if (!h->daemon || listener_start(h->listener, h->daemon, cfg->max_connections) != 0) {
        fprintf(stderr, "parapet: cannot serve on %s:%d\n", cfg->listen_host, cfg->listen_port);
        listener_close(h->listener);
        if (h->daemon)
            MHD_stop_daemon(h->daemon);
        free(h);
        return NULL;
    }
    if (!cfg->plain_http) {
        atomic_store(&guarding_tls, true);
        tls_conn_find_with(tls_conn_of_session);
    }
    h->lane = strcmp(cfg->store.backend, "sqlite") == 0 && write_lane_start(lane_writes_coming) == 0;
    return h;
}

void http_quiesce(struct http_server *h)
{
    listener_quiesce(h->listener);
}

unsigned http_in_flight(struct http_server *h)
{
    return atomic_load(&h->in_flight);
}

void http_stop(struct http_server *h)
{
    listener_close(h->listener); /* first: the accepting thread hands connections to the daemon */
    if (h->lane)
        write_lane_stop(); /* what is queued runs; later writes run on their poll thread */
    MHD_stop_daemon(h->daemon);
    free(h);
}
