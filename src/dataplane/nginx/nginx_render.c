/* nginx_render.c — see nginx_render.h. */
#include "dataplane/nginx/nginx_render.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/ap/ap_common.h"
#include "base/crypto.h"
#include "base/net.h"
#include "base/strbuf.h"
#include "dataplane/nginx/nginx_ipset.h"
#include "dataplane/nginx/nginx_policy.h"
#include "waf/waf.h"

/* One server to render: a domain port at one listen address. */
struct server {
    const json_t *site, *domain, *port;
    const char *name;   /* the domain */
    const char *scheme; /* "http" | "https" */
    long long number;   /* the domain port as the API has it */
    const char *addr;   /* the listen address */
    const json_t *cert; /* the certificate that serves the domain, or NULL */
    bool h2_wanted;
};

typedef int (*server_fn)(const struct server *sv, void *ctx);

static const char *str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static long long num(const json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* The address to listen on for VIP `vip` (a listen map's translation), or
 * NULL when the maps leave it out. */
static const char *listen_addr(const struct nginx_settings *st, const char *vip, char out[NET_TEXT_MAX])
{
    if (st->n_listen_map == 0)
        return vip;
    struct ip_addr a;
    if (ip_parse(vip, &a) != 0)
        return NULL;
    for (size_t i = 0; i < st->n_listen_map; i++) {
        struct cidr from, to;
        if (cidr_parse(st->listen_map[i].from, 0, &from) != 0 || cidr_parse(st->listen_map[i].to, 0, &to) != 0 ||
            !cidr_contains_ip(&from, &a))
            continue;
        struct ip_addr t = to.addr;
        for (int bit = to.prefix; bit < (a.family == NET_V4 ? 32 : 128); bit++) /* the host part of a */
            if (a.b[bit / 8] & (0x80 >> (bit % 8)))
                t.b[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
        ip_format(&t, out);
        return out;
    }
    return NULL;
}

/* Every server of the site, in model order: each domain port (HTTPS ones
 * only while a certificate serves the domain) at each listen address. */
static int each_server(const json_t *site, const struct nginx_settings *st, server_fn fn, void *ctx)
{
    const json_t *sdoc = json_object_get(site, "doc");
    json_t *addrs = json_array();
    if (st->listen) {
        json_array_append_new(addrs, json_string(st->listen));
    } else {
        static const char *const lists[] = {"vip", "vip_v6"};
        for (size_t l = 0; l < 2; l++) {
            size_t v;
            const json_t *vip;
            json_array_foreach (json_object_get(sdoc, lists[l]), v, vip) {
                char t[NET_TEXT_MAX];
                const char *at = listen_addr(st, json_string_value(vip), t);
                if (at)
                    json_array_append_new(addrs, json_string(at));
            }
        }
    }
    size_t i, j, a;
    const json_t *d, *p, *addr;
    int rc = 0;
    json_array_foreach (json_object_get(site, "domains"), i, d) {
        int is_default;
        const json_t *ddoc = json_object_get(d, "doc");
        const json_t *cert = ap_cert_effective(sdoc, ddoc, str(d, "name"), &is_default);
        json_array_foreach (json_object_get(d, "ports"), j, p) {
            const json_t *pdoc = json_object_get(p, "doc");
            struct server sv = {site, d, p, str(d, "name"), str(pdoc, "scheme"), num(pdoc, "port"), NULL, cert,
                                false};
            bool https = strcmp(sv.scheme, "https") == 0;
            if (https && !cert)
                continue; /* HTTPS is off until a certificate serves the domain */
            sv.h2_wanted = https && num(ddoc, "http2") == 1;
            json_array_foreach (addrs, a, addr) {
                sv.addr = json_string_value(addr);
                if ((rc = fn(&sv, ctx)) != 0)
                    goto out;
            }
        }
    }
out:
    json_decref(addrs);
    return rc;
}

static void listen_key(const struct server *sv, const struct nginx_settings *st, char *key, size_t size)
{
    bool v6 = strchr(sv->addr, ':') != NULL;
    snprintf(key, size, "%s%s%s:%lld", v6 ? "[" : "", sv->addr, v6 ? "]" : "", sv->number + st->port_offset);
}

/* ---- claiming listens ---- */

struct claim {
    const struct nginx_settings *st;
    json_t *listens, *mine;
    char *err;
    size_t errlen;
};

static int claim_one(const struct server *sv, void *ctx)
{
    struct claim *c = ctx;
    char key[128];
    listen_key(sv, c->st, key, sizeof key);
    json_t *have = json_object_get(c->mine, key);
    if (!have)
        have = json_object_get(c->listens, key);
    if (have && strcmp(str(have, "scheme"), sv->scheme) != 0) {
        snprintf(c->err, c->errlen, "port %lld of %s is %s, but another domain is served over %s on %s",
                 sv->number, sv->name, strcmp(sv->scheme, "https") == 0 ? "HTTPS" : "HTTP",
                 strcmp(sv->scheme, "https") == 0 ? "HTTP" : "HTTPS", key);
        return -1;
    }
    bool h2 = sv->h2_wanted && (!have || json_is_true(json_object_get(have, "h2")));
    json_object_set_new(c->mine, key, json_pack("{s:s,s:b}", "scheme", sv->scheme, "h2", h2));
    return 0;
}

int nginx_listens_claim(json_t *listens, const json_t *site, const struct nginx_settings *st, char *err,
                        size_t errlen)
{
    struct claim c = {st, listens, json_object(), err, errlen};
    int rc = each_server(site, st, claim_one, &c);
    if (rc == 0)
        json_object_update(listens, c.mine);
    json_decref(c.mine);
    return rc;
}

/* ---- rendering ---- */

struct render {
    const struct nginx_settings *st;
    const json_t *listens;
    json_t *files;
    struct strbuf out;
    char *err;
    size_t errlen;
    json_t *upstreams; /* names of the upstreams written */
};

/* A double-quoted nginx string; `$` (a variable to nginx) and other bytes
 * outside printable ASCII are percent-encoded, as the values here are
 * header values and URLs the API has checked. */
static void quoted(struct strbuf *b, const char *s)
{
    sb_add(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(b, "\\%c", c);
        else if (c == '$' || c < 0x20 || c >= 0x7F)
            sb_printf(b, "%%%02X", c);
        else
            sb_printf(b, "%c", c);
    }
    sb_add(b, "\"");
}

static const char *mapped(const struct nginx_settings *st, const char *addr, bool *is_mapped)
{
    for (size_t i = 0; i < st->n_map; i++)
        if (strcmp(st->map[i].from, addr) == 0) {
            *is_mapped = true;
            return st->map[i].to;
        }
    *is_mapped = false;
    return addr;
}

static void upstream_name(const struct server *sv, char *out, size_t size)
{
    snprintf(out, size, "parapet_%s_%lld", str(sv->site, "id"), sv->number);
}

/* The backend addresses as one upstream per domain port (the backend leg
 * uses the domain port's number and scheme: SSL bridging). */
static void render_upstream(struct render *r, const struct server *sv)
{
    const json_t *sdoc = json_object_get(sv->site, "doc");
    char name[96];
    upstream_name(sv, name, sizeof name);
    sb_printf(&r->out, "upstream %s {\n", name);
    size_t i;
    const json_t *ip;
    json_array_foreach (json_object_get(sdoc, "backend_ip"), i, ip) {
        bool is_mapped;
        const char *to = mapped(r->st, json_string_value(ip), &is_mapped);
        long long port = sv->number + (is_mapped ? r->st->port_offset : 0);
        bool v6 = strchr(to, ':') != NULL;
        sb_printf(&r->out, "    server %s%s%s:%lld;\n", v6 ? "[" : "", to, v6 ? "]" : "", port);
    }
    sb_add(&r->out, "    keepalive 16;\n}\n");
}

/* Backend host names, resolved at request time with the site's resolvers;
 * a client keeps to one host (split by its address). */
static void render_host_split(struct render *r, const json_t *site)
{
    const json_t *hosts = json_object_get(json_object_get(site, "doc"), "backend_host");
    size_t n = json_array_size(hosts);
    if (n == 0)
        return;
    sb_printf(&r->out, "split_clients \"${remote_addr}\" $parapet_%s_host {\n", str(site, "id"));
    for (size_t i = 0; i < n; i++) {
        const char *h = json_string_value(json_array_get(hosts, i));
        if (i + 1 < n)
            sb_printf(&r->out, "    %lld.%02lld%% %s;\n", (long long)(10000 / n / 100),
                      (long long)(10000 / n % 100), h);
        else
            sb_printf(&r->out, "    * %s;\n", h);
    }
    sb_add(&r->out, "}\n");
}

/* One upstream per domain port number (remembered by name: looking for its
 * text in the output found it in a site name of that text too). */
static int render_upstreams(const struct server *sv, void *ctx)
{
    struct render *r = ctx;
    char name[96];
    upstream_name(sv, name, sizeof name);
    if (json_integer_value(json_object_get(json_object_get(sv->site, "doc"), "backend_type")) == 0 &&
        !json_object_get(r->upstreams, name)) {
        json_object_set_new(r->upstreams, name, json_true());
        render_upstream(r, sv);
    }
    return 0;
}

/* tls/<key id>.crt and .key */
static void cert_files(struct render *r, const json_t *cert, char *crt, char *key, size_t size)
{
    const char *id = str(cert, "key_id");
    snprintf(crt, size, "tls/%s.crt", id);
    snprintf(key, size, "tls/%s.key", id);
    json_object_set_new(r->files, crt, json_pack("{s:s}", "text", str(cert, "chain")));
    char src[4096];
    snprintf(src, sizeof src, "%s/%s.key", r->st->keys_dir, id);
    json_object_set_new(r->files, key, json_pack("{s:s,s:i}", "copy", src, "mode", 0600));
}

static void render_listen(struct render *r, const struct server *sv)
{
    char key[128];
    listen_key(sv, r->st, key, sizeof key);
    bool https = strcmp(sv->scheme, "https") == 0;
    bool h2 = https && json_is_true(json_object_get(json_object_get(r->listens, key), "h2"));
    sb_printf(&r->out, "    listen %s%s%s;\n", key, https ? " ssl" : "", h2 ? " http2" : "");
    sb_add(&r->out, "    server_name ");
    sb_add(&r->out, sv->name);
    sb_add(&r->out, ";\n");
}

/* The HTTPS port an HTTP port redirects to while HTTPS is on, or 0. */
static long long redirect_port(const struct server *sv)
{
    if (!sv->cert || strcmp(sv->scheme, "http") != 0)
        return 0;
    size_t i;
    const json_t *e;
    json_array_foreach (json_object_get(json_object_get(sv->domain, "doc"), "redirects"), i, e)
        if (num(e, "http_port") == sv->number)
            return num(e, "https_port");
    return 0;
}

static void render_tls(struct render *r, const struct server *sv, const struct nginx_port_policy *pp)
{
    char crt[512], key[512];
    cert_files(r, sv->cert, crt, key, sizeof crt);
    sb_printf(&r->out, "    ssl_certificate %s/%s;\n    ssl_certificate_key %s/%s;\n", r->st->dir, crt, r->st->dir,
              key);
    if (pp->encryption) /* the OWASP key "encryption": modern TLS only */
        sb_add(&r->out, "    ssl_protocols TLSv1.2 TLSv1.3;\n"
                        "    ssl_ciphers ECDHE+AESGCM:ECDHE+CHACHA20;\n"
                        "    ssl_prefer_server_ciphers on;\n");
}

/* The domain port's ModSecurity file: its OWASP text, then its custom rules. */
static int render_waf(struct render *r, const struct server *sv, const struct nginx_port_policy *pp)
{
    json_t *white = pp->ip_lists ? nginx_ipset_blocks(pp->white_list) : json_array();
    size_t n = json_array_size(white);
    const char **wl = calloc(n + 1, sizeof *wl);
    for (size_t i = 0; i < n; i++)
        wl[i] = json_string_value(json_array_get(white, i));
    struct waf_owasp_site site = {sv->name, (unsigned)sv->number, wl, n};
    char *owasp = waf_owasp_render(pp->owasp, &site, r->err, r->errlen);
    free(wl);
    json_decref(white);
    if (!owasp)
        return -1;
    struct strbuf text = {0};
    sb_add(&text, owasp);
    free(owasp);
    size_t i;
    const json_t *rule;
    json_array_foreach (pp->rules, i, rule) {
        if (num(rule, "enable") != 1)
            continue;
        json_t *canon = json_deep_copy(rule);
        json_object_del(canon, "slot");
        char *t = waf_rule_compile(canon, (unsigned)num(rule, "slot"), r->err, r->errlen);
        json_decref(canon);
        if (!t) {
            sb_free(&text);
            return -1;
        }
        sb_printf(&text, "# custom rule %s\n%s", str(rule, "rule_name"), t);
        free(t);
    }
    char digest[65], path[64];
    sha256_hex(sb_text(&text), digest);
    snprintf(path, sizeof path, "modsec/%.16s.conf", digest);
    json_object_set_new(r->files, path, json_pack("{s:s}", "text", sb_text(&text)));
    sb_free(&text);
    sb_printf(&r->out,
              "    modsecurity on;\n"
              "    modsecurity_transaction_id \"%s-$request_id\";\n"
              "    modsecurity_rules_file %s/%s;\n",
              str(sv->port, "id"), r->st->dir, path);
    return 0;
}

static void render_headers(struct render *r, const struct nginx_port_policy *pp)
{
    json_t *view = waf_headers_view(pp->secure_headers);
    const char *name;
    json_t *v;
    json_object_foreach (json_object_get(view, "headers"), name, v) {
        sb_printf(&r->out, "    add_header %s ", name);
        quoted(&r->out, json_string_value(v));
        sb_add(&r->out, " always;\n");
    }
    json_decref(view);
}

static bool is_redirect_code(long long c)
{
    return c == 301 || c == 302 || c == 303 || c == 307 || c == 308;
}

/* Status-code overwrites: nginx's error_page on what the backend answers
 * (proxy_intercept_errors) and on nginx's own answers (a WAF 403 too). */
static void render_status_codes(struct render *r, const struct nginx_port_policy *pp)
{
    if (!json_array_size(pp->status_codes))
        return;
    sb_add(&r->out, "    proxy_intercept_errors on;\n");
    size_t i;
    const json_t *e;
    json_array_foreach (pp->status_codes, i, e) {
        long long code = num(e, "error_code"), to = num(e, "error_code_rewrite");
        const char *type = str(e, "error_page_type");
        if (strcmp(type, "2") == 0) { /* the client is sent to the custom page */
            sb_printf(&r->out, "    error_page %lld =%lld ", code, is_redirect_code(to) ? to : 302);
            quoted(&r->out, str(e, "error_page_info"));
            sb_add(&r->out, ";\n");
            continue;
        }
        sb_printf(&r->out, "    error_page %lld =%lld /.parapet/status/%lld;\n", code, to, code);
        sb_printf(&r->out, "    location = /.parapet/status/%lld {\n        internal;\n        modsecurity off;\n",
                  code);
        if (strcmp(type, "1") == 0) /* parapet's styled page */
            sb_printf(&r->out,
                      "        default_type text/html;\n"
                      "        return %lld \"<!DOCTYPE html><html><head><title>%lld</title></head><body "
                      "style='font-family:sans-serif;text-align:center;margin-top:15%%'><h1>%lld</h1>"
                      "<p>This request could not be served. Reference: $request_id</p></body></html>\\n\";\n",
                      to, to, to);
        else /* nginx's own page for the code */
            sb_printf(&r->out, "        return %lld;\n", to);
        sb_add(&r->out, "    }\n");
    }
}

static void render_proxy(struct render *r, const struct server *sv)
{
    const json_t *sdoc = json_object_get(sv->site, "doc");
    bool https = strcmp(sv->scheme, "https") == 0;
    if (json_integer_value(json_object_get(sdoc, "backend_type")) == 1) {
        sb_add(&r->out, "    resolver");
        size_t i;
        const json_t *dns;
        json_array_foreach (json_object_get(sdoc, "dns"), i, dns) {
            const char *a = json_string_value(dns);
            bool v6 = strchr(a, ':') != NULL;
            sb_printf(&r->out, " %s%s%s", v6 ? "[" : "", a, v6 ? "]" : "");
        }
        sb_add(&r->out, " valid=60s;\n");
    }
    sb_add(&r->out, "    location / {\n");
    if (json_integer_value(json_object_get(sdoc, "backend_type")) == 1) {
        sb_printf(&r->out, "        proxy_pass %s://$parapet_%s_host:%lld;\n", sv->scheme, str(sv->site, "id"),
                  sv->number);
    } else {
        char name[96];
        upstream_name(sv, name, sizeof name);
        sb_printf(&r->out, "        proxy_pass %s://%s;\n", sv->scheme, name);
    }
    sb_add(&r->out, "        proxy_http_version 1.1;\n"
                    "        proxy_set_header Connection \"\";\n"
                    "        proxy_set_header Host $host;\n"
                    "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
                    "        proxy_set_header X-Forwarded-Proto $scheme;\n");
    if (https)
        sb_add(&r->out, "        proxy_ssl_server_name on;\n        proxy_ssl_name $host;\n");
    sb_add(&r->out, "    }\n");
}

static int render_server(const struct server *sv, void *ctx)
{
    struct render *r = ctx;
    sb_printf(&r->out, "# domain %s, %s port %lld (domain port %s)\nserver {\n", sv->name,
              strcmp(sv->scheme, "https") == 0 ? "HTTPS" : "HTTP", sv->number, str(sv->port, "id"));
    render_listen(r, sv);
    long long to = redirect_port(sv);
    if (to) {
        sb_add(&r->out, "    modsecurity off;\n");
        if (to == 443)
            sb_add(&r->out, "    return 301 https://$host$request_uri;\n}\n");
        else
            sb_printf(&r->out, "    return 301 https://$host:%lld$request_uri;\n}\n", to);
        return 0;
    }
    struct nginx_port_policy pp;
    nginx_port_policy(sv->site, sv->port, &pp);
    if (sv->cert && strcmp(sv->scheme, "https") == 0)
        render_tls(r, sv, &pp);
    if (pp.hide_headers)
        sb_add(&r->out, "    server_tokens off;\n    proxy_hide_header X-Powered-By;\n");
    if (pp.ip_lists && json_array_size(pp.black_list)) {
        json_t *black = nginx_ipset_blocks(pp.black_list);
        size_t i;
        const json_t *b;
        json_array_foreach (black, i, b)
            sb_printf(&r->out, "    deny %s;\n", json_string_value(b));
        json_decref(black);
    }
    int rc = 0;
    if (pp.waf)
        rc = render_waf(r, sv, &pp);
    else
        sb_add(&r->out, "    modsecurity off;\n");
    render_headers(r, &pp);
    if (pp.status_rewrite)
        render_status_codes(r, &pp);
    render_proxy(r, sv);
    sb_add(&r->out, "}\n");
    nginx_port_policy_clear(&pp);
    return rc;
}

/* ---- values sites.conf can carry ---- */

/* Whether every byte of `v` (a string) is a letter, a digit or one of `set`;
 * an absent value passes. */
static bool only(const json_t *v, const char *set, bool may_be_empty)
{
    if (!v)
        return true;
    const char *s = json_string_value(v);
    if (!s || strlen(s) != json_string_length(v) || (!*s && !may_be_empty))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || strchr(set, *s)))
            return false;
    return true;
}

/* A comment line carries anything but a line end (or another control
 * character, or a NUL). */
static bool comment_safe(const json_t *v)
{
    const char *s = json_string_value(v);
    if (!v)
        return true;
    if (!s || strlen(s) != json_string_length(v))
        return false;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

static bool all_only(const json_t *list, const char *set)
{
    size_t i;
    const json_t *v;
    json_array_foreach (list, i, v)
        if (!only(v, set, false))
            return false;
    return true;
}

static bool rule_names_safe(const json_t *rules)
{
    size_t i;
    const json_t *rule;
    json_array_foreach (rules, i, rule)
        if (!comment_safe(json_object_get(rule, "rule_name")))
            return false;
    return true;
}

/* sites.conf writes addresses, host and domain names bare, and the site's
 * and custom rules' names in comment lines; quoted strings are escaped
 * (quoted()). The API lets nothing else through; a value that reached the
 * store another way and could end a token, a directive or a line makes the
 * site refused here, never written: 0, or -1 with err. */
static int carried_values(const json_t *site, char *err, size_t errlen)
{
    static const char addr[] = ".:", host[] = ".-_", domain[] = ".-_*";
    const json_t *doc = json_object_get(site, "doc");
    const char *what = NULL;
    if (!comment_safe(json_object_get(site, "name")))
        what = "the site's name";
    else if (!all_only(json_object_get(doc, "backend_ip"), addr) || !all_only(json_object_get(doc, "dns"), addr) ||
             !all_only(json_object_get(doc, "vip"), addr) || !all_only(json_object_get(doc, "vip_v6"), addr))
        what = "an address of the site";
    else if (!all_only(json_object_get(doc, "backend_host"), host))
        what = "a backend host name";
    else if (!rule_names_safe(json_object_get(site, "rules")))
        what = "a custom rule's name";
    size_t i, j;
    const json_t *d, *p;
    json_array_foreach (json_object_get(site, "domains"), i, d) {
        if (!what && !only(json_object_get(d, "name"), domain, false))
            what = "a domain name";
        json_array_foreach (json_object_get(d, "ports"), j, p)
            if (!what && !rule_names_safe(json_object_get(p, "rules")))
                what = "a custom rule's name";
    }
    if (!what)
        return 0;
    snprintf(err, errlen, "%s holds a character sites.conf cannot carry", what);
    return -1;
}

char *nginx_site_render(const json_t *site, const struct nginx_settings *st, const json_t *listens,
                        json_t *files, char *err, size_t errlen)
{
    if (carried_values(site, err, errlen) != 0)
        return NULL;
    struct render r = {.st = st, .listens = listens, .files = files, .err = err, .errlen = errlen,
                       .upstreams = json_object()};
    sb_printf(&r.out, "# site %s \"%s\" of customer %s\n", str(site, "id"), str(site, "name"),
              str(site, "customer_id"));
    if (json_integer_value(json_object_get(json_object_get(site, "doc"), "backend_type")) == 1)
        render_host_split(&r, site);
    int rc = each_server(site, st, render_upstreams, &r) != 0 || each_server(site, st, render_server, &r) != 0;
    json_decref(r.upstreams);
    if (rc) {
        sb_free(&r.out);
        return NULL;
    }
    return sb_take(&r.out);
}
