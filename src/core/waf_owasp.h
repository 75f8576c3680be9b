/* waf_owasp.h — the OWASP protections of a domain port (gaps A2.10-A2.12):
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
#ifndef PARAPET_WAF_OWASP_H
#define PARAPET_WAF_OWASP_H

#include <jansson.h>
#include <stddef.h>

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

#endif
