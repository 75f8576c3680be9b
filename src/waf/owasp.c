/* owasp.c — see waf.h.
 *
 * How the text works with the Core Rule Set (anomaly scoring, Debian's
 * crs-setup.conf). nginx merges a server's ModSecurity rules *before* the
 * http{} ones in every phase (measured: a server's phase-2 rule runs before
 * CRS's phase-2 rules), so nothing a domain port's text does in phase 2 can
 * follow the CRS. Hence two texts:
 * - the shared text (waf_owasp_render_shared), loaded once after the CRS:
 *   CRS's own decisions (949110 inbound, 959100 outbound) are removed and
 *   parapet's (ids 20190-20197) block on the anomaly score minus what the
 *   keys in log mode added: each such key's category score (tx.xss_score,
 *   ...) or, for keys without one, what its rules added, counted through
 *   SecRuleUpdateActionById into tx.parapet_cnt_<key>;
 * - a domain port's text (waf_owasp_render): a key that is off has its CRS
 *   rules removed (SecRuleRemoveById); a key in log mode is flagged in phase
 *   1 (tx.parapet_log_<key>=1) for the shared decision. Keys the CRS has no
 *   group for get one parapet rule each, which denies or
 * only logs by itself. */
#include "waf/waf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dnsname.h"
#include "base/net.h"
#include "base/strbuf.h"

#define OWN_VARS_ARGS "ARGS|ARGS_NAMES|REQUEST_COOKIES"

static const struct waf_owasp_key keys[] = {
    {"coldfusion_injection", WAF_GENERAL, "coldfusion_injection", NULL, NULL, NULL, 0,
     "(?i)<cf(?:execute|script|file|http|include|object|invoke|registry|directory|query|set|"
     "output|dump|location|module|import)\\b|\\bcreateobject\\s*\\(",
     0},
    {"email_injection", WAF_GENERAL, "email_injection", NULL, NULL, NULL, 0,
     "(?i)[\\r\\n]\\s*(?:to|cc|bcc|from|reply-to|subject|content-type|mime-version)\\s*:", 0},
    {"ldap_injection", WAF_GENERAL, "ldap_injection", "REQUEST-921-PROTOCOL-ATTACK.conf", "921200:critical",
     NULL, 0, NULL, 0},
    {"os_cmd_injection", WAF_GENERAL, "oscmd", "REQUEST-932-APPLICATION-ATTACK-RCE.conf", "932000-932999",
     "tx.rce_score", 0, NULL, 0},
    {"path_traversal", WAF_GENERAL, "path_traversal", "REQUEST-930-APPLICATION-ATTACK-LFI.conf",
     "930000-930999", "tx.lfi_score", 0, NULL, 0},
    {"phpcode_injection", WAF_GENERAL, "phpcode_injection", "REQUEST-933-APPLICATION-ATTACK-PHP.conf",
     "933000-933999", "tx.php_injection_score", 0, NULL, 0},
    {"sql_injection", WAF_GENERAL, "sqli", "REQUEST-942-APPLICATION-ATTACK-SQLI.conf", "942000-942999",
     "tx.sql_injection_score", 0, NULL, 0},
    {"ssi", WAF_GENERAL, "ssi", NULL, NULL, NULL, 0,
     "(?i)<!--\\s*#\\s*(?:exec|include|echo|config|fsize|flastmod|printenv|set|if|elif)\\b", 0},
    {"xml_injection", WAF_GENERAL, "xml_injection", NULL, NULL, NULL, 0,
     "(?i)<!\\[CDATA\\[|<\\?xml\\b|<!DOCTYPE\\b", 0},
    {"xss", WAF_GENERAL, "xss", "REQUEST-941-APPLICATION-ATTACK-XSS.conf", "941000-941999", "tx.xss_score", 0,
     NULL, 0},
    {"xxe_injection", WAF_GENERAL, "xxe_injection", NULL, NULL, NULL, 0,
     "(?i)<!(?:DOCTYPE|ENTITY)[^>]*\\b(?:SYSTEM|PUBLIC)\\b", 0},
    {"encryption", WAF_SIMPLE1, "encryption", NULL, NULL, NULL, 0, NULL, 1},
    {"error_code_handing", WAF_SIMPLE1, "error_code_handing", "RESPONSE-950-DATA-LEAKAGES.conf",
     "950100:error", NULL, 1, NULL, 0},
    {"force_remove_header", WAF_SIMPLE1, "force_remove_header", NULL, NULL, NULL, 0, NULL, 1},
    {"port_security", WAF_SIMPLE1, "port_security", NULL, NULL, NULL, 0, NULL, 0},
    {"components_leak", WAF_SIMPLE2, "components_leak",
     "RESPONSE-952-DATA-LEAKAGES-JAVA.conf RESPONSE-953-DATA-LEAKAGES-PHP.conf "
     "RESPONSE-954-DATA-LEAKAGES-IIS.conf",
     "952100-952110:error 953100-953120:error 954100-954130:error", NULL, 1, NULL, 0},
    {"sensitive_leak", WAF_SIMPLE2, "sensitive_leak",
     "RESPONSE-950-DATA-LEAKAGES.conf RESPONSE-951-DATA-LEAKAGES-SQL.conf",
     "950130:error 950140:error 951110-951260:critical", NULL, 1, NULL, 0},
    {"session_fixation", WAF_SIMPLE2, "session_fixation",
     "REQUEST-943-APPLICATION-ATTACK-SESSION-FIXATION.conf", "943000-943999", "tx.session_fixation_score", 0,
     NULL, 0},
    {"web_scanner", WAF_SIMPLE2, "webscanner", "REQUEST-913-SCANNER-DETECTION.conf", "913100-913120:critical",
     NULL, 0, NULL, 0},
    {"anti_leech", WAF_ADVANCED1, "anti_leech", NULL, NULL, NULL, 0, NULL, 0},
    {"unvalidated_redirects", WAF_ADVANCED1, "unvalidated_redirects", NULL, NULL, NULL, 1, NULL, 0},
    {"whitelist_bypass", WAF_ADVANCED1, "whitelist_bypass", NULL, NULL, NULL, 0, NULL, 0},
    {"csrf", WAF_ADVANCED2, "csrf", NULL, NULL, NULL, 0, NULL, 0},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const char *const type_names[] = {"general", "simple1", "simple2", "advanced1", "advanced2"};
static const char *const csrf_methods[] = {"POST", "PUT", "PATCH", "DELETE"};

__attribute__((format(printf, 3, 4))) static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

const struct waf_owasp_key *waf_owasp_keys(size_t *n)
{
    *n = NKEYS;
    return keys;
}

const struct waf_owasp_key *waf_owasp_key_find(const char *name)
{
    for (size_t i = 0; name && i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

const char *waf_owasp_type_name(enum waf_owasp_type t)
{
    return (unsigned)t < 5 ? type_names[t] : "?";
}

static bool is_whitelist(const struct waf_owasp_key *k)
{
    return strcmp(k->name, "whitelist_bypass") == 0;
}

static json_t *key_default(const struct waf_owasp_key *k)
{
    if (is_whitelist(k))
        return json_pack("{s:i}", "enable", 1);
    int on = 1;
    const char *action = "block";
    if (k->outbound && k->type == WAF_SIMPLE2)
        action = "log"; /* refusing responses can break a site: log until asked */
    if (!strcmp(k->name, "encryption") || !strcmp(k->name, "port_security"))
        on = 0;
    switch (k->type) {
    case WAF_GENERAL:
    case WAF_SIMPLE2: return json_pack("{s:i,s:s}", "enable", on, "action", action);
    case WAF_SIMPLE1: return json_pack("{s:i}", "enable", on);
    case WAF_ADVANCED1:
        return json_pack("{s:i,s:s,s:[],s:i}", "enable", 0, "action", "block", "allowed_domains",
                         "allow_empty", 1);
    default:
        return json_pack("{s:i,s:s,s:[],s:[ssss],s:[]}", "enable", 0, "action", "block", "paths", "methods",
                         "POST", "PUT", "PATCH", "DELETE", "allowed_domains");
    }
}

json_t *waf_owasp_default(void)
{
    json_t *attacks = json_object();
    for (size_t i = 0; i < NKEYS; i++)
        json_object_set_new(attacks, keys[i].name, key_default(&keys[i]));
    return json_pack("{s:i,s:o}", "enable", 1, "attacks", attacks);
}

json_t *waf_owasp_view(const json_t *config)
{
    const json_t *attacks = json_object_get(config, "attacks");
    json_t *list = json_array();
    for (size_t i = 0; i < NKEYS; i++) {
        json_t *e = json_pack("{s:s,s:s}", "name", keys[i].name, "type", type_names[keys[i].type]);
        json_t *cur = json_object_get(attacks, keys[i].name);
        json_t *dflt = cur ? NULL : key_default(&keys[i]);
        /* one member order, whatever order the stored document has */
        static const char *const order[] = {"enable",  "action",          "paths",
                                            "methods", "allowed_domains", "allow_empty"};
        for (size_t m = 0; m < sizeof order / sizeof order[0]; m++) {
            json_t *v = json_object_get(cur ? cur : dflt, order[m]);
            if (v)
                json_object_set(e, order[m], v);
        }
        json_object_update_missing(e, cur ? cur : dflt);
        json_decref(dflt);
        if (is_whitelist(&keys[i]))
            json_object_set_new(e, "read_only", json_integer(1));
        json_array_append_new(list, e);
    }
    json_t *en = json_object_get(config, "enable");
    return json_pack("{s:I,s:o}", "enable", (json_int_t)(en ? json_integer_value(en) : 1), "waf_attack_list",
                     list);
}

/* ---- validation ---- */

static int want_switch(const json_t *v, const char *path, const char *m, char *err, size_t errlen)
{
    if (!json_is_integer(v)) { /* another JSON type: the type error of a form field */
        fail(err, errlen, "%s%s: must be an integer (0 or 1)", path, m);
        return -1;
    }
    if (json_integer_value(v) != 0 && json_integer_value(v) != 1) {
        fail(err, errlen, "%s%s: must be 0 or 1", path, m);
        return -1;
    }
    return 0;
}

/* allowed_domains: names (optionally "*." for every subdomain), canonical. */
static json_t *canon_domains(const json_t *v, const char *path, char *err, size_t errlen)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n > WAF_OWASP_DOMAINS_MAX) {
        fail(err, errlen, "%sallowed_domains: must be an array of at most %d domain names", path,
             WAF_OWASP_DOMAINS_MAX);
        return NULL;
    }
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        const char *s = json_string_value(e);
        char name[DNS_NAME_MAX + 1], why[DNS_WHY_MAX] = "must be a domain name";
        bool wild = s && strncmp(s, "*.", 2) == 0;
        if (!s || strlen(s) != json_string_length(e) ||
            zone_name_normalise(wild ? s + 2 : s, name, why) != 0) {
            fail(err, errlen, "%sallowed_domains[%zu]: %s", path, i, s ? why : "must be a string");
            json_decref(out);
            return NULL;
        }
        char full[DNS_NAME_MAX + 3];
        snprintf(full, sizeof full, "%s%s", wild ? "*." : "", name);
        json_array_append_new(out, json_string(full));
    }
    return out;
}

static json_t *canon_paths(const json_t *v, const char *path, char *err, size_t errlen)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n > WAF_OWASP_PATHS_MAX) {
        fail(err, errlen, "%spaths: must be an array of at most %d path prefixes", path, WAF_OWASP_PATHS_MAX);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        const char *s = json_string_value(e);
        size_t len = s ? strlen(s) : 0;
        bool ok = s && len == json_string_length(e) && len >= 1 && len <= WAF_OWASP_PATH_MAX && s[0] == '/';
        for (size_t k = 0; ok && k < len; k++)
            ok = s[k] > 0x20 && s[k] < 0x7f;
        if (!ok) {
            fail(err, errlen,
                 "%spaths[%zu]: must be a path prefix starting with '/', 1 to %d "
                 "printable characters without spaces",
                 path, i, WAF_OWASP_PATH_MAX);
            return NULL;
        }
    }
    return json_deep_copy(v);
}

static json_t *canon_methods(const json_t *v, const char *path, char *err, size_t errlen)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n < 1 || n > 4) {
        fail(err, errlen, "%smethods: must be an array of 1 to 4 of POST, PUT, PATCH, DELETE", path);
        return NULL;
    }
    bool seen[4] = {false};
    for (size_t i = 0; i < n; i++) {
        const char *s = json_string_value(json_array_get(v, i));
        int m = -1;
        for (int k = 0; s && k < 4; k++)
            if (strcasecmp(s, csrf_methods[k]) == 0)
                m = k;
        if (m < 0 || seen[m]) {
            fail(err, errlen, "%smethods[%zu]: must be %sone of POST, PUT, PATCH, DELETE, once%s", path, i,
                 s ? "" : "a string (", s ? "" : ")");
            return NULL;
        }
        seen[m] = true;
    }
    json_t *out = json_array();
    for (int k = 0; k < 4; k++)
        if (seen[k])
            json_array_append_new(out, json_string(csrf_methods[k]));
    return out;
}

/* Applies the members of body to cur (a key's configuration) as `type`. */
static int apply_key(json_t *cur, enum waf_owasp_type type, const json_t *body, const char *path, char *err,
                     size_t errlen)
{
    if (!json_is_object(body)) {
        fail(err, errlen, "%s: must be an object", *path ? path : "body");
        return -1;
    }
    char p[64];
    snprintf(p, sizeof p, "%s%s", path, *path ? "." : "");
    const char *m;
    const json_t *v;
    json_object_foreach ((json_t *)body, m, v) {
        json_t *nv = NULL;
        bool has_action = type != WAF_SIMPLE1;
        bool adv = type == WAF_ADVANCED1 || type == WAF_ADVANCED2;
        if (!strcmp(m, "enable")) {
            if (want_switch(v, p, m, err, errlen))
                return -1;
            nv = json_incref((json_t *)v);
        } else if (!strcmp(m, "action") && has_action) {
            const char *s = json_string_value(v);
            if (!s || (strcmp(s, "block") && strcmp(s, "log"))) {
                fail(err, errlen, "%saction: must be block or log", p);
                return -1;
            }
            nv = json_incref((json_t *)v);
        } else if (!strcmp(m, "allowed_domains") && adv) {
            if (!(nv = canon_domains(v, p, err, errlen)))
                return -1;
        } else if (!strcmp(m, "allow_empty") && type == WAF_ADVANCED1) {
            if (want_switch(v, p, m, err, errlen))
                return -1;
            nv = json_incref((json_t *)v);
        } else if (!strcmp(m, "paths") && type == WAF_ADVANCED2) {
            if (!(nv = canon_paths(v, p, err, errlen)))
                return -1;
        } else if (!strcmp(m, "methods") && type == WAF_ADVANCED2) {
            if (!(nv = canon_methods(v, p, err, errlen)))
                return -1;
        } else {
            fail(err, errlen, "%s%.64s: is not a member of a %s configuration", p, m, type_names[type]);
            return -1;
        }
        json_object_set_new(cur, m, nv);
    }
    return 0;
}

int waf_owasp_apply(json_t *config, const char *key, const json_t *body, char *err, size_t errlen)
{
    json_t *attacks = json_object_get(config, "attacks");
    if (!json_is_object(config) || !json_is_object(attacks)) {
        fail(err, errlen, "config: is not an OWASP configuration");
        return -1;
    }
    json_t *copy = json_deep_copy(attacks);
    int rc = -1;
    if (key) {
        const struct waf_owasp_key *k = waf_owasp_key_find(key);
        if (!k || (k->type != WAF_ADVANCED1 && k->type != WAF_ADVANCED2) || is_whitelist(k)) {
            fail(err, errlen, "key: must be anti_leech, csrf or unvalidated_redirects");
            goto out;
        }
        if (!body) {
            rc = 0;
            goto out;
        }
        json_t *cur = json_object_get(copy, k->name);
        if (!cur) {
            json_object_set_new(copy, k->name, key_default(k));
            cur = json_object_get(copy, k->name);
        }
        if (apply_key(cur, k->type, body, "", err, errlen))
            goto out;
    } else {
        if (!json_is_object(body) || json_object_size(body) == 0) {
            fail(err, errlen, "body: must be an object holding at least one OWASP key");
            goto out;
        }
        const char *name;
        const json_t *v;
        json_object_foreach ((json_t *)body, name, v) {
            const struct waf_owasp_key *k = waf_owasp_key_find(name);
            if (!k) {
                fail(err, errlen, "%.64s: is not an OWASP key", name);
                goto out;
            }
            if (is_whitelist(k)) {
                fail(err, errlen, "%s: is read only", name);
                goto out;
            }
            bool redirects = strcmp(name, "unvalidated_redirects") == 0;
            if ((k->type == WAF_ADVANCED1 || k->type == WAF_ADVANCED2) && !redirects) {
                fail(err, errlen, "%s: is set through PUT .../owasp/action-switch/%s", name, name);
                goto out;
            }
            json_t *cur = json_object_get(copy, k->name);
            if (!cur) {
                json_object_set_new(copy, k->name, key_default(k));
                cur = json_object_get(copy, k->name);
            }
            if (apply_key(cur, redirects ? WAF_SIMPLE2 : k->type, v, name, err, errlen))
                goto out;
        }
    }
    json_object_set(config, "attacks", copy);
    rc = 0;
out:
    json_decref(copy);
    return rc;
}

/* ---- rendering ---- */

static const json_t *key_conf(const json_t *config, const struct waf_owasp_key *k)
{
    return json_object_get(json_object_get(config, "attacks"), k->name);
}

static bool key_on(const json_t *conf)
{
    const json_t *e = json_object_get(conf, "enable");
    return e && json_integer_value(e) == 1;
}

static bool key_logs(const json_t *conf)
{
    const char *a = json_string_value(json_object_get(conf, "action"));
    return a && strcmp(a, "log") == 0;
}

static const char *disruptive(const json_t *conf)
{
    return key_logs(conf) ? "pass,log,auditlog" : "deny,status:403,log,auditlog";
}

/* (?i)\A scheme://[userinfo@](HOSTS)[:port](/|?|#|end) — HOSTS being the
 * site's own name and the allowed domains ("*.x" for any subdomain of x). */
static void url_host_rx(struct strbuf *b, const char *domain, const json_t *allowed, bool scheme_optional)
{
    sb_add(b, scheme_optional ? "(?i)\\A(?:[a-z][a-z0-9+.-]*:)?//" : "(?i)\\A[a-z][a-z0-9+.-]*://");
    sb_add(b, "(?:[^/?#@]*@)?(?:");
    size_t n = 0;
    if (domain && *domain) {
        waf_rx_literal(b, domain);
        n++;
    }
    for (size_t i = 0; i < json_array_size(allowed); i++) {
        const char *d = json_string_value(json_array_get(allowed, i));
        if (!d)
            continue;
        if (n++)
            sb_add(b, "|");
        if (strncmp(d, "*.", 2) == 0) {
            sb_add(b, "(?:[^/?#@:.]+\\x2e)+");
            d += 2;
        }
        waf_rx_literal(b, d);
    }
    if (n == 0)
        sb_add(b, "(?!)");
    sb_add(b, ")(?::[0-9]+)?(?:[/?#]|\\z)");
}

static int render_whitelist(struct strbuf *b, const struct waf_owasp_site *site, char *err, size_t errlen)
{
    if (!site || site->whitelist_len == 0)
        return 0;
    sb_add(b, "# whitelist_bypass: AppShield's white-listed addresses skip the WAF\n");
    sb_add(b, "SecRule REMOTE_ADDR \"@ipMatch ");
    for (size_t i = 0; i < site->whitelist_len; i++) {
        struct cidr c;
        const char *s = site->whitelist[i];
        if (!s || cidr_parse(s, CIDR_ALLOW_BARE, &c) != 0 || c.prefix == 0) {
            fail(err, errlen, "whitelist[%zu]: must be an IP address or CIDR block (not /0)", i);
            return -1;
        }
        char t[NET_TEXT_MAX];
        if (c.prefix == (c.addr.family == NET_V4 ? 32 : 128))
            ip_format(&c.addr, t); /* libmodsecurity 3.0.9 refuses "/128" */
        else
            cidr_format(&c, t);
        sb_printf(b, "%s%s", i ? "," : "", t);
    }
    sb_printf(b, "\" \"id:%d,phase:1,pass,nolog,t:none,ctl:ruleEngine=Off\"\n", WAF_OWASP_ID_BASE);
    return 0;
}

/* Whether a key in log mode takes part in the shared decision: it has CRS
 * rules that add to the anomaly score. */
static bool key_scored(const struct waf_owasp_key *k)
{
    return k->crs_ids && k->type != WAF_SIMPLE1;
}

/* The CRS side of one key in a domain port's text: its rules removed when
 * it is off; when it is in log mode, its flag for the shared decision. */
static void render_crs_key(struct strbuf *b, struct strbuf *flags, const struct waf_owasp_key *k,
                           const json_t *conf)
{
    bool on = key_on(conf), logs = on && key_scored(k) && key_logs(conf);
    if (on && !logs)
        return;
    sb_printf(b, "# %s: %s (%s)\n", k->name, on ? "log only" : "off", k->crs_file);
    if (logs) {
        sb_printf(flags, ",setvar:tx.parapet_log_%s=1", k->name);
        return;
    }
    char items[256];
    snprintf(items, sizeof items, "%s", k->crs_ids);
    for (char *save, *it = strtok_r(items, " ", &save); it; it = strtok_r(NULL, " ", &save)) {
        it[strcspn(it, ":")] = '\0';
        sb_printf(b, "SecRuleRemoveById %s\n", it);
    }
}

/* The shared blocking decision of one direction: CRS's own (949110, 959100)
 * is removed, and parapet's blocks on the anomaly score minus what the keys
 * a domain port has in log mode added to it (each key's category score, or
 * what its rules added as counted through SecRuleUpdateActionById). */
static void render_decision(struct strbuf *b, bool outbound)
{
    const char *dir = outbound ? "outbound" : "inbound";
    int phase = outbound ? 4 : 2, id = WAF_OWASP_ID_BASE + (outbound ? 195 : 190);
    sb_printf(b, "# blocking decision without the log-only protections (replaces CRS %s)\n",
              outbound ? "959100" : "949110");
    sb_printf(b, "SecRuleRemoveById %s\n", outbound ? "959100" : "949110");
    sb_printf(b, "SecAction \"id:%d,phase:%d,pass,nolog,t:none,setvar:'tx.parapet_%s=%%{tx.%s}'\"\n", id, phase,
              dir, outbound ? "outbound_anomaly_score" : "anomaly_score");
    for (size_t i = 0; i < NKEYS; i++) {
        const struct waf_owasp_key *k = &keys[i];
        if (!key_scored(k) || (k->outbound != 0) != outbound)
            continue;
        char counted[96];
        snprintf(counted, sizeof counted, "tx.parapet_cnt_%s", k->name);
        sb_printf(b,
                  "SecRule TX:parapet_log_%s \"@eq 1\" \"id:%d,phase:%d,pass,nolog,t:none,"
                  "setvar:'tx.parapet_%s=-%%{%s}'\"\n",
                  k->name, WAF_OWASP_ID_BASE + 150 + (int)i, phase, dir, k->score_var ? k->score_var : counted);
    }
    sb_printf(b,
              "SecRule TX:PARAPET_%s \"@gt 0\" \"id:%d,phase:%d,deny,status:403,log,auditlog,t:none,"
              "msg:'%s Anomaly Score Exceeded (Total Score: %%{tx.parapet_%s}, log-only protections left "
              "out)',tag:'parapet/owasp',chain\"\n"
              "SecRule TX:PARAPET_%s \"@ge %%{tx.%s_anomaly_score_threshold}\" \"t:none\"\n",
              outbound ? "OUTBOUND" : "INBOUND", id + 2, phase, outbound ? "Outbound" : "Inbound", dir,
              outbound ? "OUTBOUND" : "INBOUND", dir);
}

char *waf_owasp_render_shared(void)
{
    struct strbuf b = {0};
    sb_add(&b, "# parapet's OWASP decision, shared by every domain port (after the Core Rule Set)\n");
    for (size_t i = 0; i < NKEYS; i++) {
        const struct waf_owasp_key *k = &keys[i];
        if (!key_scored(k) || k->score_var)
            continue;
        char items[256];
        snprintf(items, sizeof items, "%s", k->crs_ids);
        for (char *save, *it = strtok_r(items, " ", &save); it; it = strtok_r(NULL, " ", &save)) {
            char *sev = strchr(it, ':');
            if (!sev)
                continue;
            *sev++ = '\0';
            sb_printf(&b, "SecRuleUpdateActionById %s \"setvar:'tx.parapet_cnt_%s=+%%{tx.%s_anomaly_score}'\"\n",
                      it, k->name, sev);
        }
    }
    render_decision(&b, false);
    render_decision(&b, true);
    return sb_take(&b);
}

static void render_own(struct strbuf *b, size_t idx, const struct waf_owasp_key *k, const json_t *conf,
                       const struct waf_owasp_site *site)
{
    if (!key_on(conf))
        return;
    const char *name = k->name;
    if (k->own_rx) {
        bool body =
            !strcmp(name, "xxe_injection") || !strcmp(name, "ssi") || !strcmp(name, "coldfusion_injection");
        sb_printf(b,
                  "SecRule %s%s \"@rx %s\" \"id:%d,phase:2,%s,t:none,t:urlDecodeUni,"
                  "msg:'parapet owasp %s',tag:'parapet/owasp/%s'\"\n",
                  OWN_VARS_ARGS, body ? "|REQUEST_BODY" : "", k->own_rx, WAF_OWASP_ID_BASE + 100 + (int)idx,
                  disruptive(conf), name, name);
        return;
    }
    const json_t *allowed = json_object_get(conf, "allowed_domains");
    const char *domain = site ? site->domain : NULL;
    struct strbuf rx = {0};
    if (!strcmp(name, "port_security")) {
        if (!site || !site->port)
            return;
        sb_printf(b,
                  "SecRule REQUEST_HEADERS:Host \"@rx :([0-9]+)\\z\" \"id:%d,phase:1,deny,"
                  "status:400,log,auditlog,t:none,capture,msg:'parapet owasp port_security: "
                  "Host names another port',tag:'parapet/owasp/port_security',chain\"\n"
                  "SecRule TX:1 \"!@eq %u\" \"t:none\"\n",
                  WAF_OWASP_ID_BASE + 10, site->port);
    } else if (!strcmp(name, "anti_leech")) {
        url_host_rx(&rx, domain, allowed, false);
        int empty_ok = json_integer_value(json_object_get(conf, "allow_empty")) == 1;
        sb_printf(b,
                  "SecRule REQUEST_HEADERS:Referer \"!@rx %s%s\" \"id:%d,phase:1,%s,t:none,"
                  "msg:'parapet owasp anti_leech: foreign Referer',tag:'parapet/owasp/anti_leech'\"\n",
                  empty_ok ? "\\A\\z|" : "", sb_text(&rx), WAF_OWASP_ID_BASE + 20, disruptive(conf));
        if (!empty_ok)
            sb_printf(b,
                      "SecRule &REQUEST_HEADERS:Referer \"@eq 0\" \"id:%d,phase:1,%s,t:none,"
                      "msg:'parapet owasp anti_leech: no Referer',tag:'parapet/owasp/anti_leech'\"\n",
                      WAF_OWASP_ID_BASE + 21, disruptive(conf));
    } else if (!strcmp(name, "csrf")) {
        url_host_rx(&rx, domain, allowed, false);
        const json_t *methods = json_object_get(conf, "methods"), *paths = json_object_get(conf, "paths");
        sb_add(b, "SecRule REQUEST_METHOD \"@rx \\A(?:");
        for (size_t i = 0; i < json_array_size(methods); i++)
            sb_printf(b, "%s%s", i ? "|" : "", json_string_value(json_array_get(methods, i)));
        sb_printf(b,
                  ")\\z\" \"id:%d,phase:1,%s,t:none,msg:'parapet owasp csrf: foreign Origin or "
                  "Referer',tag:'parapet/owasp/csrf',chain\"\n",
                  WAF_OWASP_ID_BASE + 30, disruptive(conf));
        if (json_array_size(paths)) {
            sb_add(b, "SecRule REQUEST_FILENAME \"@rx \\A(?:");
            for (size_t i = 0; i < json_array_size(paths); i++) {
                if (i)
                    sb_add(b, "|");
                waf_rx_literal(b, json_string_value(json_array_get(paths, i)));
            }
            sb_add(b, ")\" \"t:none,t:urlDecodeUni,t:normalizePath,chain\"\n");
        }
        sb_printf(b, "SecRule REQUEST_HEADERS:Origin|REQUEST_HEADERS:Referer \"!@rx %s\" \"t:none\"\n",
                  sb_text(&rx));
    } else if (!strcmp(name, "unvalidated_redirects")) {
        url_host_rx(&rx, domain, allowed, true);
        sb_printf(b,
                  "SecRule RESPONSE_HEADERS:Location \"@rx (?i)\\A(?:[a-z][a-z0-9+.-]*:)?//\" "
                  "\"id:%d,phase:3,%s,t:none,msg:'parapet owasp unvalidated_redirects: redirect to a "
                  "foreign host',tag:'parapet/owasp/unvalidated_redirects',chain\"\n"
                  "SecRule RESPONSE_HEADERS:Location \"!@rx %s\" \"t:none\"\n",
                  WAF_OWASP_ID_BASE + 40, disruptive(conf), sb_text(&rx));
    }
    sb_free(&rx);
}

char *waf_owasp_render(const json_t *config, const struct waf_owasp_site *site, char *err, size_t errlen)
{
    struct strbuf b = {0}, flags = {0};
    sb_add(&b, "# parapet OWASP protections of one domain port\n");
    if (render_whitelist(&b, site, err, errlen)) {
        sb_free(&b);
        return NULL;
    }
    const json_t *en = json_object_get(config, "enable");
    if (en && json_integer_value(en) == 0) {
        sb_add(&b, "# OWASP protection off: no Core Rule Set rule runs\nSecRuleRemoveById 900000-999999\n");
        return sb_take(&b);
    }
    for (size_t i = 0; i < NKEYS; i++) {
        const json_t *conf = key_conf(config, &keys[i]);
        json_t *dflt = conf ? NULL : key_default(&keys[i]);
        if (!conf)
            conf = dflt;
        if (keys[i].nginx)
            sb_printf(&b, "# %s: %s, carried out by nginx\n", keys[i].name, key_on(conf) ? "on" : "off");
        else if (keys[i].crs_ids)
            render_crs_key(&b, &flags, &keys[i], conf);
        else if (!is_whitelist(&keys[i]))
            render_own(&b, i, &keys[i], conf, site);
        json_decref(dflt);
    }
    if (flags.len)
        sb_printf(&b, "# the keys in log mode, for the shared decision\nSecAction \"id:%d,phase:1,pass,nolog,t:none%s\"\n",
                  WAF_OWASP_ID_BASE + 1, sb_text(&flags));
    sb_free(&flags);
    return sb_take(&b);
}

/* ---- the way back: a matched rule's attack type ---- */

static bool in_items(const char *items, long id)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", items);
    for (char *save, *it = strtok_r(buf, " ", &save); it; it = strtok_r(NULL, " ", &save)) {
        char *end;
        long lo = strtol(it, &end, 10), hi = *end == '-' ? strtol(end + 1, NULL, 10) : lo;
        if (id >= lo && id <= hi)
            return true;
    }
    return false;
}

const char *waf_owasp_attack_type(long rule_id)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (keys[i].crs_ids && in_items(keys[i].crs_ids, rule_id))
            return keys[i].event_name;
    long own = rule_id - WAF_OWASP_ID_BASE;
    if (own >= 100 && own < 100 + (long)NKEYS)
        return keys[own - 100].event_name;
    static const struct {
        long id;
        const char *name;
    } fixed[] = {{10, "port_security"}, {20, "anti_leech"}, {21, "anti_leech"}, {30, "csrf"},
                 {40, "unvalidated_redirects"}};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (own == fixed[i].id)
            return fixed[i].name;
    return "others";
}
