/* nginx_settings.h — the operator's settings of the Application Protection
 * data plane (nginx + ModSecurity v3 + OWASP CRS), from `parapet serve`'s
 * --nginx-* options (src/cli/nginx_options.c). */
#ifndef PARAPET_NGINX_SETTINGS_H
#define PARAPET_NGINX_SETTINGS_H

#include <stddef.h>

enum { NGINX_MAP_MAX = 16, NGINX_REAL_IP_MAX = 16 };

struct nginx_backend_map {
    char from[64]; /* a backend address as the API holds it */
    char to[64];   /* the address nginx reaches it at instead */
};

struct nginx_settings {
    const char *dir;      /* nginx's prefix: absolute; parapet owns nginx.conf there */
    const char *keys_dir; /* DATA/ap-keys: the private keys of the uploaded certificates */
    const char *nginx;    /* the nginx program for `nginx -t`; NULL: no check */
    /* Where servers listen: NULL, each site's VIPs; else this one address. */
    const char *listen;
    /* With listen maps, a VIP inside `from` is listened on at the same host
     * part of `to` (VIPs outside every map are not listened on). */
    struct nginx_listen_map {
        char from[64], to[64]; /* CIDR blocks of one family and length */
    } listen_map[NGINX_MAP_MAX];
    size_t n_listen_map;
    /* Domain port P is served on P + port_offset, and a mapped backend is
     * reached on P + port_offset too (unprivileged labs and tests). */
    int port_offset;
    struct nginx_backend_map map[NGINX_MAP_MAX];
    size_t n_map;
    /* Proxies whose X-Forwarded-For names the client (scrubbers in front). */
    const char *real_ip_from[NGINX_REAL_IP_MAX];
    size_t n_real_ip_from;
    const char *module;    /* ngx_http_modsecurity_module.so; NULL: built in or loaded elsewhere */
    const char *crs_setup; /* crs-setup.conf */
    const char *crs_rules; /* the CRS rules directory */
    unsigned interval_s;   /* the background deployer's sweep interval */
};

#endif
