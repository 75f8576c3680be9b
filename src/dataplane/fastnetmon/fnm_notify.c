/* fnm_notify.c — see fnm_notify.h. */
#include "dataplane/fastnetmon/fnm_notify.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole non-negative decimal (capped at INT64_MAX): 0, or -1. */
static int parse_count(const char *s, size_t len, int64_t *out)
{
    if (len == 0 || len > 40)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        int d = s[i] - '0';
        v = v > (INT64_MAX - d) / 10 ? INT64_MAX : v * 10 + d;
    }
    *out = v;
    return 0;
}

int fnm_notify_parse_args(char *const argv[4], struct fnm_notify_args *out, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof *out);
    unsigned char addr[16];
    int family = strchr(argv[0], ':') ? AF_INET6 : AF_INET;
    if (inet_pton(family, argv[0], addr) != 1 || !inet_ntop(family, addr, out->ip, sizeof out->ip)) {
        snprintf(msg, msg_len, "IP: '%s' is not an IPv4 or IPv6 address", argv[0]);
        return -1;
    }
    static const char *const directions[] = {"incoming", "outgoing", "internal", "other", NULL};
    for (int i = 0; directions[i] && !out->direction[0]; i++)
        if (strcmp(argv[1], directions[i]) == 0)
            snprintf(out->direction, sizeof out->direction, "%s", directions[i]);
    if (!out->direction[0]) {
        snprintf(msg, msg_len, "DIRECTION: '%s' is not incoming, outgoing, internal or other", argv[1]);
        return -1;
    }
    if (parse_count(argv[2], strlen(argv[2]), &out->pps) != 0) {
        snprintf(msg, msg_len, "PPS: '%s' is not a whole number of packets per second", argv[2]);
        return -1;
    }
    if (strcmp(argv[3], "ban") == 0)
        out->action = FNM_BAN;
    else if (strcmp(argv[3], "unban") == 0)
        out->action = FNM_UNBAN;
    else if (strcmp(argv[3], "attack_details") == 0)
        out->action = FNM_ATTACK_DETAILS;
    else {
        snprintf(msg, msg_len, "ACTION: '%s' is not ban, unban or attack_details", argv[3]);
        return -1;
    }
    return 0;
}

/* The value after "key" at the start of the line, up to `unit` (when
 * given) or the line's end, as a count: 0 or -1. */
static int keyed_count(const char *line, size_t len, const char *key, const char *unit, int64_t *out)
{
    size_t klen = strlen(key);
    if (len < klen || memcmp(line, key, klen) != 0)
        return -1;
    const char *v = line + klen;
    size_t vlen = len - klen;
    if (unit) {
        const char *sp = memchr(v, ' ', vlen);
        if (!sp || (size_t)(line + len - sp) != strlen(unit) + 1 || memcmp(sp + 1, unit, strlen(unit)) != 0)
            return -1;
        vlen = (size_t)(sp - v);
    }
    return parse_count(v, vlen, out);
}

void fnm_report_line(struct fnm_report *r, const char *line, size_t len)
{
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
        len--;
    static const char type_key[] = "Attack type: ";
    int64_t v;
    if (len > sizeof type_key - 1 && memcmp(line, type_key, sizeof type_key - 1) == 0 && !r->attack_type[0]) {
        size_t n = len - (sizeof type_key - 1);
        if (n < sizeof r->attack_type) {
            memcpy(r->attack_type, line + sizeof type_key - 1, n);
            r->attack_type[n] = '\0';
        }
    } else if (keyed_count(line, len, "Initial attack power: ", "packets per second", &v) == 0)
        r->initial_pps = v;
    else if (keyed_count(line, len, "Peak attack power: ", "packets per second", &v) == 0)
        r->peak_pps = v;
    else if (keyed_count(line, len, "Total incoming traffic: ", "mbps", &v) == 0)
        r->in_mbps = v;
}

void fnm_report_parse(struct fnm_report *r, const char *text, size_t len)
{
    while (len) {
        const char *nl = memchr(text, '\n', len);
        size_t n = nl ? (size_t)(nl - text) : len;
        fnm_report_line(r, text, n);
        text += nl ? n + 1 : n;
        len -= nl ? n + 1 : n;
    }
}

const char *fnm_attack_type(const char *fnm_name)
{
    static const char *const map[][2] = {{"syn_flood", "TCP SYN"},
                                         {"udp_flood", "UDP Total"},
                                         {"icmp_flood", "ICMP Total"},
                                         {"ip_fragmentation", "IP Fragmentation"}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(fnm_name, map[i][0]) == 0)
            return map[i][1];
    return "Total Traffic"; /* unknown: FastNetMon's >90 % share rule found no protocol */
}

static int64_t bps_of_mbps(int64_t mbps)
{
    return mbps > INT64_MAX / 1000000 ? INT64_MAX : mbps * 1000000;
}

void fnm_ban_raise(struct fnm_ban *b, const struct fnm_notify_args *args, const struct fnm_report *r)
{
    int64_t pps[] = {args->pps, r ? r->initial_pps : 0, r ? r->peak_pps : 0};
    for (size_t i = 0; i < sizeof pps / sizeof *pps; i++)
        if (pps[i] > b->max_pps)
            b->max_pps = pps[i];
    if (r && bps_of_mbps(r->in_mbps) > b->max_bps)
        b->max_bps = bps_of_mbps(r->in_mbps);
}

void fnm_ban_open(struct fnm_ban *b, const struct fnm_notify_args *args, const struct fnm_report *r,
                  int64_t now)
{
    memset(b, 0, sizeof *b);
    snprintf(b->alert_id, sizeof b->alert_id, "fnm-%s-%lld", args->ip, (long long)now);
    b->start_time = now;
    snprintf(b->attack_type, sizeof b->attack_type, "%s", fnm_attack_type(r ? r->attack_type : ""));
    fnm_ban_raise(b, args, r);
}

char *fnm_ban_record(const struct fnm_ban *b, const char *ip, int64_t end_time)
{
    json_t *rec = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:s, s:s, s:s}", "kind", "ddos_event",
                            "alert_id", b->alert_id, "attack_type", b->attack_type, "site_ip", ip,
                            "start_time", (json_int_t)b->start_time, "max_bps", (json_int_t)b->max_bps,
                            "max_pps", (json_int_t)b->max_pps, "severity", "high", "profile_name",
                            "fastnetmon", "profile_desc", "FastNetMon notify script");
    if (!rec)
        return NULL;
    json_object_set_new(rec, "end_time", end_time ? json_integer(end_time) : json_null());
    char *text = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(rec);
    return text;
}

char *fnm_ban_dump(const struct fnm_ban *b)
{
    json_t *st = json_pack("{s:s, s:I, s:s, s:I, s:I}", "alert_id", b->alert_id, "start_time",
                           (json_int_t)b->start_time, "attack_type", b->attack_type, "max_pps",
                           (json_int_t)b->max_pps, "max_bps", (json_int_t)b->max_bps);
    char *text = st ? json_dumps(st, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(st);
    return text;
}

int fnm_ban_load(const char *text, struct fnm_ban *b)
{
    memset(b, 0, sizeof *b);
    json_t *st = json_loads(text, 0, NULL);
    const char *id = NULL, *type = NULL;
    json_int_t start = 0, pps = 0, bps = 0;
    int rc = st &&
                     json_unpack(st, "{s:s, s:I, s:s, s:I, s:I}", "alert_id", &id, "start_time", &start,
                                 "attack_type", &type, "max_pps", &pps, "max_bps", &bps) == 0 &&
                     strlen(id) < sizeof b->alert_id && strlen(type) < sizeof b->attack_type && start > 0 &&
                     pps >= 0 && bps >= 0
                 ? 0
                 : -1;
    if (rc == 0) {
        snprintf(b->alert_id, sizeof b->alert_id, "%s", id);
        snprintf(b->attack_type, sizeof b->attack_type, "%s", type);
        b->start_time = start;
        b->max_pps = pps;
        b->max_bps = bps;
    }
    json_decref(st);
    return rc;
}
