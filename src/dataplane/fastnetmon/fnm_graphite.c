/* fnm_graphite.c — see fnm_graphite.h. */
#include "dataplane/fastnetmon/fnm_graphite.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/record.h"

enum { MAX_SEGMENTS = 64, AHEAD_S = 120, BEHIND_S = 3600 };

struct fnm_host_minute {
    int64_t minute;
    char ip[48];
    bool v6;
    uint64_t sum[2];     /* FNM_PPS, FNM_BPS */
    uint64_t seconds[2]; /* bit s: a sample of second s of the minute */
    int last_second[2];
    uint64_t last_value[2];
};

/* A whole decimal, or one with a fraction (Graphite allows it; truncated). */
static int parse_uint(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (i == 0)
        return -1;
    if (i < len && s[i] == '.')
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
            ;
    if (i != len)
        return -1;
    *out = v;
    return 0;
}

/* a_b_c_d (or with dashes, or an IPv6 address with its colons so): 0 and
 * the canonical text, or -1. */
static int host_address(const char *s, size_t len, char *out, size_t out_size)
{
    char text[48];
    if (len == 0 || len >= sizeof text)
        return -1;
    unsigned char addr[16];
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < len; i++)
            text[i] = s[i] == '_' || s[i] == '-' ? (pass ? ':' : '.') : s[i];
        text[len] = '\0';
        int family = pass ? AF_INET6 : AF_INET;
        if (inet_pton(family, text, addr) == 1 && inet_ntop(family, addr, out, (socklen_t)out_size))
            return 0;
    }
    return -1;
}

static bool seg_is(const char *seg, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(seg, word, len) == 0;
}

int fnm_graphite_parse(const char *line, size_t len, struct fnm_line *out)
{
    memset(out, 0, sizeof *out);
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    const char *field[3];
    size_t flen[3], nf = 0, i = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == len)
            break;
        if (nf == 3)
            return -1;
        field[nf] = line + i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        flen[nf] = (size_t)(line + i - field[nf]);
        nf++;
    }
    uint64_t t;
    if (nf != 3 || parse_uint(field[1], flen[1], &out->value) != 0 ||
        parse_uint(field[2], flen[2], &t) != 0 || t == 0 || t > INT64_MAX)
        return -1;
    out->time = (int64_t)t;

    /* the name's segments, read from the right */
    const char *seg[MAX_SEGMENTS];
    size_t slen[MAX_SEGMENTS], n = 0;
    const char *p = field[0], *end = field[0] + flen[0];
    while (p <= end) {
        const char *dot = memchr(p, '.', (size_t)(end - p));
        if (n == MAX_SEGMENTS)
            return -1;
        seg[n] = p;
        slen[n++] = (size_t)((dot ? dot : end) - p);
        p = (dot ? dot : end) + 1;
    }
    if (n < 3)
        return -1;
    size_t k = n - 1;
    if (seg_is(seg[k], slen[k], "pps"))
        out->metric = FNM_PPS;
    else if (seg_is(seg[k], slen[k], "bps"))
        out->metric = FNM_BPS;
    else if (seg_is(seg[k], slen[k], "flows"))
        out->metric = FNM_FLOWS;
    else
        return -1;
    k--;
    if (seg_is(seg[k], slen[k], "average"))
        k--;
    bool in = seg_is(seg[k], slen[k], "incoming");
    bool dir = in || seg_is(seg[k], slen[k], "outgoing") || seg_is(seg[k], slen[k], "internal") ||
               seg_is(seg[k], slen[k], "other");
    if (!dir || k < 1)
        return -1;
    if (seg_is(seg[k - 1], slen[k - 1], "total"))
        return 0;
    if (k < 2)
        return -1;
    if (seg_is(seg[k - 2], slen[k - 2], "networks"))
        return 0;
    if (!seg_is(seg[k - 2], slen[k - 2], "hosts") ||
        host_address(seg[k - 1], slen[k - 1], out->ip, sizeof out->ip))
        return -1;
    out->host_incoming = in;
    return 0;
}

void fnm_graphite_init(struct fnm_graphite_agg *a, int grace_s)
{
    memset(a, 0, sizeof *a);
    a->grace_s = grace_s;
}

static size_t hash(int64_t minute, const char *ip)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)minute;
    for (; *ip; ip++)
        h = (h ^ (unsigned char)*ip) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 29));
}

static void reindex(struct fnm_graphite_agg *a)
{
    size_t cap = 64;
    while (cap < 2 * a->n + 2)
        cap *= 2;
    if (cap != a->index_cap) {
        free(a->index);
        a->index = malloc(cap * sizeof *a->index);
        if (!a->index)
            abort();
        a->index_cap = cap;
    }
    memset(a->index, 0xff, cap * sizeof *a->index);
    for (size_t i = 0; i < a->n; i++) {
        size_t slot = hash(a->h[i].minute, a->h[i].ip) & (cap - 1);
        while (a->index[slot] != SIZE_MAX)
            slot = (slot + 1) & (cap - 1);
        a->index[slot] = i;
    }
}

/* The host's entry of the minute, made when new (NULL: too many). */
static struct fnm_host_minute *host_minute(struct fnm_graphite_agg *a, int64_t minute, const char *ip)
{
    if (a->index_cap) {
        size_t slot = hash(minute, ip) & (a->index_cap - 1);
        for (; a->index[slot] != SIZE_MAX; slot = (slot + 1) & (a->index_cap - 1)) {
            struct fnm_host_minute *h = &a->h[a->index[slot]];
            if (h->minute == minute && strcmp(h->ip, ip) == 0)
                return h;
        }
    }
    if (a->n >= FNM_GRAPHITE_MAX_HOSTS)
        return NULL;
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 256;
        a->h = realloc(a->h, a->cap * sizeof *a->h);
        if (!a->h)
            abort();
    }
    struct fnm_host_minute *h = &a->h[a->n++];
    memset(h, 0, sizeof *h);
    h->minute = minute;
    snprintf(h->ip, sizeof h->ip, "%s", ip);
    h->v6 = strchr(ip, ':') != NULL;
    h->last_second[0] = h->last_second[1] = -1;
    if (2 * a->n + 2 > a->index_cap)
        reindex(a);
    else {
        size_t slot = hash(minute, ip) & (a->index_cap - 1);
        while (a->index[slot] != SIZE_MAX)
            slot = (slot + 1) & (a->index_cap - 1);
        a->index[slot] = a->n - 1;
    }
    return h;
}

static uint64_t *push_seconds(struct fnm_graphite_agg *a, int64_t minute)
{
    size_t n = sizeof a->pushes / sizeof *a->pushes, free_slot = n, oldest = 0;
    for (size_t i = 0; i < n; i++) {
        if (a->pushes[i].minute == minute)
            return &a->pushes[i].seconds;
        if (!a->pushes[i].minute && free_slot == n)
            free_slot = i;
        if (a->pushes[i].minute < a->pushes[oldest].minute)
            oldest = i;
    }
    /* more open minutes than slots only when the clock jumps: reuse the oldest */
    size_t i = free_slot < n ? free_slot : oldest;
    a->pushes[i].minute = minute;
    a->pushes[i].seconds = 0;
    return &a->pushes[i].seconds;
}

void fnm_graphite_add(struct fnm_graphite_agg *a, const char *line, size_t len, int64_t now)
{
    struct fnm_line l;
    a->stats.lines++;
    if (fnm_graphite_parse(line, len, &l) != 0) {
        a->stats.malformed++;
        return;
    }
    int64_t minute = l.time - l.time % 60;
    if (minute < a->complete_before || l.time > now + AHEAD_S || l.time < now - BEHIND_S) {
        a->stats.late++;
        return;
    }
    /* FastNetMon stamps its pushes in time order: a line grace_s into a
     * later minute ends the earlier ones (the grace covers connections of
     * one push read out of order) */
    int64_t ended = l.time - a->grace_s;
    ended -= ended % 60;
    if (ended > a->complete_before)
        a->complete_before = ended;
    int second = (int)(l.time - minute);
    *push_seconds(a, minute) |= 1ULL << second;
    if (!l.host_incoming || l.metric == FNM_FLOWS) {
        a->stats.ignored++;
        return;
    }
    struct fnm_host_minute *h = host_minute(a, minute, l.ip);
    if (!h) {
        a->stats.full++;
        return;
    }
    a->stats.used++;
    int m = l.metric == FNM_PPS ? 0 : 1;
    if (h->seconds[m] & (1ULL << second)) {
        /* the same sample again (one per network of the push): the last one counts */
        if (h->last_second[m] == second) {
            h->sum[m] = h->sum[m] - h->last_value[m] + l.value;
            h->last_value[m] = l.value;
        }
        return;
    }
    h->seconds[m] |= 1ULL << second;
    h->sum[m] += l.value;
    h->last_second[m] = second;
    h->last_value[m] = l.value;
}

/* sum × 60 / (div × pushes), rounded to the nearest */
static uint64_t per_minute(uint64_t sum, unsigned div, unsigned pushes)
{
    unsigned __int128 d = (unsigned __int128)div * pushes;
    unsigned __int128 v = ((unsigned __int128)sum * 60 + d / 2) / d;
    return v > INT64_MAX ? INT64_MAX : (uint64_t)v;
}

size_t fnm_graphite_take(struct fnm_graphite_agg *a, int64_t now, json_t *records, json_t *ips)
{
    int64_t by_clock = now - 60 - a->grace_s;
    by_clock = by_clock - by_clock % 60 + 60; /* minutes before it ended grace_s ago */
    if (by_clock > a->complete_before)
        a->complete_before = by_clock;
    size_t taken = 0, kept = 0;
    for (size_t i = 0; i < a->n; i++) {
        struct fnm_host_minute *h = &a->h[i];
        if (h->minute >= a->complete_before) {
            a->h[kept++] = *h;
            continue;
        }
        unsigned pushes = 0;
        for (size_t p = 0; p < sizeof a->pushes / sizeof *a->pushes; p++)
            if (a->pushes[p].minute == h->minute)
                pushes = (unsigned)__builtin_popcountll(a->pushes[p].seconds);
        unsigned own = (unsigned)__builtin_popcountll(h->seconds[0] | h->seconds[1]);
        if (pushes < own)
            pushes = own;
        uint64_t bytes = per_minute(h->sum[1], 8, pushes), packets = per_minute(h->sum[0], 1, pushes);
        if (!bytes && !packets)
            continue;
        char text[400];
        snprintf(text, sizeof text,
                 "{\"kind\":\"flow\",\"flow_id\":\"fnm-%s-%lld\",\"time\":%lld,\"router\":\"fastnetmon\","
                 "\"src_ip\":\"%s\",\"dst_ip\":\"%s\",\"protocol\":0,\"bytes\":%llu,\"packets\":%llu,"
                 "\"action\":\"pass\",\"policy_type\":\"" TEL_POLICY_OBSERVED "\"}", /* not a verdict */
                 h->ip, (long long)h->minute, (long long)h->minute, h->v6 ? "::" : "0.0.0.0", h->ip,
                 (unsigned long long)bytes, (unsigned long long)packets);
        json_array_append_new(records, json_string(text));
        if (ips)
            json_array_append_new(ips, json_string(h->ip));
        taken++;
    }
    a->n = kept;
    reindex(a);
    for (size_t i = 0; i < sizeof a->pushes / sizeof *a->pushes; i++)
        if (a->pushes[i].minute && a->pushes[i].minute < a->complete_before)
            a->pushes[i].minute = 0;
    a->stats.records += (long)taken;
    return taken;
}

void fnm_graphite_free(struct fnm_graphite_agg *a)
{
    free(a->h);
    free(a->index);
    memset(a, 0, sizeof *a);
}
