/* config.h — settings of a running server (flags of `parapet serve`). */
#ifndef PARAPET_CONFIG_H
#define PARAPET_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/net.h"
#include "store/store.h"

enum { MAX_TRUSTED_PROXIES = 16 };

struct server_config {
    const char *data_dir;
    char listen_host[64];
    int listen_port;
    bool plain_http;
    /* The URL clients reach this server at (scheme, host, port, optional path
     * prefix; no trailing slash), for the absolute URLs answers carry. */
    char public_url[512];
    const char *tls_cert_path, *tls_key_path;
    const char *tls_priority; /* GnuTLS priority string */
    unsigned threads;
    size_t max_header_bytes; /* longest request head (request line + headers): 431 beyond */
    size_t max_uri_bytes;    /* longest request URI (path and query): 414 beyond */
    unsigned max_header_fields; /* header lines, and cookies, per request: 431 beyond */
    size_t max_body_bytes;
    unsigned request_timeout_s; /* idle limit, and the limit on receiving one request */
    unsigned max_connections, max_connections_per_ip;
    unsigned shutdown_grace_s;
    unsigned rate_limit, rate_window_s;             /* requests per window per app (0: no quota) */
    unsigned auth_free_failures, auth_max_block_s; /* token endpoint slow-down (0: off) */
    long access_ttl_s, refresh_ttl_s, code_ttl_s;
    long telemetry_days; /* telemetry retention (docs/telemetry.md) */
    long audit_days;     /* audit log retention (core/audit.h) */
    const char *account_field; /* name of the "<vendor>_account" token member */
    struct cidr trusted_proxies[MAX_TRUSTED_PROXIES];
    int n_trusted_proxies;
    bool log_requests;
    bool dev; /* seed a dev data set and print credentials */
    bool console_off;           /* --no-console: /console/ answers like any unknown path */
    const char *console_chartjs; /* --console-chartjs DIR (NULL: Debian's libjs-chart.js) */
    struct store_config store;
};

void config_defaults(struct server_config *c);

#endif
