/* nginx_conf.c — see nginx_conf.h. */
#include "dataplane/nginx/nginx_conf.h"

#include <stdlib.h>

#include "base/strbuf.h"
#include "dataplane/nginx/access_bw.h"
#include "waf/waf.h"

char *nginx_main_render(const struct nginx_settings *st, const char *sites_file)
{
    struct strbuf b = {0};
    const char *d = st->dir;
    sb_add(&b, "# nginx.conf - written by parapet from `parapet serve`'s --nginx-* options;\n"
               "# put your own http{} settings in conf.d/*.conf.\n");
    if (st->module)
        sb_printf(&b, "load_module %s;\n", st->module);
    sb_printf(&b,
              "worker_processes auto;\n"
              "pid %s/" NGINX_PID_FILE ";\n"
              "error_log %s/logs/error.log notice;\n"
              "events {\n    worker_connections 1024;\n}\n"
              "http {\n"
              "    default_type application/octet-stream;\n"
              "    log_format parapet " NGINX_ACCESS_FORMAT ";\n"
              "    access_log %s/" NGINX_ACCESS_LOG " parapet;\n"
              "    client_body_temp_path %s/tmp/body;\n"
              "    proxy_temp_path %s/tmp/proxy;\n"
              "    fastcgi_temp_path %s/tmp/fastcgi;\n"
              "    uwsgi_temp_path %s/tmp/uwsgi;\n"
              "    scgi_temp_path %s/tmp/scgi;\n"
              "    server_names_hash_max_size 4096;\n"
              "    server_names_hash_bucket_size 128;\n",
              d, d, d, d, d, d, d, d);
    for (size_t i = 0; i < st->n_real_ip_from; i++)
        sb_printf(&b, "    set_real_ip_from %s;\n", st->real_ip_from[i]);
    if (st->n_real_ip_from)
        sb_add(&b, "    real_ip_header X-Forwarded-For;\n    real_ip_recursive on;\n");
    sb_printf(&b,
              "    modsecurity on;\n"
              "    modsecurity_rules_file %s/modsec-base.conf;\n"
              "    include %s/conf.d/*.conf;\n"
              "    include %s;\n"
              "}\n",
              d, d, sites_file);
    return sb_take(&b);
}

char *nginx_modsec_base_render(const struct nginx_settings *st)
{
    struct strbuf b = {0};
    const char *d = st->dir;
    char *shared = waf_owasp_render_shared();
    sb_printf(&b,
              "# ModSecurity at nginx's http{} level - written by parapet\n"
              "SecRuleEngine On\n"
              "SecRequestBodyAccess On\n"
              "SecRequestBodyLimit 13107200\n"
              "SecRequestBodyNoFilesLimit 131072\n"
              "SecRequestBodyLimitAction Reject\n"
              "SecResponseBodyAccess Off\n"
              "SecPcreMatchLimit 1000\n"
              "SecPcreMatchLimitRecursion 1000\n"
              "SecTmpDir %s/tmp\n"
              "SecDataDir %s/tmp\n"
              "SecAuditEngine RelevantOnly\n"
              "SecAuditLogRelevantStatus \"^(?:5|4(?!04))\"\n"
              "SecAuditLogParts ABHZ\n"
              "SecAuditLogType Serial\n"
              "SecAuditLogFormat JSON\n"
              "SecAuditLog %s/" NGINX_AUDIT_LOG "\n"
              "SecUnicodeMapFile /etc/nginx/unicode.mapping 20127\n"
              "Include %s\n"
              "Include %s/*.conf\n"
              "%s",
              d, d, d, st->crs_setup, st->crs_rules, shared);
    free(shared);
    return sb_take(&b);
}
