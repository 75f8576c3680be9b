/* simulate.c — the telemetry generator (simulate.h). */
#include "telemetry/simulate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- randomness: splitmix64, seeded per (seed, site, time, purpose) ---- */

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct rng {
    uint64_t s;
};

static uint64_t next(struct rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return mix64(r->s);
}

static double unit(struct rng *r) /* [0, 1) */
{
    return (double)(next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static uint64_t below(struct rng *r, uint64_t n)
{
    return n ? next(r) % n : 0;
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ULL;
    return h;
}

static struct rng rng_for(uint64_t seed, uint64_t site, int64_t t, uint64_t purpose)
{
    struct rng r = {mix64(seed ^ mix64(site ^ mix64((uint64_t)t ^ mix64(purpose))))};
    return r;
}

/* A Poisson-ish count with this mean: floor plus a Bernoulli remainder. */
static long draw_count(struct rng *r, double mean)
{
    if (mean <= 0)
        return 0;
    long n = (long)mean;
    return n + (unit(r) < mean - (double)n);
}

/* ---- the world: sources, services, attacks, WAF rules ---- */

struct source {
    const char *cc;
    unsigned as;
    uint8_t a, b; /* a.b.0.0/16 the source addresses come from */
};
static const struct source SOURCES[] = {
    {"US", 7922, 73, 0},  {"US", 15169, 35, 190}, {"DE", 3320, 79, 192},  {"NL", 1136, 77, 160},
    {"GB", 2856, 86, 128}, {"FR", 3215, 90, 0},   {"JP", 4713, 153, 128}, {"BR", 28573, 177, 32},
    {"CN", 4134, 58, 32},  {"RU", 12389, 95, 24}, {"IN", 9829, 117, 192}, {"KR", 4766, 121, 128},
    {"VN", 7552, 113, 160}, {"SG", 4773, 118, 200}, {"AU", 1221, 101, 160}, {"CA", 812, 99, 224},
};
enum { N_SOURCES = sizeof SOURCES / sizeof SOURCES[0] };

struct service {
    const char *app;
    int proto, port;
    unsigned weight, pkt_size;
};
static const struct service SERVICES[] = {
    {"https", 6, 443, 55, 1100}, {"http", 6, 80, 15, 900}, {"quic", 17, 443, 12, 1200},
    {"dns", 17, 53, 8, 120},     {"ssh", 6, 22, 3, 300},   {"smtp", 6, 25, 3, 700},
    {"ntp", 17, 123, 2, 90},     {"icmp", 1, 0, 2, 84},
};
enum { N_SERVICES = sizeof SERVICES / sizeof SERVICES[0] };

struct attack_kind {
    const char *type, *app, *policy;
    int proto, src_port, dst_port;
    unsigned pkt_size;
};
static const struct attack_kind ATTACKS[] = {
    {"UDP Fragmentation", "udp", "udp_flood", 17, 0, 0, 1480},
    {"DNS Amplification", "dns", "udp_flood", 17, 53, 0, 1400},
    {"NTP Amplification", "ntp", "udp_flood", 17, 123, 0, 468},
    {"SSDP Amplification", "ssdp", "udp_flood", 17, 1900, 0, 320},
    {"CLDAP Reflection", "cldap", "udp_flood", 17, 389, 0, 1300},
    {"TCP SYN", "tcp", "zombie", 6, 0, 443, 60},
    {"TCP ACK", "tcp", "flex_filter", 6, 0, 80, 60},
    {"ICMP Total", "icmp", "block_list", 1, 0, 0, 1000},
    {"IP Bogons", "ip", "bogon", 17, 0, 0, 512},
    {"HTTP Flood", "http", "zombie", 6, 0, 80, 700},
};
enum { N_ATTACKS = sizeof ATTACKS / sizeof ATTACKS[0] };

/* OWASP Core Rule Set 3.3 rules (ids and msg texts of the rule files under
 * /usr/share/modsecurity-crs/rules/) with a sample of what they match. */
struct waf_rule {
    const char *id, *msg, *attack_type, *severity, *location, *content, *path;
};
static const struct waf_rule WAF_RULES[] = {
    {"942100", "SQL Injection Attack Detected via libinjection", "sqli", "high", "ARGS:id", "1' or '1'='1",
     "/product"},
    {"942190", "Detects MSSQL code execution and information gathering attempts", "sqli", "high", "ARGS:q",
     "1 union select @@version--", "/search"},
    {"941100", "XSS Attack Detected via libinjection", "xss", "high", "ARGS:comment",
     "<script>alert(1)</script>", "/comment"},
    {"941110", "XSS Filter - Category 1: Script Tag Vector", "xss", "medium", "ARGS:name",
     "<script src=//x.example/a.js>", "/profile"},
    {"930100", "Path Traversal Attack (/../)", "path_traversal", "high", "REQUEST_URI", "/../../etc/passwd",
     "/static"},
    {"932100", "Remote Command Execution: Unix Command Injection", "oscmd", "high", "ARGS:host",
     ";cat /etc/passwd", "/ping"},
    {"932160", "Remote Command Execution: Unix Shell Code Found", "oscmd", "high", "ARGS:cmd", "/bin/sh -c id",
     "/cgi-bin/run"},
    {"913100", "Found User-Agent associated with security scanner", "webscanner", "medium",
     "REQUEST_HEADERS:User-Agent", "sqlmap/1.5", "/"},
    {"913101", "Found User-Agent associated with scripting/generic HTTP client", "webscanner", "low",
     "REQUEST_HEADERS:User-Agent", "python-requests/2.25", "/api"},
    {"933100", "PHP Injection Attack: PHP Open Tag Found", "phpcode_injection", "high", "ARGS:data",
     "<?php system($_GET[c]); ?>", "/upload"},
    {"933160", "PHP Injection Attack: High-Risk PHP Function Call Found", "phpcode_injection", "high",
     "ARGS:f", "phpinfo()", "/index.php"},
};
enum { N_WAF_RULES = sizeof WAF_RULES / sizeof WAF_RULES[0] };
static const char *const METHODS[] = {"GET", "GET", "GET", "POST"};

/* A record id: the seed, the site, a letter for the record's origin, the
 * minute and a sequence number in it: the same on every run. */
enum { ID_MAX = 96 };
static void make_id(char out[ID_MAX], uint64_t seed, uint64_t site, char what, int64_t t, long seq)
{
    snprintf(out, ID_MAX, "sim%08llx-%010llx-%c%lld-%ld", (unsigned long long)(seed & 0xffffffffULL),
             (unsigned long long)(site & 0xffffffffffULL), what, (long long)t, seq);
}

/* ---- output ---- */

struct out {
    sim_sink sink;
    void *arg;
    int rc;
    uint64_t tag; /* of the seed, in every id */
    struct sim_counts *counts;
    char line[4096];
};

static void emit(struct out *o, int len)
{
    if (!o->rc && len > 0 && (size_t)len < sizeof o->line)
        o->rc = o->sink(o->arg, o->line, (size_t)len);
}

/* A random address inside the block (v6: within its lowest 64 bits). */
static void addr_in(struct rng *r, const struct cidr *c, char out[NET_TEXT_MAX])
{
    struct ip_addr a = c->addr;
    int bits = (a.family == NET_V4 ? 32 : 128) - c->prefix;
    if (bits > 62)
        bits = 62;
    uint64_t off = bits > 0 ? below(r, (uint64_t)1 << bits) : 0;
    if (bits >= 2 && a.family == NET_V4 && (off == 0 || off == ((uint64_t)1 << bits) - 1))
        off = 1; /* neither network nor broadcast address */
    int last = a.family == NET_V4 ? 3 : 15;
    uint64_t carry = 0;
    for (int i = last; i >= 0 && (off || carry); i--) {
        uint64_t v = a.b[i] + (off & 0xff) + carry;
        a.b[i] = (uint8_t)v;
        carry = v >> 8;
        off >>= 8;
    }
    ip_format(&a, out);
}

static void src_addr(struct rng *r, const struct source *s, char out[NET_TEXT_MAX])
{
    snprintf(out, NET_TEXT_MAX, "%u.%u.%u.%u", s->a, s->b, (unsigned)below(r, 256), 1 + (unsigned)below(r, 254));
}

static double diurnal(int64_t t, struct rng *r)
{
    double hour = (double)(t % 86400) / 3600.0; /* UTC */
    double d = 1.0 + 0.6 * sin(2 * M_PI * (hour - 9.0) / 24.0);
    return d * (0.85 + 0.3 * unit(r));
}

static const struct service *pick_service(struct rng *r)
{
    unsigned total = 0;
    for (int i = 0; i < N_SERVICES; i++)
        total += SERVICES[i].weight;
    unsigned x = (unsigned)below(r, total);
    for (int i = 0; i < N_SERVICES; i++) {
        if (x < SERVICES[i].weight)
            return &SERVICES[i];
        x -= SERVICES[i].weight;
    }
    return &SERVICES[0];
}

static int flow_line(struct out *o, const char *id, int64_t t, const char *router, const char *src,
                     const char *dst, int sport, int dport, int proto, uint64_t bytes, uint64_t pkts,
                     const struct source *s, const char *app, const char *action, const char *policy)
{
    int n = snprintf(o->line, sizeof o->line,
                     "{\"kind\":\"flow\",\"flow_id\":\"%s\",\"time\":%lld,\"router\":\"%s\",\"src_ip\":\"%s\","
                     "\"dst_ip\":\"%s\",\"src_port\":%d,\"dst_port\":%d,\"protocol\":%d,\"bytes\":%llu,"
                     "\"packets\":%llu,\"sampling_rate\":1,\"src_as\":%u,\"src_country\":\"%s\",\"app\":\"%s\","
                     "\"action\":\"%s\"",
                     id, (long long)t, router, src, dst, sport, dport, proto, (unsigned long long)bytes,
                     (unsigned long long)pkts, s->as, s->cc, app, action);
    if (policy && n > 0 && (size_t)n < sizeof o->line)
        n += snprintf(o->line + n, sizeof o->line - (size_t)n, ",\"policy_type\":\"%s\"", policy);
    if (n > 0 && (size_t)n + 1 < sizeof o->line)
        o->line[n++] = '}';
    return n;
}

/* ---- attacks ---- */

enum { MAX_ATTACK_MIN = 180 }; /* longer than any attack: 10 + 104 + 22 minutes */

struct attack {
    const struct sim_site *site;
    uint64_t site_h;
    int kind;             /* index into ATTACKS, or -1/-2: AP application/mixed */
    int64_t start;        /* unix time, on a minute */
    int ramp, plateau, decay; /* minutes */
    double peak;          /* flows per minute at the plateau (AP: extra bits/s) */
    uint64_t flow_bytes;  /* bytes of one attack flow at the plateau */
    double drop;          /* share of the flows dropped */
    char target[NET_TEXT_MAX];
    char alert_id[ID_MAX];
    double max_bps, max_pps;
    const char *severity;
    int done;
};

static int64_t attack_end(const struct attack *a)
{
    return a->start + 60LL * (a->ramp + a->plateau + a->decay);
}

/* The envelope at minute m of the attack: ramp up, plateau, decay. */
static double envelope(const struct attack *a, int64_t t)
{
    double m = (double)(t - a->start) / 60.0;
    if (m < a->ramp)
        return (m + 1) / (a->ramp + 1);
    m -= a->ramp;
    if (m < a->plateau)
        return 1.0;
    m -= a->plateau;
    return m < a->decay ? 1.0 - (m + 1) / (a->decay + 1) : 0.0;
}

/* Whether an attack on this site starts in the hour beginning at h; fills a. */
static int plan_attack(const struct sim_params *p, const struct sim_site *s, uint64_t sh, int64_t h,
                       double flows_per_min, struct attack *a)
{
    struct rng r = rng_for(p->seed, sh, h, 1);
    if (unit(&r) >= 1.0 / 30) /* about 0.8 attacks a day per site */
        return 0;
    memset(a, 0, sizeof *a);
    a->site = s;
    a->site_h = sh;
    a->start = h + 60 * (int64_t)below(&r, 60);
    a->ramp = 2 + (int)below(&r, 9);
    a->plateau = 5 + (int)below(&r, 100);
    a->decay = 3 + (int)below(&r, 20);
    a->drop = 0.5 + 0.45 * unit(&r);
    addr_in(&r, &s->blocks[below(&r, s->n_blocks)], a->target);
    static const char *const sev[] = {"low", "medium", "high", "high"};
    a->severity = sev[below(&r, 4)];
    if (s->family == SIM_AP) {
        a->kind = unit(&r) < 0.7 ? -1 : -2;
        a->peak = 2e8 + 3e9 * unit(&r);
    } else {
        a->kind = (int)below(&r, N_ATTACKS);
        a->peak = 2 + flows_per_min * (0.5 + 2.5 * unit(&r)); /* attack flows: a few times the site's own */
        a->flow_bytes = (uint64_t)(5e8 + 4e9 * unit(&r));
    }
    make_id(a->alert_id, p->seed, sh, 'a', a->start, 0);
    return 1;
}

static void attack_flows(struct out *o, const struct sim_params *p, struct attack *a, int64_t t)
{
    double env = envelope(a, t);
    const struct attack_kind *k = &ATTACKS[a->kind];
    /* attacks of one site may overlap: each draws and names its own flows */
    struct rng r = rng_for(p->seed, a->site_h, t, 2 ^ ((uint64_t)a->start << 8));
    long n = draw_count(&r, a->peak * env);
    if (n < 1)
        n = 1;
    uint64_t sum_bytes = 0, sum_pkts = 0;
    for (long i = 0; i < n; i++) {
        const struct source *s = &SOURCES[below(&r, N_SOURCES)];
        char src[NET_TEXT_MAX], id[ID_MAX];
        src_addr(&r, s, src);
        uint64_t bytes = (uint64_t)((double)a->flow_bytes * env * (0.8 + 0.4 * unit(&r)) / (double)a->peak * 10);
        uint64_t pkts = bytes / k->pkt_size + 1;
        bytes = pkts * k->pkt_size;
        sum_bytes += bytes;
        sum_pkts += pkts;
        int drop = unit(&r) < a->drop;
        snprintf(id, sizeof id, "sim%08llx-%010llx-x%lld-%lld.%ld", (unsigned long long)(p->seed & 0xffffffffULL),
                 (unsigned long long)(a->site_h & 0xffffffffffULL), (long long)t, (long long)a->start, i);
        int sport = k->src_port ? k->src_port : 1024 + (int)below(&r, 64511);
        int dport = k->dst_port ? k->dst_port : (int)below(&r, 65536);
        if (k->proto == 1) /* ICMP: no ports */
            sport = dport = 0;
        emit(o, flow_line(o, id, t + (int64_t)below(&r, 60), "edge-1", src, a->target, sport, dport, k->proto,
                          bytes, pkts, s, k->app, drop ? "drop" : "pass", drop ? k->policy : NULL));
        o->counts->flow++;
    }
    double bps = (double)sum_bytes * 8 / 60, pps = (double)sum_pkts / 60;
    if (bps > a->max_bps)
        a->max_bps = bps;
    if (pps > a->max_pps)
        a->max_pps = pps;
}

static void attack_event(struct out *o, const struct attack *a, int ongoing)
{
    const char *type = a->kind >= 0 ? ATTACKS[a->kind].type : a->kind == -1 ? "application" : "mixed";
    char end[24];
    if (ongoing)
        snprintf(end, sizeof end, "null");
    else
        snprintf(end, sizeof end, "%lld", (long long)attack_end(a));
    emit(o, snprintf(o->line, sizeof o->line,
                     "{\"kind\":\"ddos_event\",\"alert_id\":\"%s\",\"attack_type\":\"%s\",\"site_ip\":\"%s\","
                     "\"site_id\":\"%s\",\"start_time\":%lld,\"end_time\":%s,\"max_bps\":%.0f,\"max_pps\":%.0f,"
                     "\"severity\":\"%s\",\"profile_name\":\"default\",\"profile_desc\":\"site default profile\"}",
                     a->alert_id, type, a->target, a->site->id, (long long)a->start, end, floor(a->max_bps),
                     floor(a->max_pps), a->severity));
    o->counts->ddos_event++;
}

/* ---- per minute, per site ---- */

static void normal_flows(struct out *o, const struct sim_params *p, const struct sim_site *s, uint64_t sh,
                         int64_t t, double mean)
{
    struct rng r = rng_for(p->seed, sh, t, 3);
    long n = draw_count(&r, mean * diurnal(t, &r));
    for (long i = 0; i < n; i++) {
        const struct source *src = &SOURCES[below(&r, N_SOURCES)];
        const struct service *sv = pick_service(&r);
        char sip[NET_TEXT_MAX], dip[NET_TEXT_MAX], id[ID_MAX];
        src_addr(&r, src, sip);
        addr_in(&r, &s->blocks[below(&r, s->n_blocks)], dip);
        uint64_t pkts = 1 + below(&r, 2000);
        uint64_t bytes = pkts * (sv->pkt_size / 2 + below(&r, sv->pkt_size));
        int blocked = unit(&r) < 0.01;
        make_id(id, p->seed, sh, 'f', t, i);
        emit(o, flow_line(o, id, t + (int64_t)below(&r, 60), i % 2 ? "edge-2" : "edge-1", sip, dip,
                          sv->proto == 1 ? 0 : 1024 + (int)below(&r, 64511), sv->port, sv->proto, bytes, pkts, src,
                          sv->app, blocked ? "drop" : "pass", blocked ? "block_list" : NULL));
        o->counts->flow++;
    }
}

static void flow_down(struct out *o, const struct sim_params *p, const struct sim_site *s, uint64_t sh, int64_t t,
                      int64_t window_end)
{
    struct rng r = rng_for(p->seed, sh, t, 4);
    if (unit(&r) >= 1.0 / 2880) /* about one every other day per site */
        return;
    char block[NET_TEXT_MAX], end[24], id[ID_MAX];
    make_id(id, p->seed, sh, 'd', t, 0);
    cidr_format(&s->blocks[below(&r, s->n_blocks)], block);
    int64_t e = t + 60 * (5 + (int64_t)below(&r, 55));
    if (e > window_end)
        snprintf(end, sizeof end, "null");
    else
        snprintf(end, sizeof end, "%lld", (long long)e);
    emit(o, snprintf(o->line, sizeof o->line,
                     "{\"kind\":\"flow_down\",\"alert_id\":\"%s\",\"router_name\":\"edge-%d\","
                     "\"site_ip\":\"%s\",\"site_id\":\"%s\",\"start_time\":%lld,\"end_time\":%s}",
                     id, 1 + (int)below(&r, 2), block, s->id, (long long)t, end));
    o->counts->flow_down++;
}

static void bandwidth(struct out *o, const struct sim_params *p, const struct sim_site *s, uint64_t sh, int64_t t,
                      double attack_bps)
{
    struct rng r = rng_for(p->seed, sh, t, 5);
    double base = 2e7 + 8e7 * (double)(sh % 16) / 16; /* each site its own size */
    double d = diurnal(t, &r);
    double clean_in = base * d, clean_out = clean_in * (3 + unit(&r));
    double raw_in = clean_in * (1.0 + 0.05 * unit(&r)) + attack_bps, raw_out = clean_out;
    emit(o, snprintf(o->line, sizeof o->line,
                     "{\"kind\":\"bandwidth\",\"site_id\":\"%s\",\"time\":%lld,\"node\":\"edge-1\",\"raw_in\":%.0f,"
                     "\"raw_out\":%.0f,\"clean_in\":%.0f,\"clean_out\":%.0f}",
                     s->id, (long long)t, floor(raw_in), floor(raw_out), floor(clean_in), floor(clean_out)));
    o->counts->bandwidth++;
}

/* WAF bursts: an hour holds at most one, of 1–15 minutes, beginning in its
 * first 45 minutes; `per_hour` is the mean number of entries a site gets in
 * an hour. */
static void waf_minute(struct out *o, const struct sim_params *p, const struct sim_site *s, uint64_t sh, int64_t t,
                       double per_hour)
{
    if (!s->n_ports || per_hour <= 0)
        return;
    int64_t h = t - t % 3600;
    struct rng hr = rng_for(p->seed, sh, h, 6);
    const double p_burst = 0.4;
    if (unit(&hr) >= p_burst)
        return;
    int64_t start = h + 60 * (int64_t)below(&hr, 45);
    int len = 1 + (int)below(&hr, 15);
    if (t < start || t >= start + 60LL * len)
        return;
    const struct sim_port *port = &s->ports[below(&hr, s->n_ports)];
    const struct source *src = &SOURCES[below(&hr, N_SOURCES)];
    char sip[NET_TEXT_MAX];
    src_addr(&hr, src, sip);
    const struct waf_rule *main_rule = &WAF_RULES[below(&hr, N_WAF_RULES)];
    struct rng r = rng_for(p->seed, sh, t, 7);
    long n = draw_count(&r, per_hour / p_burst / len * (0.5 + unit(&r)));
    for (long i = 0; i < n; i++) {
        const struct waf_rule *w = unit(&r) < 0.7 ? main_rule : &WAF_RULES[below(&r, N_WAF_RULES)];
        int64_t ts = t + (int64_t)below(&r, 60);
        char id[ID_MAX];
        make_id(id, p->seed, sh, 'w', t, i);
        emit(o, snprintf(o->line, sizeof o->line,
                         "{\"kind\":\"waf_log\",\"_id\":\"%s\",\"timestamp\":%lld,"
                         "\"domain_port_id\":\"%s\",\"src_ip\":\"%s\",\"src_ip_cc\":\"%s\",\"src_ip_city\":\"\","
                         "\"action\":\"%s\",\"attack_type\":\"%s\",\"rule_id\":\"%s\",\"severity\":\"%s\","
                         "\"http_method\":\"%s\",\"http_path\":\"%s\",\"host\":\"%s\",\"match_content\":\"%s\","
                         "\"match_post\":\"\",\"pattern\":\"%s\",\"location\":\"%s\","
                         "\"http_x_forwarded_for_as\":\"\",\"http_x_forwarded_for_lat\":\"\"}",
                         id, (long long)ts, port->id, sip, src->cc, unit(&r) < 0.9 ? "block" : "log",
                         w->attack_type, w->id, w->severity, METHODS[below(&r, 4)], w->path, port->host,
                         w->content, w->msg, w->location));
        o->counts->waf_log++;
    }
}

/* ---- the run ---- */

int sim_generate(const struct sim_site *sites, size_t n, const struct sim_params *p, sim_sink sink, void *arg,
                 struct sim_counts *counts)
{
    struct out *o = calloc(1, sizeof *o); /* its line buffer is big for a thread's stack */
    struct attack *attacks = NULL;
    if (!o)
        return -1;
    struct sim_counts local = {0};
    o->sink = sink;
    o->arg = arg;
    o->counts = counts ? counts : &local;
    memset(o->counts, 0, sizeof *o->counts);

    int64_t end = p->end - p->end % 60, begin = end - (int64_t)p->days * 86400;
    size_t n_flow_sites = 0, n_ap = 0;
    for (size_t i = 0; i < n; i++) {
        n_flow_sites += sites[i].n_blocks > 0;
        n_ap += sites[i].family == SIM_AP && sites[i].n_ports > 0;
    }
    double flows_per_min = n_flow_sites ? p->rate * 60 / (double)n_flow_sites : 0;
    double waf_per_hour = n_ap ? p->waf_rate * 3600 / (double)n_ap : 0;

    /* The attacks touching the window, started up to MAX_ATTACK_MIN before it. */
    size_t n_attacks = 0, cap = 0;
    for (size_t i = 0; i < n && !o->rc; i++) {
        if (!sites[i].n_blocks)
            continue;
        uint64_t sh = str_hash(sites[i].id);
        int64_t h0 = begin - begin % 3600 - 3600LL * (MAX_ATTACK_MIN / 60 + 1);
        for (int64_t h = h0; h < end; h += 3600) {
            struct attack a;
            if (!plan_attack(p, &sites[i], sh, h, flows_per_min, &a) || attack_end(&a) <= begin || a.start >= end)
                continue;
            if (n_attacks == cap) {
                struct attack *na = realloc(attacks, (cap = cap ? 2 * cap : 64) * sizeof *na);
                if (!na) {
                    o->rc = -1;
                    break;
                }
                attacks = na;
            }
            attacks[n_attacks++] = a;
        }
    }

    for (int64_t t = begin; t < end && !o->rc; t += 60) {
        for (size_t i = 0; i < n; i++) {
            const struct sim_site *s = &sites[i];
            if (!s->n_blocks)
                continue;
            uint64_t sh = str_hash(s->id);
            normal_flows(o, p, s, sh, t, flows_per_min);
            if (s->family == SIM_AP)
                waf_minute(o, p, s, sh, t, waf_per_hour);
            else
                flow_down(o, p, s, sh, t, end);
        }
        for (size_t k = 0; k < n_attacks; k++) {
            struct attack *a = &attacks[k];
            if (t < a->start || t >= attack_end(a))
                continue;
            if (a->kind >= 0) {
                attack_flows(o, p, a, t);
            } else {
                double bps = a->peak * envelope(a, t);
                if (bps > a->max_bps)
                    a->max_bps = bps, a->max_pps = bps / 8 / 700;
            }
            if (t + 60 >= attack_end(a)) {
                attack_event(o, a, 0);
                a->done = 1;
            }
        }
        for (size_t i = 0; i < n; i++) {
            const struct sim_site *s = &sites[i];
            if (s->family != SIM_AP || !s->n_blocks)
                continue;
            double extra = 0;
            for (size_t k = 0; k < n_attacks; k++)
                if (attacks[k].site == s && attacks[k].kind < 0 && t >= attacks[k].start && t < attack_end(&attacks[k]))
                    extra += attacks[k].peak * envelope(&attacks[k], t);
            bandwidth(o, p, s, str_hash(s->id), t, extra);
        }
    }
    for (size_t k = 0; k < n_attacks && !o->rc; k++)
        if (!attacks[k].done && attacks[k].start < end && attacks[k].max_bps > 0)
            attack_event(o, &attacks[k], 1);
    int rc = o->rc;
    free(o);
    free(attacks);
    return rc;
}
