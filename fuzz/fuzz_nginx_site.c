/* fuzz_nginx_site.c — nginx_site_render on a site whose stored values are
 * arbitrary bytes (as if they had reached the store some other way than
 * through the API): its name, backend addresses or host names and resolver,
 * VIP, two domain names and a custom error page URL. Input: a flag byte,
 * then NUL-separated values for those slots.
 *
 * Invariants: a refusal says why; otherwise the rendered text, read with
 * nginx's own token rules (whitespace, `;`, `{`, `}`, `#` comments to the
 * end of the line, quoted strings with backslash escapes), has exactly the
 * tokens of the same site rendered with two sets of harmless values: the
 * same number, the same kinds, the same text wherever the two harmless
 * renderings agree (every directive name, every `;`, `{`, `}` and every
 * value parapet writes itself), and where they differ (a tenant's value)
 * no more `$` (an nginx variable) than the harmless value had. So no value
 * can end a string, a token, a directive, a block or a comment line, nor
 * reach nginx as a variable. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/nginx/nginx_render.h"
#include "fuzz_assert.h"

enum { SLOTS = 8, MAX_TOKENS = 4096 };

enum kind { WORD, QUOTED, SEMI, OPEN, CLOSE };

struct token {
    enum kind kind;
    const char *start;
    size_t len;
    size_t dollars;
};

/* nginx's reading of a configuration (ngx_conf_read_token, simplified to
 * what parapet writes): the tokens, or -1 when a quoted string is left open. */
static long tokenize(const char *s, struct token *out, size_t max)
{
    size_t n = 0;
    while (*s) {
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
            s++;
            continue;
        }
        if (*s == '#') {
            while (*s && *s != '\n')
                s++;
            continue;
        }
        FUZZ_ASSERT(n < max);
        struct token *t = &out[n++];
        t->start = s;
        t->dollars = 0;
        if (*s == ';' || *s == '{' || *s == '}') {
            t->kind = *s == ';' ? SEMI : *s == '{' ? OPEN : CLOSE;
            t->len = 1;
            s++;
            continue;
        }
        if (*s == '"' || *s == '\'') {
            char q = *s++;
            t->kind = QUOTED;
            while (*s && *s != q) {
                if (*s == '\\' && s[1])
                    s++;
                else if (*s == '$')
                    t->dollars++;
                s++;
            }
            if (!*s)
                return -1;
            s++;
            t->len = (size_t)(s - t->start);
            continue;
        }
        t->kind = WORD;
        while (*s && !strchr(" \t\r\n;{}", *s)) {
            if (*s == '\\' && s[1])
                s++;
            else if (*s == '$')
                t->dollars++;
            s++;
        }
        t->len = (size_t)(s - t->start);
    }
    return (long)n;
}

static json_t *strings(json_t *a, json_t *b)
{
    json_t *list = json_array();
    json_array_append(list, a);
    if (b)
        json_array_append(list, b);
    return list;
}

/* The site, with the values of the slots. */
static json_t *site_of(json_t *const v[SLOTS], bool by_host, bool two_domains)
{
    json_t *doc = json_pack("{s:i,s:o,s:{s:i,s:i,s:i}}", "backend_type", by_host ? 1 : 0, "vip", strings(v[4], NULL),
                            "switch", "appshield", 1, "waf", 0, "cache", 0);
    if (by_host) {
        json_object_set_new(doc, "backend_host", strings(v[1], v[2]));
        json_object_set_new(doc, "dns", strings(v[3], NULL));
    } else {
        json_object_set_new(doc, "backend_ip", strings(v[1], v[2]));
    }
    json_t *shield = json_pack("{s:{s:i,s:i},s:[{s:i,s:i,s:s,s:O}]}", "switches", "p_filt", 0, "p_error_rewrite", 1,
                               "status_codes", "error_code", 502, "error_code_rewrite", 302, "error_page_type", "2",
                               "error_page_info", v[7]);
    json_t *domains = json_array();
    for (int d = 0; d < (two_domains ? 2 : 1); d++)
        json_array_append_new(
            domains, json_pack("{s:i,s:s,s:O,s:{},s:[{s:i,s:s,s:{s:i,s:s},s:n,s:n,s:[]}]}", "rid", 20 + d, "id",
                               d ? "d000000000000002" : "d000000000000001", "name", v[5 + d], "doc", "ports", "rid",
                               30 + d, "id", d ? "p000000000000002" : "p000000000000001", "doc", "port", 80 + d,
                               "scheme", "http", "appshield", "waf", "rules"));
    return json_pack("{s:i,s:s,s:s,s:O,s:o,s:o,s:n,s:[],s:o}", "rid", 10, "id", "5173e0c1a2b3c4d5", "customer_id",
                     "c0ffee0000000001", "name", v[0], "doc", doc, "appshield", shield, "waf", "rules", "domains",
                     domains);
}

static char *render(json_t *const v[SLOTS], bool by_host, bool two_domains, char *err, size_t errlen)
{
    static const struct nginx_settings st = {.dir = "/srv/ngx", .keys_dir = "/srv/data/ap-keys"};
    json_t *site = site_of(v, by_host, two_domains), *listens = json_object(), *files = json_object();
    char *text = NULL;
    if (nginx_listens_claim(listens, site, &st, err, errlen) == 0)
        text = nginx_site_render(site, &st, listens, files, err, errlen);
    json_decref(files);
    json_decref(listens);
    json_decref(site);
    return text;
}

static void set_all(json_t *v[SLOTS], const char *const text[SLOTS])
{
    for (int i = 0; i < SLOTS; i++)
        v[i] = json_string(text[i]);
}

static void free_all(json_t *v[SLOTS])
{
    for (int i = 0; i < SLOTS; i++)
        json_decref(v[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    bool by_host = data[0] & 1, two = data[0] & 2;
    /* the tenant's values: NUL-separated fields, missing ones harmless */
    static const char *const a[SLOTS] = {"Shop",       "203.0.113.77", "198.51.100.7", "192.0.2.53",
                                         "192.0.2.243", "a.example",   "b.example",    "https://help.example/x"};
    static const char *const b[SLOTS] = {"Other shop",  "192.0.2.10",  "192.0.2.11",    "198.51.100.53",
                                         "198.51.100.9", "c.d.example", "e-f.example",   "https://other.example/y?z=1"};
    static const char *const host_a[3] = {"origin-a.example", "origin-b.example", NULL};
    static const char *const host_b[3] = {"x.example", "y-z.example", NULL};
    json_t *va[SLOTS], *vb[SLOTS], *vf[SLOTS];
    set_all(va, a);
    set_all(vb, b);
    if (by_host)
        for (int i = 0; i < 2; i++) {
            json_decref(va[1 + i]), json_decref(vb[1 + i]);
            va[1 + i] = json_string(host_a[i]), vb[1 + i] = json_string(host_b[i]);
        }
    const uint8_t *p = data + 1, *end = data + size;
    for (int i = 0; i < SLOTS; i++) {
        if (p >= end) {
            vf[i] = json_deep_copy(va[i]);
            continue;
        }
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        size_t len = z ? (size_t)(z - p) : (size_t)(end - p);
        vf[i] = json_stringn_nocheck((const char *)p, len);
        p += len + (z ? 1 : 0);
    }
    char err[256] = "";
    char *ta = render(va, by_host, two, err, sizeof err), *tb = render(vb, by_host, two, err, sizeof err);
    FUZZ_ASSERT(ta && tb); /* the harmless values render */
    err[0] = '\0';
    char *tf = render(vf, by_host, two, err, sizeof err);
    if (!tf) {
        FUZZ_ASSERT(err[0]);
    } else {
        static struct token ka[MAX_TOKENS], kb[MAX_TOKENS], kf[MAX_TOKENS];
        long na = tokenize(ta, ka, MAX_TOKENS), nb = tokenize(tb, kb, MAX_TOKENS), nf = tokenize(tf, kf, MAX_TOKENS);
        FUZZ_ASSERT(na > 0 && na == nb && nf == na);
        for (long i = 0; i < na; i++) {
            FUZZ_ASSERT(kf[i].kind == ka[i].kind && kb[i].kind == ka[i].kind);
            bool fixed = ka[i].len == kb[i].len && !memcmp(ka[i].start, kb[i].start, ka[i].len);
            if (fixed)
                FUZZ_ASSERT(kf[i].len == ka[i].len && !memcmp(kf[i].start, ka[i].start, ka[i].len));
            else
                FUZZ_ASSERT(kf[i].dollars == ka[i].dollars);
        }
    }
    free(ta);
    free(tb);
    free(tf);
    free_all(va);
    free_all(vb);
    free_all(vf);
    return 0;
}
