/* fnm_validate.c — see fnm_validate.h. */
#include "dataplane/fastnetmon/fnm_validate.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/net.h"

enum kind { K_BOOL, K_INT, K_PATH, K_ADDR, K_WORD };

struct key {
    const char *name;
    enum kind kind;
};

static const struct key global_keys[] = {
    {"disable_usage_report", K_BOOL}, {"enable_ban", K_BOOL},
    {"unban_only_if_attack_finished", K_BOOL}, {"enable_connection_tracking", K_BOOL},
    {"monitor_local_ip_addresses", K_BOOL}, {"enable_api", K_BOOL},
    {"prometheus", K_BOOL}, {"sflow", K_BOOL},
    {"mirror_afpacket", K_BOOL}, {"process_incoming_traffic", K_BOOL},
    {"process_outgoing_traffic", K_BOOL}, {"netflow", K_BOOL},
    {"graphite", K_BOOL}, {"ban_for_pps", K_BOOL},
    {"ban_for_bandwidth", K_BOOL}, {"ban_for_flows", K_BOOL},
    {"ban_time", K_INT}, {"average_calculation_time", K_INT},
    {"netflow_port", K_INT}, {"netflow_sampling_ratio", K_INT},
    {"graphite_port", K_INT}, {"graphite_push_period", K_INT},
    {"networks_list_path", K_PATH}, {"white_list_path", K_PATH},
    {"pid_path", K_PATH}, {"cli_stats_file_path", K_PATH},
    {"cli_stats_ipv6_file_path", K_PATH}, {"notify_script_path", K_PATH},
    {"netflow_host", K_ADDR}, {"graphite_host", K_ADDR},
    {"graphite_prefix", K_WORD},
};

/* Every key a hostgroup must carry (prefixed NAME_). */
static const struct key group_keys[] = {
    {"ban_for_pps", K_BOOL}, {"threshold_pps", K_INT},
    {"ban_for_bandwidth", K_BOOL}, {"threshold_mbps", K_INT},
    {"ban_for_flows", K_BOOL}, {"threshold_flows", K_INT},
    {"ban_for_tcp_pps", K_BOOL}, {"threshold_tcp_pps", K_INT},
    {"ban_for_udp_pps", K_BOOL}, {"threshold_udp_pps", K_INT},
    {"ban_for_icmp_pps", K_BOOL}, {"threshold_icmp_pps", K_INT},
    {"ban_for_tcp_bandwidth", K_BOOL}, {"threshold_tcp_mbps", K_INT},
    {"ban_for_udp_bandwidth", K_BOOL}, {"threshold_udp_mbps", K_INT},
    {"ban_for_icmp_bandwidth", K_BOOL}, {"threshold_icmp_mbps", K_INT},
};
enum { N_GROUP_KEYS = sizeof group_keys / sizeof group_keys[0] };

struct check {
    char *why;
    size_t why_len;
    const char *file;
    int line;
    json_t *groups;   /* name -> number of its keys seen */
    json_t *cidrs;    /* group CIDR -> group name */
    json_t *networks; /* networks_list CIDR -> true */
};

static int refuse(struct check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct check *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->why, c->why_len, "%s line %d: %s", c->file, c->line, msg);
    return 1;
}

static bool is_int(const char *v)
{
    size_t n = strlen(v);
    return n > 0 && n <= 12 && strspn(v, "0123456789") == n;
}

/* A canonical CIDR: parses, has a length, and prints back the same. */
static bool canonical_cidr(const char *v)
{
    struct cidr c;
    char back[NET_TEXT_MAX];
    if (!strchr(v, '/') || cidr_parse(v, 0, &c) != 0)
        return false;
    cidr_format(&c, back);
    return strcmp(back, v) == 0;
}

static int value_ok(struct check *c, const char *key, const char *v, enum kind kind)
{
    bool ok = false;
    struct ip_addr a;
    switch (kind) {
    case K_BOOL:
        ok = strcmp(v, "on") == 0 || strcmp(v, "off") == 0;
        break;
    case K_INT:
        ok = is_int(v);
        break;
    case K_PATH:
        ok = v[0] == '/' && !strpbrk(v, " \t#=");
        break;
    case K_ADDR:
        ok = ip_parse(v, &a) == 0;
        break;
    case K_WORD:
        ok = v[0] && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(v);
        break;
    }
    return ok ? 0 : refuse(c, "%s: bad value '%s'", key, v);
}

static const struct key *find(const struct key *keys, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

static int hostgroup(struct check *c, char *v)
{
    char *colon = strchr(v, ':');
    if (!colon)
        return refuse(c, "hostgroup: must be NAME:CIDR[,CIDR...]");
    *colon = '\0';
    size_t n = strlen(v);
    if (n == 0 || n > 64 || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
        return refuse(c, "hostgroup: bad name '%s'", v);
    if (json_object_get(c->groups, v))
        return refuse(c, "hostgroup: %s is declared twice", v);
    json_object_set_new(c->groups, v, json_integer(0));
    for (char *save = NULL, *cidr = strtok_r(colon + 1, ",", &save); cidr; cidr = strtok_r(NULL, ",", &save)) {
        if (!canonical_cidr(cidr))
            return refuse(c, "hostgroup %s: '%s' is not a canonical CIDR", v, cidr);
        if (json_object_get(c->cidrs, cidr))
            return refuse(c, "hostgroup %s: %s is already in hostgroup %s", v, cidr,
                          json_string_value(json_object_get(c->cidrs, cidr)));
        if (!json_object_get(c->networks, cidr))
            return refuse(c, "hostgroup %s: %s is not listed verbatim in networks_list", v, cidr);
        json_object_set_new(c->cidrs, cidr, json_string(v));
    }
    return 0;
}

/* NAME_key of a declared group: each key a group takes is tried as the
 * suffix, and the rest looked up (a walk over every group for each line
 * made the check quadratic in the number of groups). */
static int group_key(struct check *c, const char *key, const char *v)
{
    size_t len = strlen(key);
    for (size_t i = 0; i < N_GROUP_KEYS; i++) {
        size_t k = strlen(group_keys[i].name);
        if (len < k + 2 || key[len - k - 1] != '_' || strcmp(key + len - k, group_keys[i].name) != 0)
            continue;
        char name[80];
        if (len - k - 1 >= sizeof name)
            continue;
        memcpy(name, key, len - k - 1);
        name[len - k - 1] = '\0';
        json_t *count = json_object_get(c->groups, name);
        if (!count)
            continue;
        if (value_ok(c, key, v, group_keys[i].kind) != 0)
            return 1;
        json_object_set_new(c->groups, name, json_integer(json_integer_value(count) + 1));
        return 0;
    }
    return refuse(c, "unknown key '%s'", key);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

static int conf_line(struct check *c, char *line, bool *usage_off)
{
    char *eq = strchr(line, '=');
    if (!eq || strchr(eq + 1, '='))
        return refuse(c, "must be KEY = VALUE with one '='");
    *eq = '\0';
    char *key = trim(line), *v = trim(eq + 1);
    if (strchr(v, '#'))
        return refuse(c, "%s: no comment may follow a value (FastNetMon would read it as the value)", key);
    if (strcmp(key, "hostgroup") == 0)
        return hostgroup(c, v);
    const struct key *k = find(global_keys, sizeof global_keys / sizeof global_keys[0], key);
    if (!k)
        return group_key(c, key, v);
    if (strcmp(key, "disable_usage_report") == 0)
        *usage_off = strcmp(v, "on") == 0;
    return value_ok(c, key, v, k->kind);
}

/* Calls fn on each line that is neither blank nor a whole-line comment. */
static int each_line(struct check *c, const char *file, const char *text, int (*fn)(struct check *, char *, void *),
                     void *arg)
{
    c->file = file;
    c->line = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        char buf[8192];
        c->line++;
        if (n >= sizeof buf)
            return refuse(c, "line too long");
        memcpy(buf, p, n);
        buf[n] = '\0';
        p += n + (p[n] == '\n');
        char *t = trim(buf);
        if (!*t || *t == '#')
            continue;
        if (fn(c, t, arg) != 0)
            return 1;
    }
    return 0;
}

static int list_line(struct check *c, char *line, void *seen)
{
    if (!canonical_cidr(line))
        return refuse(c, "'%s' is not a canonical CIDR", line);
    if (seen) {
        if (json_object_get(seen, line))
            return refuse(c, "%s is listed twice", line);
        json_object_set_new(seen, line, json_true());
    }
    return 0;
}

static int conf_fn(struct check *c, char *line, void *usage_off)
{
    return conf_line(c, line, usage_off);
}

int fnm_validate(const char *conf, const char *networks, const char *whitelist, char *why, size_t why_len)
{
    struct check c = {.why = why, .why_len = why_len, .groups = json_object(), .cidrs = json_object(),
                      .networks = json_object()};
    bool usage_off = false;
    int rc = each_line(&c, "networks_list", networks, list_line, c.networks) ||
             each_line(&c, "networks_whitelist", whitelist, list_line, NULL) ||
             each_line(&c, "fastnetmon.conf", conf, conf_fn, &usage_off);
    if (!rc && !usage_off) {
        c.line = 0;
        rc = refuse(&c, "disable_usage_report = on is required (the default reports usage every hour)");
    }
    const char *name;
    json_t *count;
    json_object_foreach (c.groups, name, count) {
        if (rc)
            break;
        if (json_integer_value(count) != N_GROUP_KEYS) {
            c.line = 0;
            rc = refuse(&c, "hostgroup %s: has %lld of its %d keys (groups inherit nothing)", name,
                        (long long)json_integer_value(count), N_GROUP_KEYS);
        }
    }
    json_decref(c.groups), json_decref(c.cidrs), json_decref(c.networks);
    return rc ? 1 : 0;
}

int fnm_check_line_fails(const char *line)
{
    if (!strstr(line, "[ERROR]"))
        return 0;
    return !strstr(line, "Folder for attack details does not exist") && !strstr(line, "notify script");
}
