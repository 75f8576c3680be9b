/* nginx_options.h — the Application Protection data plane options of
 * `parapet serve` (nginx + ModSecurity + CRS, and the WAF log it follows),
 * and the settings they make. */
#ifndef PARAPET_CLI_NGINX_OPTIONS_H
#define PARAPET_CLI_NGINX_OPTIONS_H

#include <jansson.h>

#include "dataplane/nginx/nginx_settings.h"

/* Entries of a `struct opt` table (args.h). */
#define NGINX_DEPLOY_OPTS                                                                                    \
    {.name = "no-nginx-deploy", .flag = true}, {.name = "nginx-dir"}, {.name = "nginx"},                     \
        {.name = "nginx-listen"}, {.name = "nginx-listen-map", .repeatable = true}, {.name = "nginx-port-offset"},                                             \
        {.name = "nginx-backend-map", .repeatable = true}, {.name = "nginx-real-ip-from", .repeatable = true}, \
        {.name = "nginx-modsecurity-module"}, {.name = "nginx-crs-setup"}, {.name = "nginx-crs-rules"},      \
    {                                                                                                        \
        .name = "nginx-deploy-interval"                                                                      \
    }

#define NGINX_DEPLOY_USAGE                                                                                   \
    "  --no-nginx-deploy          no Application Protection deployer nor WAF log follower\n"               \
    "  --nginx-dir DIR            nginx's prefix (default DATA/nginx): nginx.conf, sites.conf, tls/,\n"      \
    "                             modsec/, logs/ (the ModSecurity audit log parapet follows), run/\n"        \
    "  --nginx PATH|none          nginx used for `nginx -t` (default: nginx in PATH)\n"                      \
    "  --nginx-listen ADDR        serve every site on ADDR (default: each site on its VIPs)\n"              \
    "  --nginx-listen-map A=B     serve a site whose VIP is in block A at the same host of block B\n"     \
    "                             (repeatable; VIPs outside every map are not served; labs, tests)\n"      \
    "  --nginx-port-offset N      serve domain port P on P+N, and reach mapped backends on P+N (0)\n"        \
    "  --nginx-backend-map A=B    reach backend address A at B instead (repeatable; labs, tests)\n"          \
    "  --nginx-real-ip-from CIDR  proxies in front whose X-Forwarded-For names the client (repeatable)\n"    \
    "  --nginx-modsecurity-module PATH|none  (default /usr/lib/nginx/modules/ngx_http_modsecurity_module.so)\n" \
    "  --nginx-crs-setup FILE     (default /etc/modsecurity/crs/crs-setup.conf)\n"                          \
    "  --nginx-crs-rules DIR      (default /usr/share/modsecurity-crs/rules)\n"                             \
    "  --nginx-deploy-interval S  background deploy sweep interval (5)\n"

struct nginx_options {
    struct nginx_settings st;
    char dir[1024], keys_dir[1024];
};

/* Fills o from the parsed options; data_dir gives the default directories.
 * Returns 0, or -1 after a message on stderr. */
int nginx_options_configure(json_t *args, const char *data_dir, struct nginx_options *o);

#endif
