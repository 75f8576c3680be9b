/* nginx_options.h — the Application Protection data plane options of
 * `parapet serve` (nginx + ModSecurity + CRS, and the WAF log it follows),
 * and the settings they make. */
#ifndef PARAPET_CLI_NGINX_OPTIONS_H
#define PARAPET_CLI_NGINX_OPTIONS_H

#include <jansson.h>

#include "dataplane/nginx/nginx_settings.h"

/* Entries of a `struct opt` table (args.h), with their documentation. */
#define NGINX_DEPLOY_OPTS                                                                                    \
    {.name = "no-nginx-deploy", .flag = true,                                                                \
     .help = "no Application Protection deployer nor WAF log follower (another node runs them)"},           \
        {.name = "nginx-dir", .arg = "DIR", .dflt = "DATA/nginx",                                            \
         .help = "nginx's prefix: nginx.conf, sites.conf, tls/, modsec/, logs/ (the ModSecurity audit log "  \
                 "parapet follows), run/"},                                                                  \
        {.name = "nginx", .arg = "PATH|none", .dflt = "nginx in PATH", .help = "nginx used for `nginx -t`"}, \
        {.name = "nginx-listen", .arg = "ADDR", .dflt = "each site on its VIPs", .help = "serve every site on ADDR"}, \
        {.name = "nginx-listen-map", .repeatable = true, .arg = "A=B",                                       \
         .help = "serve a site whose VIP is in block A at the same host of block B (repeatable; VIPs "        \
                 "outside every map are not served; labs, tests)"},                                          \
        {.name = "nginx-port-offset", .arg = "N", .dflt = "0",                                               \
         .help = "serve domain port P on P+N, and reach mapped backends on P+N"},                            \
        {.name = "nginx-backend-map", .repeatable = true, .arg = "A=B",                                      \
         .help = "reach backend address A at B instead (repeatable; labs, tests)"},                          \
        {.name = "nginx-real-ip-from", .repeatable = true, .arg = "CIDR",                                    \
         .help = "proxies in front whose X-Forwarded-For names the client (repeatable)"},                    \
        {.name = "nginx-modsecurity-module", .arg = "PATH|none",                                             \
         .dflt = "/usr/lib/nginx/modules/ngx_http_modsecurity_module.so", .help = "the ModSecurity module nginx loads"}, \
        {.name = "nginx-crs-setup", .arg = "FILE", .dflt = "/etc/modsecurity/crs/crs-setup.conf",            \
         .help = "the OWASP CRS setup file"},                                                                \
        {.name = "nginx-crs-rules", .arg = "DIR", .dflt = "/usr/share/modsecurity-crs/rules",                \
         .help = "the OWASP CRS rules"},                                                                     \
        {.name = "nginx-deploy-interval", .arg = "S", .dflt = "5", .help = "background deploy sweep interval"}

struct nginx_options {
    struct nginx_settings st;
    char dir[1024], keys_dir[1024];
};

/* Fills o from the parsed options; data_dir gives the default directories.
 * Returns 0, or -1 after a message on stderr. */
int nginx_options_configure(json_t *args, const char *data_dir, struct nginx_options *o);

#endif
