/* serve.c — `parapet serve`: flags, TLS material, the store, the HTTP
 * server, and a graceful stop on SIGTERM/SIGINT (stop accepting, let the
 * requests in flight finish, then close). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/metrics.h"
#include "base/url.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_file.h"
#include "cli/data_lock.h"
#include "cli/ddos_options.h"
#include "cli/dns_options.h"
#include "cli/nginx_options.h"
#include "cli/options_doc.h"
#include "cli/serve_options.h"
#include "cli/service_notify.h"
#include "cli/webhook_options.h"
#include "console/console.h"
#include "core/dispatch.h"
#include "core/route_metrics.h"
#include "dataplane/fastnetmon/fnm_graphite_loop.h"
#include "dataplane/nftables/nft_counter_loop.h"
#include "dataplane/nginx/bw_loop.h"
#include "dataplane/nginx/nginx_deploy.h"
#include "dataplane/nginx/waf_loop.h"
#include "deploy/deployer.h"
#include "deploy/exec.h"
#include "server/http.h"
#include "server/metrics_http.h"
#include "server/tls.h"
#include "server/worker_store.h"
#include "store/pgsql/pgsql.h"
#include "store/pgsql/pgsql.h"
#include "telemetry/geo.h"
#include "telemetry/retention.h"
#include "webhook/worker.h"

void config_defaults(struct server_config *c)
{
    memset(c, 0, sizeof *c);
    c->data_dir = "./parapet-data";
    snprintf(c->listen_host, sizeof c->listen_host, "127.0.0.1");
    c->listen_port = 8443;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* two poll threads a core: a thread runs the TLS and HTTP work of its
     * connections one after another, and a second one per core keeps the
     * core busy while the first waits or is preempted (docs/decisions.md) */
    c->threads = 2 * (cores > 0 ? (unsigned)cores : 1);
    /* the connection pool is sized from this and max_header_fields (32 KiB
     * with these; server/http.c), and libmicrohttpd zeroes 1.5x the pool per
     * request; 16 KiB is still twice nginx's default header room. */
    c->max_header_bytes = 16 * 1024;
    c->max_uri_bytes = 8 * 1024;
    c->max_header_fields = 100;
    c->max_body_bytes = 16 * 1024 * 1024;
    c->request_timeout_s = 30;
    c->max_connections = 1024;
    c->max_connections_per_ip = 128;
    c->shutdown_grace_s = 10;
    c->rate_limit = 6000; /* per app: 100 requests/s on average over a minute */
    c->rate_window_s = 60;
    c->auth_free_failures = 5;
    c->auth_max_block_s = 900;
    c->access_ttl_s = 7200;
    c->refresh_ttl_s = 30L * 24 * 3600;
    c->code_ttl_s = 300;
    c->telemetry_days = TEL_RETENTION_DAYS_DEFAULT;
    c->audit_days = 365;
    c->account_field = "parapet_account";
    c->tls_priority = http_tls_priorities;
    c->store.backend = "sqlite";
}

static void serve_usage(FILE *out)
{
    fputs("usage: parapet serve [options]\n", out);
    opts_usage(out, serve_options);
}

/* A positive integer option within [min, max]; -1 (after a message) if bad. */
static long long number_opt(json_t *a, const char *name, long long fallback, long long min, long long max)
{
    const char *v = arg_str(a, name);
    if (!v)
        return fallback;
    char *end;
    long long n = strtoll(v, &end, 10);
    if (*end || end == v || n < min || n > max) {
        fprintf(stderr, "parapet: --%s must be a number from %lld to %lld\n", name, min, max);
        return -1;
    }
    return n;
}

static int parse_listen(const char *v, struct server_config *c)
{
    const char *colon = strrchr(v, ':');
    if (!colon)
        return -1;
    const char *host = v;
    size_t hlen = (size_t)(colon - v);
    if (host[0] == '[' && hlen >= 2 && host[hlen - 1] == ']') {
        host++;
        hlen -= 2;
    }
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || port < 1 || port > 65535 || hlen == 0 || hlen >= sizeof c->listen_host)
        return -1;
    memcpy(c->listen_host, host, hlen);
    c->listen_host[hlen] = '\0';
    c->listen_port = (int)port;
    return 0;
}

/* --public-url: an absolute http(s) URL without query or fragment (a path
 * prefix is kept, a trailing slash dropped); by default the scheme, host and
 * port the server listens on. */
static int set_public_url(const char *v, struct server_config *c)
{
    if (!v) {
        bool v6 = strchr(c->listen_host, ':') != NULL;
        snprintf(c->public_url, sizeof c->public_url, "%s://%s%s%s:%d", c->plain_http ? "http" : "https",
                 v6 ? "[" : "", c->listen_host, v6 ? "]" : "", c->listen_port);
        return 0;
    }
    struct url_parts u;
    size_t len = strlen(v);
    while (len > 0 && v[len - 1] == '/')
        len--;
    if (url_parse(v, &u) != 0 || strchr(v, '?') || len >= sizeof c->public_url) {
        fprintf(stderr,
                "parapet: --public-url must be an http(s) URL without query, e.g. https://api.example.com\n");
        return -1;
    }
    memcpy(c->public_url, v, len);
    c->public_url[len] = '\0';
    return 0;
}

static int configure(json_t *a, struct server_config *c)
{
    config_defaults(c);
    if (arg_str(a, "data"))
        c->data_dir = arg_str(a, "data");
    if (arg_str(a, "listen") && parse_listen(arg_str(a, "listen"), c) != 0) {
        fprintf(stderr, "parapet: --listen must be HOST:PORT, e.g. 127.0.0.1:8443 or [::1]:8443\n");
        return -1;
    }
    c->plain_http = arg_flag(a, "plain-http");
    if (set_public_url(arg_str(a, "public-url"), c) != 0)
        return -1;
    c->tls_cert_path = arg_str(a, "tls-cert");
    c->tls_key_path = arg_str(a, "tls-key");
    if (!c->tls_cert_path != !c->tls_key_path) {
        fprintf(stderr, "parapet: --tls-cert and --tls-key go together\n");
        return -1;
    }
    if (arg_str(a, "tls-priority")) {
        c->tls_priority = arg_str(a, "tls-priority");
        if (tls_priority_check(c->tls_priority) != 0)
            return -1;
    }
    /* numeric limits: name, range, and the config field they set */
    long long v;
#define NUM(name, min, max, field)                                                                           \
    if ((v = number_opt(a, name, (long long)c->field, min, max)) < 0)                                        \
        return -1;                                                                                           \
    c->field = (__typeof__(c->field))v;
    NUM("threads", 1, 1024, threads)
    NUM("max-header-bytes", 4096, 1 << 24, max_header_bytes)
    NUM("max-uri-bytes", 256, 1 << 24, max_uri_bytes)
    NUM("max-header-fields", 8, 1 << 16, max_header_fields)
    NUM("max-body-bytes", 1024, 1LL << 31, max_body_bytes)
    NUM("request-timeout", 1, 3600, request_timeout_s)
    NUM("max-connections", 1, 1 << 20, max_connections)
    NUM("max-connections-per-ip", 1, 1 << 20, max_connections_per_ip)
    NUM("shutdown-grace", 0, 3600, shutdown_grace_s)
    NUM("rate-limit", 0, 1LL << 31, rate_limit)
    NUM("rate-window", 1, 86400, rate_window_s)
    NUM("auth-failures", 0, 1 << 20, auth_free_failures)
    NUM("auth-block-max", 1, 86400, auth_max_block_s)
    NUM("token-ttl", 1, 1LL << 31, access_ttl_s)
    NUM("refresh-ttl", 1, 1LL << 31, refresh_ttl_s)
    NUM("code-ttl", 1, 3600, code_ttl_s)
    NUM("telemetry-days", 1, 3650, telemetry_days)
    NUM("audit-days", 1, 36500, audit_days)
#undef NUM
    if (arg_str(a, "account-field"))
        c->account_field = arg_str(a, "account-field");
    c->log_requests = arg_flag(a, "log-requests");
    if (geo_configure(arg_str(a, "geoip-city"), arg_str(a, "geoip-asn")) != 0)
        return -1;
    c->dev = arg_flag(a, "dev");
    c->console_off = arg_flag(a, "no-console");
    c->console_chartjs = arg_str(a, "console-chartjs");
    if (!c->console_off)
        console_configure(c->console_chartjs); /* a missing Chart.js is said, not fatal */
    size_t i;
    json_t *p;
    json_array_foreach (json_object_get(a, "trusted-proxy"), i, p) {
        if (c->n_trusted_proxies == MAX_TRUSTED_PROXIES ||
            cidr_parse(json_string_value(p), CIDR_ALLOW_BARE, &c->trusted_proxies[c->n_trusted_proxies]) !=
                0) {
            fprintf(stderr, "parapet: --trusted-proxy must be an address or CIDR block (at most %d)\n",
                    MAX_TRUSTED_PROXIES);
            return -1;
        }
        c->n_trusted_proxies++;
    }
    return 0;
}

/* Waits for SIGTERM/SIGINT, purging expired tokens and telemetry past its
 * retention every few minutes (the first time soon after start). */
/* Audit rows older than `days`, in transactions of 10,000 rows. */
static void audit_retention_run(struct store *s, long days)
{
    long removed = 10000;
    while (removed == 10000) {
        if (s->ops->begin(s, true) != STORE_OK)
            return;
        if (s->ops->audit_purge(s, (int64_t)time(NULL) - days * 86400, 10000, &removed) != STORE_OK) {
            s->ops->rollback(s);
            fprintf(stderr, "parapet: audit retention: the store failed; trying again later\n");
            return;
        }
        s->ops->commit(s);
    }
}

/* An expired token is kept a day before it is purged, so that a client that
 * presents it hears "has expired" (40100003) rather than "is not valid". */
#define TOKEN_PURGE_GRACE_S 86400

static void wait_for_stop(struct store *s, long telemetry_days, long audit_days)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    struct timespec every = {.tv_sec = 5};
    for (;;) {
        int sig = sigtimedwait(&set, NULL, &every);
        if (sig == SIGINT || sig == SIGTERM)
            return;
        every.tv_sec = 300;
        long removed;
        if (telemetry_retention_run(s, (int64_t)time(NULL), telemetry_days, &removed) != 0)
            fprintf(stderr, "parapet: telemetry retention: the store failed; trying again later\n");
        audit_retention_run(s, audit_days);
        long purged;
        if (s->ops->begin(s, true) == STORE_OK) {
            if (s->ops->token_purge_expired(s, (int64_t)time(NULL) - TOKEN_PURGE_GRACE_S, &purged) == STORE_OK)
                s->ops->commit(s);
            else
                s->ops->rollback(s);
        }
    }
}

static struct dns_options dns; /* the background deployer reads it until it stops */

/* The DNS deployer, unless another node runs it. */
static int start_dns_deployer(json_t *a, const struct server_config *c)
{
    if (arg_flag(a, "no-dns-deploy"))
        return 0;
    if (dns_options_configure(a, c->data_dir, &dns) != 0)
        return -1;
    if (!dns.cfg.knotc)
        fprintf(stderr, "parapet: knotc not found: DNS zone configurations are deployed unvalidated\n");
    return dns_deployer_start(&dns.cfg, &c->store);
}

static struct nginx_options ngx; /* the AP deployer reads it until it stops */

/* --dev: the seeded site's VIPs (198.51.100.240/28, documentation
 * addresses no host has) are served on loopback 127.0.3.240/28 with ports
 * + 10000, and its backend 203.0.113.10 is reached at 127.0.0.1, so that the
 * rendered configuration passes `nginx -t` and a local nginx never sends a
 * request off the machine. Options given on the command line win. */
static void dev_nginx_defaults(json_t *a)
{
    if (!arg_str(a, "nginx-listen") && !json_object_get(a, "nginx-listen-map"))
        json_object_set_new(a, "nginx-listen-map", json_pack("[s]", "198.51.100.240/28=127.0.3.240/28"));
    if (!arg_str(a, "nginx-port-offset"))
        json_object_set_new(a, "nginx-port-offset", json_string("10000"));
    if (!json_object_get(a, "nginx-backend-map"))
        json_object_set_new(a, "nginx-backend-map", json_pack("[s]", "203.0.113.10=127.0.0.1"));
}

/* The Application Protection deployer, unless another node runs it. */
static int start_nginx_deployer(json_t *a, const struct server_config *c)
{
    if (arg_flag(a, "no-nginx-deploy"))
        return 0;
    if (c->dev)
        dev_nginx_defaults(a);
    if (nginx_options_configure(a, c->data_dir, &ngx) != 0)
        return -1;
    if (!ngx.st.nginx)
        fprintf(stderr, "parapet: nginx not found: Application Protection configurations are deployed unchecked\n");
    if (nginx_deployer_start(&ngx.st, &c->store) != 0 || waf_loop_start(&ngx.st, &c->store) != 0)
        return -1;
    return bw_loop_start(&ngx.st, &c->store);
}

static struct ddos_options ddos; /* the OP/CP deployer reads it until it stops */

/* The Origin Protection and CleanPipe deployer (FastNetMon, BIRD, nftables),
 * unless every plane is off; the nftables scrubber's counter reader. */
static int start_ddos_deployer(json_t *a, const struct server_config *c)
{
    if (ddos_options_configure(a, c->data_dir, &ddos) != 0)
        return -1;
    if (ddos.st.fnm_on && !ddos.st.fnm.fastnetmon)
        fprintf(stderr, "parapet: fastnetmon not found: its configuration is checked by parapet only\n");
    if (ddos.st.bird_on && !ddos.st.bird.bird)
        fprintf(stderr, "parapet: bird not found: BIRD configurations are deployed unchecked\n");
    if (ddos.st.fnm_on && ddos.graphite && fnm_graphite_start(ddos.graphite, &c->store) != 0)
        return -1;
    if (ddos.st.nft_on && ddos.nft_counters &&
        nft_counter_loop_start(&ddos.st.nft, ddos.nft_counters, &c->store) != 0)
        return -1;
    if (ddos.pmacct_on && pm_collector_start(&ddos.pmacct, &c->store) != 0)
        return -1;
    if (!ddos.st.fnm_on && !ddos.st.bird_on && !ddos.st.nft_on)
        return 0;
    return ddos_deployer_start(&ddos.st, &c->store);
}

/* Over PostgreSQL the nodes tell each other about their writes, so that a
 * data plane beside one node follows another's at once (pgsql/changes.c). */
static int start_changes(const struct server_config *c)
{
    if (strcmp(c->store.backend, "postgresql") != 0)
        return 0;
    if (pgsql_changes_start(c->store.path, deployers_wake_local) != 0)
        return -1;
    deployers_set_announcer(pgsql_changes_announce);
    return 0;
}

/* The webhook delivery worker, unless --no-webhooks. */
static int start_webhooks(json_t *a, const struct server_config *c)
{
    bool off = false;
    if (webhook_options_configure(a, &off) != 0)
        return -1;
    return off ? 0 : webhook_worker_start(&c->store);
}

static void stop_deployers(void)
{
    webhook_worker_stop();
    deployers_set_announcer(NULL);
    pgsql_changes_stop();
    fnm_graphite_stop();
    ddos_deployer_stop();
    nft_counter_loop_stop();
    pm_collector_stop();
    waf_loop_stop();
    bw_loop_stop();
    nginx_deployer_stop();
    dns_deployer_stop();
}

static unsigned in_flight_of(void *h)
{
    return http_in_flight(h);
}

static int run(struct server_config *c, json_t *a)
{
    char tls_dir[4096], cert_path[4096], key_path[4096];
    if (data_dir_hold(c->data_dir) != 0) /* no restore runs under a server (data_lock.h) */
        return 1;
    struct store *main_store = cli_open_store(c->data_dir); /* creates the dir, migrates */
    if (!main_store)
        return 1;
    cli_store_config(c->data_dir, &c->store);
    if (c->dev && dev_seed_and_print(c) != 0)
        return 1;
    char *cert = NULL, *key = NULL;
    if (!c->plain_http) {
        data_path(tls_dir, sizeof tls_dir, c->data_dir, "tls");
        mkdir(tls_dir, 0700);
        data_path(cert_path, sizeof cert_path, tls_dir, "cert.pem");
        data_path(key_path, sizeof key_path, tls_dir, "key.pem");
        bool given = c->tls_cert_path != NULL;
        if (tls_load_or_create(given ? c->tls_cert_path : cert_path, given ? c->tls_key_path : key_path,
                               !given, c->listen_host, &cert, &key) != 0)
            goto failed;
    }
    if (worker_store_init(&c->store) != 0 || dispatch_init() != 0 || route_metrics_init() != 0)
        goto failed;
    dispatch_on_commit(deployers_wake_path);

    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL); /* worker threads inherit the mask */
    signal(SIGPIPE, SIG_IGN);

    deployers_lock_dir(c->data_dir); /* one deploying process per data directory */
    if (start_dns_deployer(a, c) != 0 || start_nginx_deployer(a, c) != 0 || start_ddos_deployer(a, c) != 0 ||
        start_changes(c) != 0 || start_webhooks(a, c) != 0) {
        stop_deployers();
        goto failed;
    }
    struct http_server *h = http_start(c, cert, key);
    if (!h) {
        stop_deployers();
        goto failed;
    }
    metrics_in_flight_source(in_flight_of, h);
    char metrics_host[64];
    int metrics_port;
    const char *metrics = arg_str(a, "metrics-listen");
    if (metrics && (arg_address_port("metrics-listen", metrics, false, metrics_host, sizeof metrics_host,
                                     &metrics_port) != 0 ||
                    metrics_http_start(metrics_host, metrics_port, &c->store) != 0)) {
        http_stop(h);
        stop_deployers();
        goto failed;
    }
    char serving[512];
    snprintf(serving, sizeof serving, "serving %s://%s%s%s:%d with %u threads, data in %s",
             c->plain_http ? "http" : "https", strchr(c->listen_host, ':') ? "[" : "", c->listen_host,
             strchr(c->listen_host, ':') ? "]" : "", c->listen_port, c->threads, c->data_dir);
    fprintf(stderr, "parapet: %s\n", serving);
    service_ready(serving);
    wait_for_stop(main_store, c->telemetry_days, c->audit_days);

    service_stopping();
    fprintf(stderr, "parapet: stopping: no new connections; %u requests in flight\n", http_in_flight(h));
    http_quiesce(h);
    struct timespec step = {.tv_nsec = 20 * 1000 * 1000};
    for (unsigned waited = 0; http_in_flight(h) > 0 && waited < c->shutdown_grace_s * 50; waited++)
        nanosleep(&step, NULL);
    metrics_http_stop();
    http_stop(h);
    exec_stop_all(); /* a deploy pass's checker would hold the stop until it ends */
    stop_deployers();
    dispatch_shutdown();
    main_store->ops->close(main_store);
    free(cert);
    free(key);
    fprintf(stderr, "parapet: stopped\n");
    return 0;
failed:
    main_store->ops->close(main_store);
    free(cert);
    free(key);
    return 1;
}

/* The options of the command line, then those of --config FILE it does not
 * give (config_file.h); NULL after a message. */
static json_t *serve_args(int argc, char **argv, bool *file_failed)
{
    json_t *a = args_parse(argc, argv, serve_options);
    if (!a || !arg_str(a, "config"))
        return a;
    json_t *file = config_file_read(arg_str(a, "config"), serve_options);
    if (!file) {
        *file_failed = true;
        json_decref(a);
        return NULL;
    }
    config_merge(a, file);
    json_decref(file);
    if (arg_str(a, "store") && !cli_store_url()) /* --store on the command line (main.c) wins */
        cli_set_store(arg_str(a, "store"));
    return a;
}

int cli_serve(int argc, char **argv)
{
    bool file_failed = false;
    json_t *a = serve_args(argc, argv, &file_failed);
    if (file_failed)
        return 2;
    if (!a || arg_flag(a, "help")) {
        serve_usage(a ? stdout : stderr);
        json_decref(a);
        return a ? 0 : 2;
    }
    if (arg_flag(a, "print-config")) {
        json_object_del(a, "print-config");
        if (cli_store_url()) /* --store, which main.c took out of argv, or the file's */
            json_object_set_new(a, "store", json_string(cli_store_url()));
        opts_config(stdout, serve_options, a);
        json_decref(a);
        return 0;
    }
    struct server_config c;
    int rc = configure(a, &c) == 0 ? run(&c, a) : 2;
    json_decref(a);
    return rc;
}
