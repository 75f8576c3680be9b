/* headers.c — see waf.h. */
#include "waf/waf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"

/* The six headers: custom member, header name, values of low/standard/strict. */
static const struct header {
    const char *member, *name, *low, *standard, *strict;
} headers[] = {
    {"strict_transport_security", "Strict-Transport-Security", "", "max-age=31536000",
     "max-age=63072000; includeSubDomains; preload"},
    {"x_frame_options", "X-Frame-Options", "SAMEORIGIN", "SAMEORIGIN", "DENY"},
    {"x_content_type_options", "X-Content-Type-Options", "nosniff", "nosniff", "nosniff"},
    {"referrer_policy", "Referrer-Policy", "strict-origin-when-cross-origin",
     "strict-origin-when-cross-origin", "no-referrer"},
    {"content_security_policy", "Content-Security-Policy", "",
     "upgrade-insecure-requests; frame-ancestors 'self'; object-src 'none'; base-uri 'self'",
     "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; "
     "form-action 'self'; upgrade-insecure-requests"},
    {"permissions_policy", "Permissions-Policy", "",
     "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
     "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
     "microphone=(), payment=(), usb=()"},
};
#define NHEADERS (sizeof headers / sizeof headers[0])

static const char *const referrer_tokens[] = {"no-referrer",
                                              "no-referrer-when-downgrade",
                                              "origin",
                                              "origin-when-cross-origin",
                                              "same-origin",
                                              "strict-origin",
                                              "strict-origin-when-cross-origin",
                                              "unsafe-url"};

__attribute__((format(printf, 3, 4))) static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

json_t *waf_headers_set(const char *mode, const json_t *custom)
{
    int m = !mode                       ? -1
            : !strcmp(mode, "low")      ? 0
            : !strcmp(mode, "standard") ? 1
            : !strcmp(mode, "strict")   ? 2
            : !strcmp(mode, "custom")   ? 3
                                        : -1;
    if (m < 0)
        return NULL;
    json_t *out = json_object();
    for (size_t i = 0; i < NHEADERS; i++) {
        const struct header *h = &headers[i];
        const char *v = m == 0   ? h->low
                        : m == 1 ? h->standard
                        : m == 2 ? h->strict
                                 : json_string_value(json_object_get(custom, h->member));
        if (v && *v)
            json_object_set_new(out, h->name, json_string(v));
    }
    return out;
}

json_t *waf_headers_default(void)
{
    json_t *custom = json_object();
    for (size_t i = 0; i < NHEADERS; i++)
        json_object_set_new(custom, headers[i].member, json_string(headers[i].standard));
    return json_pack("{s:i,s:s,s:o}", "status", 0, "mode", "standard", "custom", custom);
}

/* ---- value rules: each returns the canonical value (malloc'd) or NULL
 * with the rule in why ---- */

/* s[0..n) without surrounding spaces and tabs, as a new string. */
static char *trimmed(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return strndup(s, n);
}

static char *canon_hsts(const char *v, const char **why)
{
    long max_age = -1;
    bool subs = false, preload = false;
    *why = "must be \"max-age=SECONDS\" (0 to 315360000) optionally followed by "
           "\"; includeSubDomains\" and \"; preload\", each once";
    for (const char *p = v;;) {
        const char *semi = strchr(p, ';');
        char *d = trimmed(p, semi ? (size_t)(semi - p) : strlen(p));
        bool ok = true;
        if (!strncasecmp(d, "max-age=", 8) && max_age < 0) {
            char *num = d + 8, *end;
            size_t len = strlen(num);
            if (len >= 2 && num[0] == '"' && num[len - 1] == '"') {
                num[len - 1] = '\0';
                num++;
            }
            ok = *num && strspn(num, "0123456789") == strlen(num) && strlen(num) <= 9;
            max_age = ok ? strtol(num, &end, 10) : -1;
            ok = ok && max_age <= 315360000;
        } else if (!strcasecmp(d, "includeSubDomains") && !subs) {
            subs = true;
        } else if (!strcasecmp(d, "preload") && !preload) {
            preload = true;
        } else {
            ok = false;
        }
        free(d);
        if (!ok)
            return NULL;
        if (!semi)
            break;
        p = semi + 1;
    }
    if (max_age < 0)
        return NULL;
    if (preload && (!subs || max_age < 31536000)) {
        *why = "preload needs includeSubDomains and a max-age of at least 31536000 (one year)";
        return NULL;
    }
    char out[96];
    snprintf(out, sizeof out, "max-age=%ld%s%s", max_age, subs ? "; includeSubDomains" : "",
             preload ? "; preload" : "");
    return strdup(out);
}

static char *canon_xfo(const char *v, const char **why)
{
    *why = "must be DENY or SAMEORIGIN";
    if (!strcasecmp(v, "DENY"))
        return strdup("DENY");
    if (!strcasecmp(v, "SAMEORIGIN"))
        return strdup("SAMEORIGIN");
    return NULL;
}

static char *canon_xcto(const char *v, const char **why)
{
    *why = "must be nosniff";
    return strcasecmp(v, "nosniff") ? NULL : strdup("nosniff");
}

static char *canon_referrer(const char *v, const char **why)
{
    *why = "must be a comma-separated list of no-referrer, no-referrer-when-downgrade, origin, "
           "origin-when-cross-origin, same-origin, strict-origin, strict-origin-when-cross-origin, "
           "unsafe-url";
    struct strbuf b = {0};
    size_t count = 0;
    for (const char *p = v;;) {
        const char *comma = strchr(p, ',');
        char *t = trimmed(p, comma ? (size_t)(comma - p) : strlen(p));
        int found = -1;
        for (int i = 0; i < 8; i++)
            if (!strcasecmp(t, referrer_tokens[i]))
                found = i;
        free(t);
        if (found < 0 || ++count > 8) {
            sb_free(&b);
            return NULL;
        }
        sb_printf(&b, "%s%s", b.len ? ", " : "", referrer_tokens[found]);
        if (!comma)
            break;
        p = comma + 1;
    }
    return sb_take(&b);
}

/* Printable ASCII without '$' and '\' (nginx's add_header would read them)
 * and without spaces at either end. */
static bool header_text(const char *v, size_t max, const char **why, size_t *bad)
{
    size_t n = strlen(v);
    static char msg[160];
    snprintf(msg, sizeof msg,
             "must be 1 to %zu printable ASCII characters without '$' or '\\' "
             "(no control characters, no line breaks)",
             max);
    *why = msg;
    if (n == 0 || n > max || v[0] == ' ' || v[n - 1] == ' ')
        return false;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < 0x20 || v[i] > 0x7e || v[i] == '$' || v[i] == '\\') {
            *bad = i;
            return false;
        }
    }
    return true;
}

static char *canon_csp(const char *v, const char **why)
{
    size_t bad;
    if (!header_text(v, WAF_CSP_MAX, why, &bad))
        return NULL;
    /* each ';'-separated directive starts with its name */
    for (const char *p = v;;) {
        while (*p == ' ')
            p++;
        size_t name = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-");
        if (name == 0 && *p != ';' && *p) {
            *why = "must be directives separated by ';', each starting with its name";
            return NULL;
        }
        const char *semi = strchr(p, ';');
        if (!semi)
            break;
        p = semi + 1;
    }
    return strdup(v);
}

static char *canon_pp(const char *v, const char **why)
{
    size_t bad;
    if (!header_text(v, WAF_PP_MAX, why, &bad))
        return NULL;
    for (const char *p = v;;) {
        while (*p == ' ')
            p++;
        size_t name = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (name == 0 || p[name] != '=') {
            *why = "must be a comma-separated list of feature=allowlist, e.g. camera=(), "
                   "geolocation=(self)";
            return NULL;
        }
        const char *comma = strchr(p, ',');
        if (!comma)
            break;
        p = comma + 1;
    }
    return strdup(v);
}

static char *(*const canon[NHEADERS])(const char *, const char **) = {canon_hsts,     canon_xfo, canon_xcto,
                                                                      canon_referrer, canon_csp, canon_pp};

int waf_headers_apply(json_t *state, const json_t *body, char *err, size_t errlen)
{
    if (!json_is_object(body)) {
        fail(err, errlen, "body: must be a JSON object");
        return -1;
    }
    json_t *next = json_deep_copy(state);
    if (!json_is_object(json_object_get(next, "custom")))
        json_object_set_new(next, "custom", json_object());
    json_t *custom = json_object_get(next, "custom");
    const char *key;
    const json_t *v;
    json_object_foreach ((json_t *)body, key, v) {
        if (!strcmp(key, "status")) {
            if (!json_is_integer(v)) {
                fail(err, errlen, "status: must be an integer (0 or 1)");
                goto bad;
            }
            if (json_integer_value(v) != 0 && json_integer_value(v) != 1) {
                fail(err, errlen, "status: must be 0 or 1");
                goto bad;
            }
            json_object_set(next, "status", (json_t *)v);
        } else if (!strcmp(key, "mode")) {
            const char *m = json_string_value(v);
            if (!m ||
                (strcmp(m, "low") && strcmp(m, "standard") && strcmp(m, "strict") && strcmp(m, "custom"))) {
                fail(err, errlen, m ? "mode: must be one of low, standard, strict, custom"
                                    : "mode: must be a string (one of low, standard, strict, custom)");
                goto bad;
            }
            json_object_set(next, "mode", (json_t *)v);
        } else if (!strcmp(key, "custom")) {
            if (!json_is_object(v)) {
                fail(err, errlen, "custom: must be an object");
                goto bad;
            }
            const char *m;
            const json_t *hv;
            json_object_foreach ((json_t *)v, m, hv) {
                size_t i = 0;
                while (i < NHEADERS && strcmp(headers[i].member, m))
                    i++;
                if (i == NHEADERS) {
                    fail(err, errlen, "custom.%.64s: is not a header of a custom policy", m);
                    goto bad;
                }
                const char *s = json_string_value(hv);
                if (!s || strlen(s) != json_string_length(hv)) {
                    fail(err, errlen, "custom.%s: must be a string (\"\" for not sent)", m);
                    goto bad;
                }
                if (!*s) {
                    json_object_set_new(custom, m, json_string(""));
                    continue;
                }
                const char *why = "";
                char *c = canon[i](s, &why);
                if (!c) {
                    fail(err, errlen, "custom.%s: %s", m, why);
                    goto bad;
                }
                json_object_set_new(custom, m, json_string(c));
                free(c);
            }
        } else {
            fail(err, errlen, "%.64s: is not a member (status, mode, custom)", key);
            goto bad;
        }
    }
    if (!strcmp(json_string_value(json_object_get(next, "mode")) ?: "", "custom")) {
        json_t *set = waf_headers_set("custom", custom);
        size_t n = json_object_size(set);
        json_decref(set);
        if (n == 0) {
            fail(err, errlen, "custom: must send at least one header when mode is custom");
            goto bad;
        }
    }
    json_object_update(state, next);
    json_decref(next);
    return 0;
bad:
    json_decref(next);
    return -1;
}

json_t *waf_headers_view(const json_t *state)
{
    const json_t *st = json_object_get(state, "status");
    const char *mode = json_string_value(json_object_get(state, "mode"));
    const json_t *custom = json_object_get(state, "custom");
    json_t *set = st && json_integer_value(st) == 1 ? waf_headers_set(mode, custom) : NULL;
    /* the custom policy's members in one order, whatever order the stored document has */
    static const char *const order[] = {"strict_transport_security", "x_frame_options",
                                        "x_content_type_options",    "referrer_policy",
                                        "content_security_policy",   "permissions_policy"};
    json_t *c = json_object();
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        json_t *v = json_object_get(custom, order[i]);
        if (v)
            json_object_set(c, order[i], v);
    }
    if (custom)
        json_object_update_missing(c, (json_t *)custom);
    return json_pack("{s:I,s:s,s:o,s:o}", "status", (json_int_t)(st ? json_integer_value(st) : 0), "mode",
                     mode ? mode : "standard", "custom", c, "headers", set ? set : json_object());
}
