/* nginx_options.c — see nginx_options.h. */
#include "cli/nginx_options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/net.h"
#include "cli/args.h"
#include "deploy/exec.h"
#include "deploy/files.h"

#define DEFAULT_MODULE    "/usr/lib/nginx/modules/ngx_http_modsecurity_module.so"
#define DEFAULT_CRS_SETUP "/etc/modsecurity/crs/crs-setup.conf"
#define DEFAULT_CRS_RULES "/usr/share/modsecurity-crs/rules"

/* nginx's configuration wants absolute paths. */
static int absolute_dir(const char *dir, char out[1024])
{
    char real[PATH_MAX];
    if (files_mkdirs(dir) != 0 || !realpath(dir, real) || strlen(real) >= 1024) {
        fprintf(stderr, "parapet: cannot use %s for the nginx configuration\n", dir);
        return -1;
    }
    memcpy(out, real, strlen(real) + 1);
    return 0;
}

static bool is_address(const char *s)
{
    struct ip_addr a;
    return s && ip_parse(s, &a) == 0;
}

static int backend_maps(json_t *args, struct nginx_settings *st)
{
    json_t *given = json_object_get(args, "nginx-backend-map");
    size_t i;
    json_t *v;
    json_array_foreach (given, i, v) {
        const char *s = json_string_value(v), *eq = strchr(s, '=');
        if (st->n_map == NGINX_MAP_MAX) {
            fprintf(stderr, "parapet: at most %d --nginx-backend-map\n", NGINX_MAP_MAX);
            return -1;
        }
        struct nginx_backend_map *m = &st->map[st->n_map];
        if (!eq || (size_t)(eq - s) >= sizeof m->from || strlen(eq + 1) >= sizeof m->to) {
            fprintf(stderr, "parapet: --nginx-backend-map %s: must be ADDRESS=ADDRESS\n", s);
            return -1;
        }
        memcpy(m->from, s, (size_t)(eq - s));
        m->from[eq - s] = '\0';
        strcpy(m->to, eq + 1);
        if (!is_address(m->from) || !is_address(m->to)) {
            fprintf(stderr, "parapet: --nginx-backend-map %s: must be ADDRESS=ADDRESS\n", s);
            return -1;
        }
        st->n_map++;
    }
    return 0;
}

static int listen_maps(json_t *args, struct nginx_settings *st)
{
    size_t i;
    json_t *v;
    json_array_foreach (json_object_get(args, "nginx-listen-map"), i, v) {
        const char *s = json_string_value(v), *eq = strchr(s, '=');
        struct nginx_listen_map *m = &st->listen_map[st->n_listen_map];
        struct cidr from, to;
        if (st->n_listen_map == NGINX_MAP_MAX || !eq || (size_t)(eq - s) >= sizeof m->from ||
            strlen(eq + 1) >= sizeof m->to) {
            fprintf(stderr, "parapet: --nginx-listen-map %s: must be CIDR=CIDR (at most %d)\n", s, NGINX_MAP_MAX);
            return -1;
        }
        memcpy(m->from, s, (size_t)(eq - s));
        m->from[eq - s] = '\0';
        strcpy(m->to, eq + 1);
        if (cidr_parse(m->from, 0, &from) != 0 || cidr_parse(m->to, 0, &to) != 0 ||
            from.addr.family != to.addr.family || from.prefix != to.prefix) {
            fprintf(stderr, "parapet: --nginx-listen-map %s: two blocks of one family and length\n", s);
            return -1;
        }
        st->n_listen_map++;
    }
    return 0;
}

static int real_ip_from(json_t *args, struct nginx_settings *st)
{
    json_t *given = json_object_get(args, "nginx-real-ip-from");
    size_t i;
    json_t *v;
    json_array_foreach (given, i, v) {
        struct cidr c;
        if (st->n_real_ip_from == NGINX_REAL_IP_MAX ||
            cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) != 0) {
            fprintf(stderr, "parapet: --nginx-real-ip-from %s: must be an address or CIDR block (at most %d)\n",
                    json_string_value(v), NGINX_REAL_IP_MAX);
            return -1;
        }
        st->real_ip_from[st->n_real_ip_from++] = json_string_value(v);
    }
    return 0;
}

int nginx_options_configure(json_t *args, const char *data_dir, struct nginx_options *o)
{
    memset(o, 0, sizeof *o);
    struct nginx_settings *st = &o->st;
    char dir[4096];
    if (arg_str(args, "nginx-dir"))
        snprintf(dir, sizeof dir, "%s", arg_str(args, "nginx-dir"));
    else
        snprintf(dir, sizeof dir, "%s/nginx", data_dir);
    if (absolute_dir(dir, o->dir) != 0)
        return -1;
    snprintf(dir, sizeof dir, "%s/ap-keys", data_dir);
    if (!realpath(data_dir, o->keys_dir) || strlen(o->keys_dir) + 9 >= sizeof o->keys_dir) {
        fprintf(stderr, "parapet: cannot use %s\n", data_dir);
        return -1;
    }
    strcat(o->keys_dir, "/ap-keys");
    st->dir = o->dir;
    st->keys_dir = o->keys_dir;
    const char *nginx = arg_str(args, "nginx");
    if (nginx && strcmp(nginx, "none") == 0)
        nginx = NULL;
    else if (!nginx)
        nginx = exec_available("nginx") ? "nginx" : NULL;
    else if (!exec_available(nginx)) {
        fprintf(stderr, "parapet: --nginx %s: not found\n", nginx);
        return -1;
    }
    st->nginx = nginx;
    st->listen = arg_str(args, "nginx-listen");
    if (st->listen && !is_address(st->listen)) {
        fprintf(stderr, "parapet: --nginx-listen must be an IP address\n");
        return -1;
    }
    long offset, interval;
    if (arg_long(args, "nginx-port-offset", 0, 0, 60000, &offset) != 0 ||
        arg_long(args, "nginx-deploy-interval", 5, 1, 3600, &interval) != 0 || backend_maps(args, st) != 0 ||
        real_ip_from(args, st) != 0 || listen_maps(args, st) != 0)
        return -1;
    st->port_offset = (int)offset;
    st->interval_s = (unsigned)interval;
    const char *module = arg_str(args, "nginx-modsecurity-module");
    if (module && strcmp(module, "none") == 0)
        module = NULL;
    else if (!module)
        module = access(DEFAULT_MODULE, R_OK) == 0 ? DEFAULT_MODULE : NULL;
    st->module = module;
    st->crs_setup = arg_str(args, "nginx-crs-setup") ? arg_str(args, "nginx-crs-setup") : DEFAULT_CRS_SETUP;
    st->crs_rules = arg_str(args, "nginx-crs-rules") ? arg_str(args, "nginx-crs-rules") : DEFAULT_CRS_RULES;
    return 0;
}
