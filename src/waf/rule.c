/* rule.c — see waf.h.
 *
 * Escaping. Inside the double-quoted operator of a SecRule, libmodsecurity's
 * lexer lets \" stand for a quote but hands the backslash to the operator
 * too, and the literal operators (@contains, @streq, ...) have no escapes of
 * their own; any operator expands %{...} macros. So: "%{" and control
 * characters are refused in every value; a literal value holding '"' or '\'
 * (or '%': the lexer mishandles "...%" before the closing quote) is matched
 * with @rx on the value with every byte other than letters, digits and
 * non-ASCII written \xHH; a user's regex has its quotes and percent signs
 * written \x22 and \x25 (\E\x22\Q inside \Q...\E) and never ends in a
 * backslash. The action
 * list holds no client text but the redirect URL, whose characters are
 * restricted. */
#include "waf/waf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/net.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/url.h"

enum kind { K_TEXT, K_METHOD, K_IP, K_COUNTRY };

struct field_def {
    const char *name;
    const char *var; /* ModSecurity variable; ":NAME" is appended when named */
    bool named;      /* needs "name" */
    int phase;       /* 2 when the value needs the request body */
    enum kind kind;
    const char *xforms; /* transformations after t:none */
};

static const struct field_def fields[] = {
    {"uri", "REQUEST_URI", false, 1, K_TEXT, ",t:urlDecodeUni,t:normalizePath"},
    {"path", "REQUEST_FILENAME", false, 1, K_TEXT, ",t:urlDecodeUni,t:normalizePath"},
    {"query", "QUERY_STRING", false, 1, K_TEXT, ""},
    {"args", "ARGS", false, 2, K_TEXT, ""},
    {"arg", "ARGS", true, 2, K_TEXT, ""},
    {"arg_names", "ARGS_NAMES", false, 2, K_TEXT, ""},
    {"body", "REQUEST_BODY", false, 2, K_TEXT, ""},
    {"method", "REQUEST_METHOD", false, 1, K_METHOD, ""},
    {"source_ip", "REMOTE_ADDR", false, 1, K_IP, ""},
    {"country", "GEO:COUNTRY_CODE", false, 1, K_COUNTRY, ""},
    {"headers", "REQUEST_HEADERS", false, 1, K_TEXT, ""},
    {"header", "REQUEST_HEADERS", true, 1, K_TEXT, ""},
    {"header_names", "REQUEST_HEADERS_NAMES", false, 1, K_TEXT, ""},
    {"cookies", "REQUEST_COOKIES", false, 1, K_TEXT, ""},
    {"cookie", "REQUEST_COOKIES", true, 1, K_TEXT, ""},
    {"cookie_names", "REQUEST_COOKIES_NAMES", false, 1, K_TEXT, ""},
};
#define FIELD_LIST                                                                                           \
    "uri, path, query, args, arg, arg_names, body, method, source_ip, country, "                             \
    "headers, header, header_names, cookies, cookie, cookie_names"

enum op { OP_CONTAINS, OP_EQUALS, OP_BEGINS, OP_ENDS, OP_REGEX, OP_IN, OP_IP };
static const char *const op_names[] = {"contains", "equals", "begins_with", "ends_with",
                                       "regex",    "in",     "ip_match"};
static const char *const op_msc[] = {"@contains", "@streq", "@beginsWith", "@endsWith"};
#define OP_LIST "contains, equals, begins_with, ends_with, regex, in, ip_match"

static const char *const actions[] = {"block", "allow", "log", "redirect"};

__attribute__((format(printf, 3, 4))) static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static const struct field_def *find_field(const char *name)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i].name, name) == 0)
            return &fields[i];
    return NULL;
}

static int find_name(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

/* A 0/1 switch member; absent means `dflt`. Returns 0/1, or -1 (err set). */
static int get_switch(const json_t *obj, const char *key, int dflt, const char *path, char *err,
                      size_t errlen)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return dflt;
    if (!json_is_integer(v)) { /* another JSON type: the type error of a form field */
        fail(err, errlen, "%s%s: must be an integer (0 or 1)", path, key);
        return -1;
    }
    if (json_integer_value(v) != 0 && json_integer_value(v) != 1) {
        fail(err, errlen, "%s%s: must be 0 or 1", path, key);
        return -1;
    }
    return (int)json_integer_value(v);
}

/* Refuses members other than those listed. */
static int only_members(const json_t *obj, const char *const *allowed, size_t n, const char *path, char *err,
                        size_t errlen)
{
    const char *key;
    const json_t *v;
    json_object_foreach ((json_t *)obj, key, v) {
        if (find_name(allowed, n, key) < 0) {
            fail(err, errlen, "%s%.64s: is not a member of %s", path, key,
                 *path ? "a condition" : "a custom rule");
            return -1;
        }
    }
    return 0;
}

/* A name or description: a string of min..max characters without control
 * characters. */
static int check_label(const json_t *v, const char *key, size_t min, size_t max, char *err, size_t errlen)
{
    if (!json_is_string(v)) {
        fail(err, errlen, "%s: must be a string", key);
        return -1;
    }
    const char *s = json_string_value(v);
    size_t n = utf8_length(s);
    if (n < min || n > max || strlen(s) != json_string_length(v)) {
        fail(err, errlen, "%s: must be %zu to %zu characters", key, min, max);
        return -1;
    }
    if (has_control(s)) {
        fail(err, errlen, "%s: must not contain control characters", key);
        return -1;
    }
    return 0;
}

/* One text value to match; path names it for messages. */
static int check_value_text(const json_t *v, const char *path, bool regex, char *err, size_t errlen)
{
    if (!json_is_string(v)) {
        fail(err, errlen, "%s: must be a string", path);
        return -1;
    }
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n == 0 || n > WAF_RULE_VALUE_MAX || strlen(s) != n) {
        fail(err, errlen, "%s: must be 1 to %d bytes", path, WAF_RULE_VALUE_MAX);
        return -1;
    }
    if (has_control(s)) {
        fail(err, errlen, "%s: must not contain control characters", path);
        return -1;
    }
    if (strstr(s, "%{")) {
        fail(err, errlen, "%s: must not contain \"%%{\" (ModSecurity macro syntax)%s", path,
             regex ? "; write %\\{ in a regex" : "");
        return -1;
    }
    if (regex) {
        char why[WAF_ERR_LEN];
        if (waf_regex_check(s, why, sizeof why) != 0) {
            fail(err, errlen, "%s: %s", path, why);
            return -1;
        }
    }
    return 0;
}

/* Canonical form of one list entry or single value of a condition, or NULL. */
static json_t *canon_value(const json_t *v, const struct field_def *f, enum op op, const char *path,
                           char *err, size_t errlen)
{
    if (f->kind == K_TEXT) {
        if (check_value_text(v, path, op == OP_REGEX, err, errlen))
            return NULL;
        return json_incref((json_t *)v);
    }
    if (!json_is_string(v)) {
        fail(err, errlen, "%s: must be a string", path);
        return NULL;
    }
    const char *s = json_string_value(v);
    size_t n = strlen(s);
    if (f->kind == K_IP) {
        struct cidr c;
        int rc = cidr_parse(s, CIDR_ALLOW_BARE | CIDR_REJECT_HOST_BITS, &c);
        if (rc != 0) {
            fail(err, errlen, "%s: %s", path,
                 rc == -2 ? "must not have host bits set" : "must be an IP address or CIDR block");
            return NULL;
        }
        if (c.prefix == 0) {
            fail(err, errlen, "%s: must not be a /0 block (leave the condition out instead)", path);
            return NULL;
        }
        /* A single address is written bare: libmodsecurity 3.0.9 refuses "/128". */
        char t[NET_TEXT_MAX];
        if (c.prefix == (c.addr.family == NET_V4 ? 32 : 128))
            ip_format(&c.addr, t);
        else
            cidr_format(&c, t);
        return json_string(t);
    }
    char up[32];
    size_t max = f->kind == K_COUNTRY ? 2 : 16;
    if (n < (f->kind == K_COUNTRY ? 2u : 1u) || n > max) {
        fail(err, errlen, "%s: %s", path,
             f->kind == K_COUNTRY ? "must be an ISO 3166 alpha-2 country code"
                                  : "must be an HTTP method of 1 to 16 letters");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!isalpha((unsigned char)s[i])) {
            fail(err, errlen, "%s: %s", path,
                 f->kind == K_COUNTRY ? "must be an ISO 3166 alpha-2 country code"
                                      : "must be an HTTP method of 1 to 16 letters");
            return NULL;
        }
        up[i] = (char)toupper((unsigned char)s[i]);
    }
    up[n] = '\0';
    return json_string(up);
}

static json_t *canon_condition(const json_t *c, size_t i, char *err, size_t errlen)
{
    static const char *const members[] = {"field", "name", "operator", "value", "negate", "ignore_case"};
    char path[48];
    snprintf(path, sizeof path, "conditions[%zu].", i);
    char p[80];
    if (!json_is_object(c)) {
        fail(err, errlen, "conditions[%zu]: must be an object", i);
        return NULL;
    }
    if (only_members(c, members, 6, path, err, errlen))
        return NULL;
    const json_t *jf = json_object_get(c, "field");
    if (!jf) {
        fail(err, errlen, "%sfield: is required", path);
        return NULL;
    }
    const struct field_def *f = json_is_string(jf) ? find_field(json_string_value(jf)) : NULL;
    if (!f) {
        fail(err, errlen, "%sfield: must be %sone of " FIELD_LIST "%s", path, json_is_string(jf) ? "" : "a string (",
             json_is_string(jf) ? "" : ")");
        return NULL;
    }
    const json_t *jn = json_object_get(c, "name");
    if (f->named && !jn) {
        fail(err, errlen, "%sname: is required with field %s", path, f->name);
        return NULL;
    }
    if (!f->named && jn) {
        fail(err, errlen, "%sname: is only taken with field arg, header or cookie", path);
        return NULL;
    }
    if (jn) {
        const char *s = json_is_string(jn) ? json_string_value(jn) : "";
        size_t n = strlen(s);
        bool ok = n >= 1 && n <= 64 && (!json_is_string(jn) || n == json_string_length(jn));
        for (size_t k = 0; ok && k < n; k++)
            ok = isalnum((unsigned char)s[k]) || s[k] == '-' || s[k] == '_' || s[k] == '.';
        if (!ok) {
            fail(err, errlen, "%sname: must be 1 to 64 letters, digits, '-', '_' or '.'", path);
            return NULL;
        }
    }
    const json_t *jo = json_object_get(c, "operator");
    if (!jo) {
        fail(err, errlen, "%soperator: is required", path);
        return NULL;
    }
    int op = json_is_string(jo) ? find_name(op_names, 7, json_string_value(jo)) : -1;
    if (op < 0) {
        fail(err, errlen, "%soperator: must be %sone of " OP_LIST "%s", path, json_is_string(jo) ? "" : "a string (",
             json_is_string(jo) ? "" : ")");
        return NULL;
    }
    if (f->kind == K_IP && op != OP_IP) {
        fail(err, errlen, "%soperator: must be ip_match with field source_ip", path);
        return NULL;
    }
    if (f->kind != K_IP && op == OP_IP) {
        fail(err, errlen, "%soperator: ip_match is only for field source_ip", path);
        return NULL;
    }
    if ((f->kind == K_METHOD || f->kind == K_COUNTRY) && op != OP_EQUALS && op != OP_IN) {
        fail(err, errlen, "%soperator: must be equals or in with field %s", path, f->name);
        return NULL;
    }
    int negate = get_switch(c, "negate", 0, path, err, errlen);
    int icase = get_switch(c, "ignore_case", 0, path, err, errlen);
    if (negate < 0 || icase < 0)
        return NULL;
    if (icase && f->kind != K_TEXT) {
        fail(err, errlen, "%signore_case: is only for text fields (not %s)", path, f->name);
        return NULL;
    }
    const json_t *jv = json_object_get(c, "value");
    snprintf(p, sizeof p, "%svalue", path);
    if (!jv) {
        fail(err, errlen, "%s: is required", p);
        return NULL;
    }
    json_t *value;
    if (op == OP_IN || op == OP_IP) {
        size_t n = json_array_size(jv);
        if (!json_is_array(jv) || n < 1 || n > WAF_RULE_LIST_MAX) {
            fail(err, errlen, "%s: must be an array of 1 to %d entries with operator %s", p,
                 WAF_RULE_LIST_MAX, op_names[op]);
            return NULL;
        }
        value = json_array();
        for (size_t k = 0; k < n; k++) {
            char pk[96];
            snprintf(pk, sizeof pk, "%s[%zu]", p, k);
            json_t *e = canon_value(json_array_get(jv, k), f, (enum op)op, pk, err, errlen);
            if (!e) {
                json_decref(value);
                return NULL;
            }
            json_array_append_new(value, e);
        }
    } else {
        if (json_is_array(jv)) {
            fail(err, errlen, "%s: must be a string with operator %s (arrays go with in)", p, op_names[op]);
            return NULL;
        }
        value = canon_value(jv, f, (enum op)op, p, err, errlen);
        if (!value)
            return NULL;
    }
    json_t *out = json_pack("{s:s}", "field", f->name);
    if (jn)
        json_object_set(out, "name", (json_t *)jn);
    json_object_set_new(out, "operator", json_string(op_names[op]));
    json_object_set_new(out, "value", value);
    json_object_set_new(out, "negate", json_integer(negate));
    json_object_set_new(out, "ignore_case", json_integer(icase));
    return out;
}

/* The redirect target: an absolute http(s) URL of plain characters, so that
 * it can sit in single quotes in the action list and means itself. */
static int check_redirect_url(const json_t *v, char *err, size_t errlen)
{
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    size_t n = s ? strlen(s) : 0;
    struct url_parts u;
    if (!s || n > WAF_RULE_URL_MAX || n != json_string_length(v) || url_parse(s, &u) != 0) {
        fail(err, errlen, "redirect_url: must be an absolute http or https URL of at most %d bytes",
             WAF_RULE_URL_MAX);
        return -1;
    }
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        /* libmodsecurity 3.0.9 reads any '%' in an action as a macro and
         * refuses the rule, so percent-encoding cannot be carried either. */
        if (*c <= 0x20 || *c >= 0x7f || strchr("'\"\\`<>{}|^%", *c)) {
            fail(err, errlen,
                 "redirect_url: must not contain spaces, quotes, backslashes, '%%' "
                 "or the characters `<>{}|^ (ModSecurity's redirect cannot carry them)");
            return -1;
        }
    }
    return 0;
}

json_t *waf_rule_normalize(const json_t *body, char *err, size_t errlen)
{
    static const char *const members[] = {"rule_name", "description", "enable",      "conditions",
                                          "action",    "status",      "redirect_url"};
    if (!json_is_object(body)) {
        fail(err, errlen, "body: must be a JSON object (a custom rule)");
        return NULL;
    }
    if (only_members(body, members, 7, "", err, errlen))
        return NULL;
    const json_t *name = json_object_get(body, "rule_name");
    if (!name) {
        fail(err, errlen, "rule_name: is required");
        return NULL;
    }
    if (check_label(name, "rule_name", 1, WAF_RULE_NAME_MAX, err, errlen))
        return NULL;
    const json_t *desc = json_object_get(body, "description");
    if (desc && check_label(desc, "description", 0, WAF_RULE_DESC_MAX, err, errlen))
        return NULL;
    int enable = get_switch(body, "enable", 1, "", err, errlen);
    if (enable < 0)
        return NULL;
    const json_t *conds = json_object_get(body, "conditions");
    size_t nc = json_array_size(conds);
    if (!json_is_array(conds) || nc < 1 || nc > WAF_RULE_CONDITIONS_MAX) {
        fail(err, errlen, "conditions: must be an array of 1 to %d conditions", WAF_RULE_CONDITIONS_MAX);
        return NULL;
    }
    const json_t *ja = json_object_get(body, "action");
    if (!ja) {
        fail(err, errlen, "action: is required");
        return NULL;
    }
    int action = json_is_string(ja) ? find_name(actions, 4, json_string_value(ja)) : -1;
    if (action < 0) {
        fail(err, errlen, json_is_string(ja) ? "action: must be one of block, allow, log, redirect"
                                             : "action: must be a string (one of block, allow, log, redirect)");
        return NULL;
    }
    const json_t *js = json_object_get(body, "status");
    long status = 403;
    if (js && action != 0) {
        fail(err, errlen, "status: is only taken with action block");
        return NULL;
    }
    if (js) {
        if (!json_is_integer(js)) {
            fail(err, errlen, "status: must be an integer (400 to 599)");
            return NULL;
        }
        if (json_integer_value(js) < 400 || json_integer_value(js) > 599) {
            fail(err, errlen, "status: must be an integer from 400 to 599");
            return NULL;
        }
        status = (long)json_integer_value(js);
    }
    const json_t *ju = json_object_get(body, "redirect_url");
    if (action == 3 && !ju) {
        fail(err, errlen, "redirect_url: is required with action redirect");
        return NULL;
    }
    if (ju && action != 3) {
        fail(err, errlen, "redirect_url: is only taken with action redirect");
        return NULL;
    }
    if (ju && check_redirect_url(ju, err, errlen))
        return NULL;

    json_t *cl = json_array();
    for (size_t i = 0; i < nc; i++) {
        json_t *c = canon_condition(json_array_get(conds, i), i, err, errlen);
        if (!c) {
            json_decref(cl);
            return NULL;
        }
        json_array_append_new(cl, c);
    }
    json_t *out = json_pack("{s:O,s:s,s:i,s:o,s:s}", "rule_name", name, "description",
                            desc ? json_string_value(desc) : "", "enable", enable, "conditions", cl, "action",
                            actions[action]);
    if (action == 0)
        json_object_set_new(out, "status", json_integer(status));
    if (action == 3)
        json_object_set(out, "redirect_url", (json_t *)ju);
    return out;
}

/* ---- compilation ---- */

/* A user's regex with its double quotes rewritten so that the SecRule
 * lexer cannot end the operator early; same meaning for PCRE. -1 when the
 * regex cannot be carried (a trailing lone backslash, \c"). */
static int rx_quote_user(struct strbuf *b, const char *re)
{
    bool in_q = false;
    for (const char *p = re; *p; p++) {
        char c[4] = {*p, 0, 0, 0};
        if (in_q) {
            if (p[0] == '\\' && p[1] == 'E') {
                sb_add(b, "\\E");
                p++;
                in_q = false;
            } else if (*p == '"' || *p == '%') {
                sb_printf(b, "\\E\\x%02x\\Q", *p);
            } else {
                sb_add(b, c);
            }
            continue;
        }
        if (*p == '"' || *p == '%') {
            sb_printf(b, "\\x%02x", *p);
        } else if (*p == '\\') {
            if (!p[1])
                return -1;
            if (p[1] == '"' || p[1] == '%') {
                sb_printf(b, "\\x%02x", p[1]);
            } else if (p[1] == 'c') {
                if (!p[2] || p[2] == '"' || p[2] == '%')
                    return -1;
                c[1] = p[1];
                c[2] = p[2];
                sb_add(b, c);
                p++;
            } else {
                if (p[1] == 'Q')
                    in_q = true;
                c[1] = p[1];
                sb_add(b, c);
            }
            p++;
        } else {
            sb_add(b, c);
        }
    }
    return 0;
}

/* Length of the start-of-pattern items of a regex, "(*UTF)", "(*CRLF)",
 * "(*LIMIT_MATCH=10)"..., which PCRE2 takes only at the very start: "(?i)"
 * goes after them. */
static size_t rx_leading_verbs(const char *re)
{
    size_t n = 0;
    while (re[n] == '(' && re[n + 1] == '*') {
        size_t k = n + 2;
        while ((re[k] >= 'A' && re[k] <= 'Z') || (re[k] >= '0' && re[k] <= '9') || re[k] == '_' ||
               re[k] == '=')
            k++;
        if (re[k] != ')' || k == n + 2)
            break;
        n = k + 1;
    }
    return n;
}

/* The operator text of one condition, unchecked; *rx is set to the offset of
 * an @rx pattern in b. */
static int operator_text_raw(struct strbuf *b, const json_t *c, enum op op, const struct field_def *f,
                             bool icase, size_t *rx)
{
    const json_t *v = json_object_get(c, "value");
    if (json_integer_value(json_object_get(c, "negate")))
        sb_add(b, "!");
    if (op == OP_IP) {
        sb_add(b, "@ipMatch ");
        for (size_t i = 0; i < json_array_size(v); i++)
            sb_printf(b, "%s%s", i ? "," : "", json_string_value(json_array_get(v, i)));
        return 0;
    }
    if (op == OP_IN) {
        sb_add(b, "@rx ");
        *rx = b->len;
        sb_printf(b, "%s\\A(?:", icase ? "(?i)" : "");
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i)
                sb_add(b, "|");
            waf_rx_literal(b, json_string_value(json_array_get(v, i)));
        }
        sb_add(b, ")\\z");
        return 0;
    }
    const char *s = json_string_value(v);
    if (op == OP_REGEX) {
        sb_add(b, "@rx ");
        *rx = b->len;
        size_t verbs = icase ? rx_leading_verbs(s) : 0;
        if (verbs) { /* "(*UTF)(?i)...": the verbs must stay first */
            char head[WAF_RULE_VALUE_MAX + 1];
            memcpy(head, s, verbs);
            head[verbs] = '\0';
            sb_add(b, head);
            s += verbs;
        }
        if (icase)
            sb_add(b, "(?i)");
        size_t start = b->len;
        if (rx_quote_user(b, s) != 0)
            return -1;
        /* A final backslash would escape the closing quote for the lexer. */
        if (b->len > start && b->s[b->len - 1] == '\\')
            sb_add(b, "(?:)");
        return 0;
    }
    if (strpbrk(s, "\"\\%")) {
        sb_add(b, "@rx ");
        *rx = b->len;
        sb_printf(b, "%s%s", icase ? "(?i)" : "", op == OP_EQUALS || op == OP_BEGINS ? "\\A" : "");
        waf_rx_literal(b, s);
        if (op == OP_EQUALS || op == OP_ENDS)
            sb_add(b, "\\z");
        return 0;
    }
    sb_printf(b, "%s ", op_msc[op]);
    if (!icase || f->kind != K_TEXT) {
        sb_add(b, s);
        return 0;
    }
    for (const char *p = s; *p; p++) {
        char t[2] = {(char)tolower((unsigned char)*p), 0};
        sb_add(b, t);
    }
    return 0;
}

/* The operator text of one condition (without the surrounding quotes).
 * Every @rx pattern written here is compiled by PCRE2 with ModSecurity's
 * options before it is kept, as libmodsecurity 3.0.9 loads a pattern that
 * PCRE2 refuses without a word (and the rule then never matches): e.g. an
 * "in" list whose pattern is over PCRE2's size limit. -1 with err set. */
static int operator_text(struct strbuf *b, const json_t *c, enum op op, const struct field_def *f, bool icase,
                         char *err, size_t errlen)
{
    size_t rx = 0; /* where the @rx pattern starts in b, 0 for other operators */
    if (operator_text_raw(b, c, op, f, icase, &rx) != 0) {
        snprintf(err, errlen, "cannot be carried in a ModSecurity rule");
        return -1;
    }
    char why[WAF_ERR_LEN];
    if (rx && waf_regex_check(b->s + rx, why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot be carried in a ModSecurity rule (%.400s)", why);
        return -1;
    }
    return 0;
}

char *waf_rule_compile(const json_t *rule, unsigned slot, char *err, size_t errlen)
{
    if (slot >= WAF_RULE_SLOTS) {
        fail(err, errlen, "slot: must be below %d", WAF_RULE_SLOTS);
        return NULL;
    }
    const json_t *conds = json_object_get(rule, "conditions");
    size_t nc = json_array_size(conds);
    int action = find_name(actions, 4, json_string_value(json_object_get(rule, "action")));
    if (nc < 1 || nc > WAF_RULE_CONDITIONS_MAX || action < 0) {
        fail(err, errlen, "rule: is not a canonical custom rule");
        return NULL;
    }
    /* Links of the chain: a country condition is preceded by @geoLookup. */
    struct link {
        char var[96];
        char *op;
        char xf[96];
    } links[2 * WAF_RULE_CONDITIONS_MAX];
    size_t nl = 0;
    int phase = 1;
    char *out = NULL;
    for (size_t i = 0; i < nc; i++) {
        const json_t *c = json_array_get(conds, i);
        const struct field_def *f = find_field(json_string_value(json_object_get(c, "field")));
        int op = find_name(op_names, 7, json_string_value(json_object_get(c, "operator")));
        if (!f || op < 0) {
            fail(err, errlen, "rule: is not a canonical custom rule");
            goto out;
        }
        bool icase = json_integer_value(json_object_get(c, "ignore_case")) == 1;
        if (f->phase > phase)
            phase = f->phase;
        if (f->kind == K_COUNTRY) {
            struct link *g = &links[nl++];
            snprintf(g->var, sizeof g->var, "REMOTE_ADDR");
            g->op = strdup("@geoLookup");
            g->xf[0] = '\0';
        }
        struct link *l = &links[nl];
        const char *name = json_string_value(json_object_get(c, "name"));
        snprintf(l->var, sizeof l->var, "%s%s%s", f->var, name ? ":" : "", name ? name : "");
        bool literal_lower = icase && op != OP_REGEX && op != OP_IN;
        snprintf(l->xf, sizeof l->xf, "%s%s", f->xforms, literal_lower ? ",t:lowercase" : "");
        struct strbuf b = {0};
        char why[WAF_ERR_LEN];
        if (operator_text(&b, c, (enum op)op, f, icase, why, sizeof why) != 0) {
            sb_free(&b);
            l->op = NULL;
            fail(err, errlen, "conditions[%zu].value: %.400s", i, why);
            goto out;
        }
        l->op = sb_take(&b);
        nl++;
    }
    struct strbuf b = {0};
    for (size_t i = 0; i < nl; i++) {
        sb_printf(&b, "SecRule %s \"%s\" \"", links[i].var, links[i].op);
        if (i == 0) {
            sb_printf(&b, "id:%u,phase:%d,", WAF_RULE_ID_BASE + slot, phase);
            switch (action) {
            case 0:
                sb_printf(&b, "deny,status:%d,log,auditlog,",
                          (int)json_integer_value(json_object_get(rule, "status")));
                break;
            case 1: sb_add(&b, "allow,nolog,"); break;
            case 2: sb_add(&b, "pass,log,auditlog,"); break;
            default:
                sb_printf(&b, "redirect:'%s',log,auditlog,",
                          json_string_value(json_object_get(rule, "redirect_url")));
            }
            sb_add(&b, "msg:'parapet custom rule',tag:'parapet/custom-rule',");
        }
        sb_printf(&b, "t:none%s%s\"\n", links[i].xf, i + 1 < nl ? ",chain" : "");
    }
    out = sb_take(&b);
out:
    for (size_t i = 0; i < nl; i++)
        free(links[i].op);
    return out;
}

json_t *waf_rule_check(const json_t *body, char *err, size_t errlen)
{
    json_t *rule = waf_rule_normalize(body, err, errlen);
    if (!rule)
        return NULL;
    char *text = waf_rule_compile(rule, 0, err, errlen);
    char why[WAF_ERR_LEN];
    if (!text || waf_msc_check_remembered("SecRuleEngine On\n", text, why, sizeof why) != 0) {
        if (text)
            fail(err, errlen, "rule: ModSecurity refused it: %s", why);
        free(text);
        json_decref(rule);
        return NULL;
    }
    free(text);
    return rule;
}
