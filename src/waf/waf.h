/* waf.h — the Web Application Firewall's domain, the whole interface of
 * src/waf/: custom rules and their ModSecurity form (rule.c), the OWASP
 * protections and their mapping to the Core Rule Set (owasp.c), secure
 * headers (headers.c), and the libmodsecurity/PCRE2 checks (msc.c). The
 * Application Protection API (src/api/ap/) and the nginx renderer
 * (src/dataplane/nginx/) both use it; it uses only src/base/. */
#ifndef PARAPET_WAF_H
#define PARAPET_WAF_H

#include <jansson.h>
#include <stddef.h>

/* ---- rule.c: WAF custom rules (gap A2.9): the JSON model the API takes,
 * its validation, and its compilation to one ModSecurity v3 SecRule chain.
 *
 *   {"rule_name": "no admin from outside",           required, 1-64 characters
 *    "description": "",                              optional, 0-512 characters
 *    "enable": 1,                                    optional 0/1, default 1
 *    "conditions": [                                 required, 1-8, all must match
 *      {"field": "path", "operator": "begins_with", "value": "/admin",
 *       "negate": 0, "ignore_case": 1},
 *      {"field": "source_ip", "operator": "ip_match", "value": ["192.0.2.0/24"], "negate": 1}],
 *    "action": "block",                              block | allow | log | redirect
 *    "status": 403,                                  block only: 400-599, default 403
 *    "redirect_url": "https://example.com/"}         redirect only, required there
 *
 * Fields: uri, path, query, args, arg (+name), arg_names, body, method,
 * source_ip, country, headers, header (+name), header_names, cookies,
 * cookie (+name), cookie_names. Operators: contains, equals, begins_with,
 * ends_with, regex, in (value: array), ip_match (source_ip only; array of
 * addresses/blocks). method and country take equals/in only.
 *
 * A domain port's rules form one ModSecurity rules file of their own (one
 * nginx server block), so ids are local to a domain port: the rule in slot n
 * (0-9999, kept by the store for the rule's life) gets id 10000 + n. */
enum {
    WAF_RULE_ID_BASE = 10000,
    WAF_RULE_SLOTS = 10000, /* slots 0..9999: ids 10000..19999 */
    WAF_RULE_NAME_MAX = 64,
    WAF_RULE_DESC_MAX = 512,
    WAF_RULE_CONDITIONS_MAX = 8,
    WAF_RULE_VALUE_MAX = 1024, /* bytes of one value */
    WAF_RULE_LIST_MAX = 64,    /* entries of an "in" / "ip_match" list */
    WAF_RULE_URL_MAX = 2048,
    WAF_ERR_LEN = 512, /* room for a message from these functions */
};

/* Checks a custom rule body (POST/PUT) and returns its canonical form: every
 * optional member present with its default, addresses in canonical text,
 * countries and methods in upper case. NULL when the body breaks a rule;
 * err then names the member path and the rule, e.g.
 * "conditions[1].operator: must be one of contains, equals, ...". */
json_t *waf_rule_normalize(const json_t *body, char *err, size_t errlen);

/* The ModSecurity text (a SecRule chain ending in a newline, malloc'd) of a
 * canonical rule in slot `slot`. A disabled rule compiles too: the caller
 * leaves it out of the file. NULL with err if the rule cannot be expressed
 * (it was not canonical, or slot is out of range). */
char *waf_rule_compile(const json_t *rule, unsigned slot, char *err, size_t errlen);

/* What a write endpoint runs: normalize, compile in slot 0 and have
 * libmodsecurity load the text. Returns the canonical rule, or NULL with
 * err (ModSecurity's own message when it refused the text). */
json_t *waf_rule_check(const json_t *body, char *err, size_t errlen);

/* ---- owasp.c: the OWASP protections of a domain port (gaps A2.10-A2.12):
 * the keys and their configuration types, each key's mapping to the OWASP
 * Core Rule Set 3.3 of Debian's modsecurity-crs (or to a small rule of
 * parapet's own where the CRS has no group), validation of the action-switch
 * bodies, the default configuration, the GET shape, and the ModSecurity texts:
 * one per domain port and one shared after the CRS rules files.
 *
 * Stored configuration (what waf_owasp_default returns and _apply changes):
 *   {"enable": 1, "attacks": {"xss": {"enable": 1, "action": "block"}, ...}}
 * Members by type:
 *   general, simple2:  enable (0/1), action ("block" | "log")
 *   simple1:           enable
 *   advanced1:         enable, action, allowed_domains (names or "*.name"), allow_empty (0/1)
 *   advanced2 (csrf):  enable, action, paths (path prefixes), methods, allowed_domains
 * whitelist_bypass (advanced1) is read only: {"enable": 1}. */
enum waf_owasp_type { WAF_GENERAL, WAF_SIMPLE1, WAF_SIMPLE2, WAF_ADVANCED1, WAF_ADVANCED2 };

enum {
    WAF_OWASP_ID_BASE = 20000, /* parapet's own OWASP rules: ids 20000-20199 */
    WAF_OWASP_DOMAINS_MAX = 64,
    WAF_OWASP_PATHS_MAX = 32,
    WAF_OWASP_PATH_MAX = 256,
};

struct waf_owasp_key {
    const char *name; /* the API's key */
    enum waf_owasp_type type;
    const char *event_name; /* attack_type of WAF events (B.4.20: sqli, oscmd, webscanner) */
    const char *crs_file;   /* CRS rules file of the group, NULL: parapet's own rule or nginx */
    /* CRS rule ids, "ID" or "LO-HI" items split by spaces: removed when the
     * key is off. An item with ":critical"/":error" is a detection rule whose
     * match adds that anomaly score; log mode counts those matches. */
    const char *crs_ids;
    const char *score_var; /* CRS per-category score; log mode subtracts it */
    int outbound;          /* 1: response rules (blocking in phase 4) */
    const char *own_rx;    /* parapet's own detection regex (general keys the CRS lacks) */
    int nginx;             /* 1: carried out by nginx, no ModSecurity text */
};

/* The 23 keys in the document's order; *n gets their number. */
const struct waf_owasp_key *waf_owasp_keys(size_t *n);
const struct waf_owasp_key *waf_owasp_key_find(const char *name);
const char *waf_owasp_type_name(enum waf_owasp_type t); /* "general", "simple1", ... */

/* The configuration of a new domain port (every key present). */
json_t *waf_owasp_default(void);

/* GET {WAF}/owasp: {"enable": 0/1, "waf_attack_list": [{"name", "type",
 * members..., "read_only" (whitelist_bypass only)}]} in the keys' order. */
json_t *waf_owasp_view(const json_t *config);

/* Applies a PUT body to config. key NULL: the action-switch body (general,
 * simple1 and simple2 keys, unvalidated_redirects typed simple2; at least
 * one key). key "anti_leech", "csrf" or "unvalidated_redirects": that key's
 * own endpoint; body NULL (the body is optional there) changes nothing.
 * Members left out keep their values. All or nothing: returns 0, or -1 with
 * err naming the member path ("xss.action: must be block or log"). */
int waf_owasp_apply(json_t *config, const char *key, const json_t *body, char *err, size_t errlen);

/* What the renderer needs to know of the domain port. */
struct waf_owasp_site {
    const char *domain;           /* its domain name (own host for referer checks), or NULL */
    unsigned port;                /* its port (port_security), or 0 */
    const char *const *whitelist; /* AppShield white list: addresses and CIDR blocks */
    size_t whitelist_len;
};

/* The ModSecurity text for one domain port (malloc'd): one nginx server's
 * rules, which nginx runs before the http{} ones of each phase. NULL with
 * err when a whitelist entry is not an address or block. */
char *waf_owasp_render(const json_t *config, const struct waf_owasp_site *site, char *err, size_t errlen);

/* The text every domain port's decision needs, loaded once after the CRS
 * files (nginx's http{} level; malloc'd). */
char *waf_owasp_render_shared(void);

/* The WAF event attack_type (a key of attack_type_summary) of a rule that
 * matched: a CRS rule of a key's group, or one of parapet's own OWASP rules;
 * "others" for anything else (custom rules, CRS groups without a key). */
const char *waf_owasp_attack_type(long rule_id);

/* ---- headers.c: WAF secure headers of a domain port (gaps A2.8, B.4.17):
 * the header sets of the modes low, standard and strict, the validation of
 * a custom policy, the POST body, and the GET shape.
 *
 * Stored state (waf_headers_default, changed by waf_headers_apply):
 *   {"status": 0, "mode": "standard", "custom": {<the six members>}}
 * A custom policy has one member per header, "" meaning "not sent":
 *   strict_transport_security, x_frame_options, x_content_type_options,
 *   referrer_policy, content_security_policy, permissions_policy
 * POST {WAF}/secure-headers takes {"status", "mode", "custom"}, each
 * optional; "custom" members given replace those members.
 * GET answers the state plus "headers": {"Header-Name": "value", ...}, the
 * headers actually added (none while status is 0). */
enum {
    WAF_CSP_MAX = 4096, /* bytes of Content-Security-Policy */
    WAF_PP_MAX = 2048,  /* bytes of Permissions-Policy */
};

/* The headers of a mode ("low", "standard", "strict"; "custom" with its
 * policy) as a new object {"Header-Name": "value"} in a fixed order; NULL
 * for an unknown mode. */
json_t *waf_headers_set(const char *mode, const json_t *custom);

json_t *waf_headers_default(void);

/* Validates a POST body and applies it to state: 0, or -1 with err naming
 * the member ("custom.x_frame_options: must be DENY or SAMEORIGIN"); state
 * is unchanged on error. Values are stored in canonical form. */
int waf_headers_apply(json_t *state, const json_t *body, char *err, size_t errlen);

/* GET {WAF}/secure-headers: {"status", "mode", "custom", "headers"}. */
json_t *waf_headers_view(const json_t *state);

/* ---- msc.c: asks libmodsecurity whether it accepts a piece of rule text,
 * and compiles regular expressions with PCRE2 the way ModSecurity does
 * (libmodsecurity 3.0.9 loads a rule with a broken regex without a word, so
 * regexes are checked here first). One msc_init per process (pthread_once);
 * each check loads the text into a scratch rules set and frees it. */
struct strbuf;

/* Loads `prelude` (may be NULL: e.g. "Include" lines for the Core Rule Set)
 * then `text` into one scratch rules set. Returns 0 when ModSecurity accepts
 * both; -1 with ModSecurity's message in err ("prelude: ..." when the
 * prelude itself failed). */
int waf_msc_check(const char *prelude, const char *text, char *err, size_t errlen);

/* The same for text that reads no file (no Include, no *FromFile, no
 * database: a custom rule as waf_rule_compile writes it), remembering the
 * last WAF_MSC_ACCEPTED texts ModSecurity accepted after `prelude`: a text
 * seen again is accepted without loading it (a rule renamed, described or
 * switched keeps its conditions, and loading it was most of the write). */
enum { WAF_MSC_ACCEPTED = 64 };
int waf_msc_check_remembered(const char *prelude, const char *text, char *err, size_t errlen);

/* How many times libmodsecurity loaded text so far (for tests). */
unsigned long waf_msc_loads(void);

/* Compiles `re` with PCRE2 using ModSecurity's options (DOTALL, MULTILINE).
 * Returns 0, or -1 with "invalid regular expression: <PCRE2 message> at
 * offset N" in err. */
int waf_regex_check(const char *re, char *err, size_t errlen);

/* Appends s as a PCRE literal for a SecRule operator: letters, digits and
 * non-ASCII bytes as they are, every other byte as \xHH, so that no quote,
 * backslash-quote, "%{" macro or space reaches the rule text. */
void waf_rx_literal(struct strbuf *b, const char *s);

#endif
