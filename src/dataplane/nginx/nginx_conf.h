/* nginx_conf.h — the files around the sites' fragments: nginx.conf
 * (parapet's, rendered from the settings; the operator's own http{}
 * settings go in conf.d, any *.conf there) and modsec-base.conf, the ModSecurity
 * setup loaded once at http{}: engine on, the JSON audit log the loop back
 * follows, the Core Rule Set, and parapet's shared OWASP decision. */
#ifndef PARAPET_NGINX_CONF_H
#define PARAPET_NGINX_CONF_H

#include "dataplane/nginx/nginx_settings.h"

/* nginx.conf including `sites_file` (absolute); malloc'd. */
char *nginx_main_render(const struct nginx_settings *st, const char *sites_file);
/* modsec-base.conf; malloc'd. */
char *nginx_modsec_base_render(const struct nginx_settings *st);

/* Where the running nginx keeps its pid, and ModSecurity its audit log. */
#define NGINX_PID_FILE "run/nginx.pid"
#define NGINX_AUDIT_LOG "logs/modsec_audit.json"
#define NGINX_ACCESS_LOG "logs/access.log"

#endif
