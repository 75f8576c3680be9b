/* record.c — see record.h. Each kind lists its members once (a table of
 * names), reads them with the typed getters below, and refuses members it
 * does not list. */
#include "telemetry/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"

enum { TIME_MIN = 946684800 }; /* 2000-01-01 */

struct reader {
    json_t *obj;                     /* jansson's tree, or */
    const struct tel_fields *fields; /* the members the simdjson decoder saw */
    int64_t now;
    char *msg;
    size_t msgsize;
    size_t seen; /* members read (present, null included) */
};

static int fail(struct reader *rd, const char *member, const char *rule)
{
    snprintf(rd->msg, rd->msgsize, "%s: %s", member, rule);
    return -1;
}

/* A member as the rules see it, from either decoder. */
static struct tel_field member(struct reader *rd, const char *name)
{
    struct tel_field m = {0};
    if (rd->fields) {
        int id = tel_member_id(name, strlen(name));
        if (id >= 0 && (rd->fields->present >> id & 1))
            m = rd->fields->f[id];
    } else {
        json_t *v = json_object_get(rd->obj, name);
        if (json_is_string(v))
            m = (struct tel_field){.type = TEL_F_STRING, .str = json_string_value(v), .len = json_string_length(v)};
        else if (json_is_integer(v))
            m = (struct tel_field){.type = TEL_F_INTEGER, .i = json_integer_value(v)};
        else if (json_is_null(v))
            m.type = TEL_F_NULL;
        else if (v)
            m.type = TEL_F_OTHER;
    }
    rd->seen += m.type != TEL_F_ABSENT;
    return m;
}

/* A string member: copied into dst[size]; absent → "" unless required. */
static int get_str(struct reader *rd, const char *name, bool required, size_t min_len, char *dst, size_t size)
{
    struct tel_field v = member(rd, name);
    if (v.type == TEL_F_ABSENT || v.type == TEL_F_NULL) {
        dst[0] = '\0';
        return required ? fail(rd, name, "is required") : 0;
    }
    if (v.type != TEL_F_STRING)
        return fail(rd, name, "must be a string");
    if (v.len < min_len || v.len >= size || memchr(v.str, '\0', v.len)) {
        char rule[64];
        snprintf(rule, sizeof rule, "must be %zu to %zu characters", min_len, size - 1);
        return fail(rd, name, rule);
    }
    memcpy(dst, v.str, v.len);
    dst[v.len] = '\0';
    return 0;
}

/* An integer member in [min, max]; absent → def unless required. */
static int get_int_value(struct reader *rd, const char *name, struct tel_field v, bool required, int64_t min,
                         int64_t max, int64_t def, int64_t *out)
{
    if (v.type == TEL_F_ABSENT || v.type == TEL_F_NULL) {
        *out = def;
        return required ? fail(rd, name, "is required") : 0;
    }
    if (v.type != TEL_F_INTEGER)
        return fail(rd, name, "must be an integer");
    if (v.i < min || v.i > max) {
        char rule[96];
        snprintf(rule, sizeof rule, "must be an integer from %lld to %lld", (long long)min, (long long)max);
        return fail(rd, name, rule);
    }
    *out = v.i;
    return 0;
}

static int get_int(struct reader *rd, const char *name, bool required, int64_t min, int64_t max, int64_t def,
                   int64_t *out)
{
    return get_int_value(rd, name, member(rd, name), required, min, max, def, out);
}

static int get_time(struct reader *rd, const char *name, bool required, int64_t *out)
{
    struct tel_field v = member(rd, name);
    if (v.type == TEL_F_INTEGER && (v.i < TIME_MIN || v.i > rd->now + 86400))
        return fail(rd, name, "must be a unix time from 2000-01-01 to one day from now");
    return get_int_value(rd, name, v, required, TIME_MIN, rd->now + 86400, 0, out);
}

static int get_addr(struct reader *rd, const char *name, bool required, bool block, struct cidr *out,
                    bool *present)
{
    char text[NET_TEXT_MAX];
    if (get_str(rd, name, required, 1, text, sizeof text) != 0)
        return -1;
    *present = text[0] != '\0';
    if (!*present)
        return 0;
    if (block) {
        if (cidr_parse(text, CIDR_ALLOW_BARE | CIDR_REJECT_HOST_BITS, out) != 0)
            return fail(rd, name, "must be an IPv4 or IPv6 address or block without host bits");
    } else {
        if (ip_parse(text, &out->addr) != 0)
            return fail(rd, name, "must be an IPv4 or IPv6 address");
        ip_unmap(&out->addr);
        out->prefix = out->addr.family == NET_V4 ? 32 : 128;
    }
    return 0;
}

/* Members other than the kind's own are refused. Called once a kind has
 * read its members: when it read as many as the object has (besides
 * "kind"), there is none to name. */
static bool in_list(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0)
            return true;
    return false;
}

static int only_members(struct reader *rd, const char *const *names)
{
    size_t size = rd->fields ? (size_t)__builtin_popcountll(rd->fields->present) : json_object_size(rd->obj);
    if (size == rd->seen + 1)
        return 0;
    const char *key;
    json_t *v;
    if (rd->fields) { /* in member order (this decoder's refusals are told by jansson's) */
        for (int id = 0; id < TEL_MEMBERS; id++)
            if ((rd->fields->present >> id & 1) && strcmp(tel_member_name(id), "kind") != 0 &&
                !in_list(tel_member_name(id), names))
                return fail(rd, tel_member_name(id), "is not a member of this kind of record");
        return 0;
    }
    json_object_foreach(rd->obj, key, v) {
        bool known = strcmp(key, "kind") == 0;
        for (const char *const *n = names; *n && !known; n++)
            known = strcmp(*n, key) == 0;
        if (!known)
            return fail(rd, key, "is not a member of this kind of record");
    }
    return 0;
}

static bool id_chars(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
              *s == '_' || *s == ':' || *s == '-'))
            return false;
    return true;
}

static int get_id(struct reader *rd, const char *name, char *dst, size_t size)
{
    if (get_str(rd, name, true, 1, dst, size) != 0)
        return -1;
    return id_chars(dst) ? 0 : fail(rd, name, "may hold only letters, digits and . _ : -");
}

static const char *const severity_names[] = {"low", "medium", "high", "blackhole"};

int tel_severity_parse(const char *name, int max)
{
    for (int i = 0; i <= max && i < 4; i++)
        if (strcmp(name, severity_names[i]) == 0)
            return i;
    return -1;
}

const char *tel_severity_name(int severity)
{
    return severity >= 0 && severity < 4 ? severity_names[severity] : "low";
}

bool tel_network_attack_type(const char *name)
{
    static const char *const types[] = {
        "Mixed", "TCP SYN", "TCP ACK", "TCP RST", "TCP NULL", "TCP Fragmentation", "DNS Flood",
        "DNS Amplification", "NTP Amplification", "SNMP Amplification", "SSDP Amplification",
        "UDP Fragmentation", "UDP Total", "CLDAP Reflection", "ICMP Invalid", "ICMP Total", "IP Fragmentation",
        "IP Bogons", "IP Land", "SIP Flood", "HTTP Flood", "HTTPS Flood", "Total Traffic", "TCP FIN-RST",
        "TCP SYN-RST", NULL};
    return in_list(name, types);
}

bool tel_waf_attack_type(const char *name)
{
    static const char *const keys[] = {
        "anti_leech", "coldfusion_injection", "components_leak", "csrf", "email_injection", "encryption",
        "error_code_handing", "force_remove_header", "ldap_injection", "oscmd", "others", "path_traversal",
        "phpcode_injection", "port_security", "sensitive_leak", "session_fixation", "sqli", "ssi",
        "unvalidated_redirects", "webscanner", "xml_injection", "xss", "xxe_injection", NULL};
    return in_list(name, keys);
}

void tel_addr_key(const struct ip_addr *a, uint8_t key[TEL_ADDR_KEY])
{
    memset(key, 0, TEL_ADDR_KEY);
    key[0] = (uint8_t)a->family;
    memcpy(key + 1, a->b, a->family == NET_V4 ? 4 : 16);
}

void tel_block_keys(const struct cidr *c, uint8_t lo[TEL_ADDR_KEY], uint8_t hi[TEL_ADDR_KEY])
{
    tel_addr_key(&c->addr, lo);
    memcpy(hi, lo, TEL_ADDR_KEY);
    int width = c->addr.family == NET_V4 ? 4 : 16;
    for (int i = 0; i < width; i++) {
        int keep = c->prefix - 8 * i;
        if (keep <= 0)
            hi[1 + i] = 0xff;
        else if (keep < 8)
            hi[1 + i] |= (uint8_t)(0xff >> keep);
    }
}

/* The site a record may name directly (AP records, or a check of the
 * address's site). */
static int get_site_id(struct reader *rd, struct tel_locator *loc)
{
    if (get_str(rd, "site_id", false, 1, loc->site_id, sizeof loc->site_id) != 0)
        return -1;
    return 0;
}

static int decode_ddos_event(struct reader *rd, struct tel_record *rec, struct tel_locator *loc)
{
    static const char *const members[] = {"alert_id", "attack_type", "site_ip", "site_id", "start_time",
                                          "end_time", "max_bps", "max_pps", "severity", "profile_name",
                                          "profile_desc", "p_type", NULL};
    struct tel_ddos_event *e = &rec->u.ev;
    char severity[16];
    int64_t p_type;
    if (get_id(rd, "alert_id", e->alert_id, sizeof e->alert_id) ||
        get_str(rd, "attack_type", true, 1, e->attack_type, sizeof e->attack_type))
        return -1;
    if (strcmp(e->attack_type, "application") == 0 || strcmp(e->attack_type, "mixed") == 0)
        strcpy(loc->attack_family, "ap");
    else if (!tel_network_attack_type(e->attack_type))
        return fail(rd, "attack_type", "must be an attack type of document 001's list (e.g. \"UDP Fragmentation\") "
                                       "or application / mixed");
    if (get_site_id(rd, loc) || get_addr(rd, "site_ip", !loc->site_id[0], true, &loc->addr, &loc->has_addr) ||
        get_time(rd, "start_time", true, &e->start_time) || get_time(rd, "end_time", false, &e->end_time) ||
        get_int(rd, "max_bps", false, 0, INT64_MAX, 0, &e->max_bps) ||
        get_int(rd, "max_pps", false, 0, INT64_MAX, 0, &e->max_pps) ||
        get_str(rd, "severity", false, 1, severity, sizeof severity) ||
        get_str(rd, "profile_name", false, 0, e->profile_name, sizeof e->profile_name) ||
        get_str(rd, "profile_desc", false, 0, e->profile_desc, sizeof e->profile_desc) ||
        get_int(rd, "p_type", false, 0, 1, 0, &p_type))
        return -1;
    if (e->end_time && e->end_time < e->start_time)
        return fail(rd, "end_time", "must not be before start_time");
    e->severity = severity[0] ? tel_severity_parse(severity, TEL_SEV_BLACKHOLE) : TEL_SEV_LOW;
    if (e->severity < 0)
        return fail(rd, "severity", "must be one of low, medium, high, blackhole");
    e->p_type = (int)p_type;
    if (loc->has_addr) {
        cidr_format(&loc->addr, e->site_ip);
        if (loc->addr.prefix == (loc->addr.addr.family == NET_V4 ? 32 : 128))
            ip_format(&loc->addr.addr, e->site_ip);
        tel_block_keys(&loc->addr, e->ip_lo, e->ip_hi);
    }
    return only_members(rd, members);
}

/* 63 bits of the SHA-256 of the producer's flow id. */
static uint64_t flow_digest(const char *flow_id)
{
    char hex[65];
    sha256_hex(flow_id, hex);
    hex[16] = '\0';
    return strtoull(hex, NULL, 16) & 0x7fffffffffffffffULL;
}

static int decode_flow(struct reader *rd, struct tel_record *rec, struct tel_locator *loc)
{
    static const char *const members[] = {"flow_id", "time", "router", "src_ip", "dst_ip", "src_port",
                                          "dst_port", "protocol", "bytes", "packets", "sampling_rate",
                                          "src_as", "src_country", "app", "action", "policy_type", NULL};
    struct tel_flow *f = &rec->u.flow;
    char flow_id[TEL_ID_MAX + 1], action[8];
    struct cidr src;
    bool src_present;
    int64_t sport, dport, proto, rate;
    if (get_str(rd, "flow_id", true, 1, flow_id, sizeof flow_id) ||
        get_time(rd, "time", true, &f->time) || get_str(rd, "router", true, 1, f->router, sizeof f->router) ||
        get_addr(rd, "src_ip", true, false, &src, &src_present) ||
        get_addr(rd, "dst_ip", true, false, &loc->addr, &loc->has_addr) ||
        get_int(rd, "src_port", false, 0, 65535, 0, &sport) || get_int(rd, "dst_port", false, 0, 65535, 0, &dport) ||
        get_int(rd, "protocol", false, 0, 255, 0, &proto) ||
        get_int(rd, "bytes", true, 0, INT64_MAX / 1000000, 0, &f->bytes) ||
        get_int(rd, "packets", true, 0, INT64_MAX / 1000000, 0, &f->packets) ||
        get_int(rd, "sampling_rate", false, 1, 1000000, 1, &rate) ||
        get_int(rd, "src_as", false, 0, 4294967295LL, 0, &f->src_as) ||
        get_str(rd, "src_country", false, 0, f->country, sizeof f->country) ||
        get_str(rd, "app", false, 0, f->app, sizeof f->app) || get_str(rd, "action", false, 1, action, sizeof action) ||
        get_str(rd, "policy_type", false, 0, f->policy, sizeof f->policy))
        return -1;
    if (f->country[0] && (strlen(f->country) != 2 || f->country[0] < 'A' || f->country[0] > 'Z' ||
                          f->country[1] < 'A' || f->country[1] > 'Z'))
        return fail(rd, "src_country", "must be an ISO 3166 alpha-2 code in capitals");
    if (action[0] && strcmp(action, "pass") != 0 && strcmp(action, "drop") != 0)
        return fail(rd, "action", "must be pass or drop");
    f->fid = flow_digest(flow_id);
    f->action = strcmp(action, "drop") == 0;
    f->src_port = (int)sport;
    f->dst_port = (int)dport;
    f->protocol = (int)proto;
    f->bytes *= rate;
    f->packets *= rate;
    tel_addr_key(&src.addr, f->src);
    tel_addr_key(&loc->addr.addr, f->dst);
    return only_members(rd, members);
}

/* The WAF entry members of document 002 that are plain optional strings. */
static const char *const waf_text_members[] = {
    "action", "host", "http_method", "http_path", "http_x_forwarded_for_as", "http_x_forwarded_for_lat",
    "location", "match_content", "match_post", "pattern", "rule_id", "src_ip_city", NULL};

static int decode_waf_log(struct reader *rd, struct tel_record *rec, struct tel_locator *loc)
{
    static const char *const members[] = {
        "_id", "timestamp", "domain_port_id", "domain", "domain_id", "src_ip", "src_ip_cc", "attack_type",
        "severity", "action", "host", "http_method", "http_path", "http_x_forwarded_for_as",
        "http_x_forwarded_for_lat", "location", "match_content", "match_post", "pattern", "rule_id",
        "src_ip_city", NULL};
    struct tel_waf_log *w = &rec->u.waf;
    char severity[16], text[TEL_TEXT_MAX + 1];
    struct cidr src;
    bool present;
    if (get_id(rd, "_id", w->log_id, sizeof w->log_id) ||
        get_time(rd, "timestamp", true, &w->timestamp) ||
        get_str(rd, "domain_port_id", true, 1, loc->domain_port_id, sizeof loc->domain_port_id) ||
        get_str(rd, "domain", false, 0, loc->domain, sizeof loc->domain) ||
        get_str(rd, "domain_id", false, 0, loc->domain_id, sizeof loc->domain_id) ||
        get_addr(rd, "src_ip", true, false, &src, &present) ||
        get_str(rd, "src_ip_cc", false, 0, w->country, sizeof w->country) ||
        get_str(rd, "attack_type", true, 1, w->attack_type, sizeof w->attack_type) ||
        get_str(rd, "severity", false, 1, severity, sizeof severity))
        return -1;
    if (!tel_waf_attack_type(w->attack_type))
        return fail(rd, "attack_type", "must be a key of attack_type_summary (sqli, xss, ..., others)");
    w->severity = severity[0] ? tel_severity_parse(severity, TEL_SEV_HIGH) : TEL_SEV_LOW;
    if (w->severity < 0)
        return fail(rd, "severity", "must be one of low, medium, high");
    if (w->country[0] && (strlen(w->country) != 2 || w->country[0] < 'A' || w->country[0] > 'Z' ||
                          w->country[1] < 'A' || w->country[1] > 'Z'))
        return fail(rd, "src_ip_cc", "must be an ISO 3166 alpha-2 code in capitals");
    /* The entry as answered: every documented member, strings as sent. */
    json_t *entry = json_object();
    json_object_set_new(entry, "_id", json_string(w->log_id));
    json_object_set_new(entry, "timestamp", json_integer(w->timestamp));
    json_object_set_new(entry, "attack_type", json_string(w->attack_type));
    json_object_set_new(entry, "severity", json_string(tel_severity_name(w->severity)));
    ip_format(&src.addr, w->src_ip);
    json_object_set_new(entry, "src_ip", json_string(w->src_ip));
    json_object_set_new(entry, "src_ip_cc", json_string(w->country));
    for (const char *const *m = waf_text_members; *m; m++) {
        if (get_str(rd, *m, false, 0, text, sizeof text) != 0) {
            json_decref(entry);
            return -1;
        }
        json_object_set_new(entry, *m, json_string(text));
    }
    loc->waf_entry = entry;
    return only_members(rd, members);
}

static int decode_flow_down(struct reader *rd, struct tel_record *rec, struct tel_locator *loc)
{
    static const char *const members[] = {"alert_id", "router_name", "site_ip", "site_id", "start_time",
                                          "end_time", NULL};
    struct tel_flow_down *d = &rec->u.down;
    if (get_id(rd, "alert_id", d->alert_id, sizeof d->alert_id) ||
        get_str(rd, "router_name", true, 1, d->router_name, sizeof d->router_name) || get_site_id(rd, loc) ||
        get_addr(rd, "site_ip", !loc->site_id[0], true, &loc->addr, &loc->has_addr) ||
        get_time(rd, "start_time", true, &d->start_time) || get_time(rd, "end_time", false, &d->end_time))
        return -1;
    if (d->end_time && d->end_time < d->start_time)
        return fail(rd, "end_time", "must not be before start_time");
    return only_members(rd, members);
}

static int decode_bandwidth(struct reader *rd, struct tel_record *rec, struct tel_locator *loc)
{
    static const char *const members[] = {"site_id", "site_ip", "time", "node", "raw_in", "raw_out",
                                          "clean_in", "clean_out", NULL};
    struct tel_bandwidth *b = &rec->u.bw;
    int64_t t;
    if (get_site_id(rd, loc) ||
        get_addr(rd, "site_ip", !loc->site_id[0], false, &loc->addr, &loc->has_addr) ||
        get_time(rd, "time", true, &t) || get_str(rd, "node", false, 0, b->node, sizeof b->node) ||
        get_int(rd, "raw_in", true, 0, INT64_MAX / 4, 0, &b->raw_in) ||
        get_int(rd, "raw_out", true, 0, INT64_MAX / 4, 0, &b->raw_out) ||
        get_int(rd, "clean_in", true, 0, INT64_MAX / 4, 0, &b->clean_in) ||
        get_int(rd, "clean_out", true, 0, INT64_MAX / 4, 0, &b->clean_out))
        return -1;
    b->minute = t - t % 60;
    return only_members(rd, members);
}

static int decode(struct reader *rd, struct tel_record *rec, struct tel_locator *loc)
{
    memset(rec, 0, sizeof *rec);
    memset(loc, 0, sizeof *loc);
    if (!rd->fields && !json_is_object(rd->obj))
        return fail(rd, "record", "must be a JSON object");
    struct tel_field kind = member(rd, "kind");
    rd->seen = 0;
    if (kind.type == TEL_F_ABSENT)
        return fail(rd, "kind", "is required");
    char k[16] = "";
    if (kind.type == TEL_F_STRING && kind.len < sizeof k && !memchr(kind.str, '\0', kind.len)) {
        memcpy(k, kind.str, kind.len);
        k[kind.len] = '\0';
    }
    if (strcmp(k, "ddos_event") == 0)
        return rec->kind = TEL_DDOS_EVENT, decode_ddos_event(rd, rec, loc);
    if (strcmp(k, "flow") == 0)
        return rec->kind = TEL_FLOW, decode_flow(rd, rec, loc);
    if (strcmp(k, "waf_log") == 0)
        return rec->kind = TEL_WAF_LOG, decode_waf_log(rd, rec, loc);
    if (strcmp(k, "flow_down") == 0)
        return rec->kind = TEL_FLOW_DOWN, decode_flow_down(rd, rec, loc);
    if (strcmp(k, "bandwidth") == 0)
        return rec->kind = TEL_BANDWIDTH, decode_bandwidth(rd, rec, loc);
    return fail(rd, "kind", "must be one of ddos_event, flow, waf_log, flow_down, bandwidth");
}

int tel_record_decode(json_t *obj, int64_t now, struct tel_record *rec, struct tel_locator *loc, char *msg,
                      size_t msgsize)
{
    struct reader rd = {.obj = obj, .now = now, .msg = msg, .msgsize = msgsize};
    return decode(&rd, rec, loc);
}

int tel_record_decode_fields(const struct tel_fields *fields, int64_t now, struct tel_record *rec,
                             struct tel_locator *loc, char *msg, size_t msgsize)
{
    struct reader rd = {.fields = fields, .now = now, .msg = msg, .msgsize = msgsize};
    return decode(&rd, rec, loc);
}

void tel_record_clear(struct tel_record *rec)
{
    if (rec->kind == TEL_WAF_LOG) {
        free(rec->u.waf.entry);
        free(rec->u.waf.path);
        rec->u.waf.entry = rec->u.waf.path = NULL;
    }
}
