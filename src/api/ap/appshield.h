/* appshield.h — AppShield, shared inside the family: the pure rules of the
 * policy (IP list entries, status-code overwrites, the switch tree), unit
 * tested on their own, and the policy document every AppShield handler
 * reads and writes (port_policy, which the WAF's document uses as well).
 *
 * The policy of one domain port is one resource of kind "ap.appshield"
 * (named "appshield", so at most one per domain port) under that domain
 * port, made on the first write; until then reads answer the defaults:
 *   {"ip_black_list": ["192.0.2.1", "198.51.100.0/24", "203.0.113.1-203.0.113.9"],
 *    "ip_white_list": [...],
 *    "status_codes": [{"error_code": 404, "error_code_rewrite": 200,
 *                      "error_page_type": "2", "error_page_info": "https://..."}],
 *    "switches": {"p_auth": 0, "p_error_rewrite": 1, ..., "accept_invalid_http_request": 0, ...}} */
#ifndef PARAPET_API_AP_APPSHIELD_H
#define PARAPET_API_AP_APPSHIELD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/net.h"
#include "core/req.h"

enum {
    APPSHIELD_LIST_MAX = 200,          /* entries of one IP list of one domain port */
    APPSHIELD_ENTRY_TEXT_MAX = 2 * 64, /* "first-last": two NET_TEXT_MAX addresses fit */
    APPSHIELD_URL_MAX = 2048,          /* error_page_info */
};

/* ---- IP list entries (appshield_range.c) ----
 * An entry is a single address ("192.0.2.1"), a block ("198.51.100.0/24",
 * host bits clear) or an inclusive range of one family ("203.0.113.1-
 * 203.0.113.9", first <= last). Each is kept as its first and last address. */
struct ip_range {
    struct ip_addr first, last;
};

/* Parses one entry (surrounding spaces allowed). Returns 0 with *out set and
 * its canonical text in text (a range of one address is that address; IPv6
 * in RFC 5952 form), or -1 with the rule it breaks in *why. */
int ip_range_parse(const char *s, struct ip_range *out, char text[APPSHIELD_ENTRY_TEXT_MAX],
                   const char **why);
bool ip_range_overlaps(const struct ip_range *a, const struct ip_range *b);

/* Splits a comma-separated value into canonical entries (a JSON array of
 * strings, new reference): NULL with err ("ip_black_list[1]: must be ...")
 * when an entry is malformed, empty, or given twice, or there are more than
 * `max`. `field` names the field in messages. */
json_t *ip_entries_parse(const char *value, const char *field, size_t max, char *err, size_t errlen);

/* The first entry of `list` (canonical strings) that overlaps `entry`:
 * its index, or -1. */
long ip_list_find_overlap(const json_t *list, const struct ip_range *entry);

/* ---- status-code overwrites (appshield_status.c) ---- */
/* RULE for error_code: 400-417 or 500-505. */
const char *rule_overwritable_status(const json_t *value, long unused);
/* The stored entry for the checked fields, or NULL with err and *code (an
 * enum err) when they do not fit together: error_page_info is required
 * (E_FIELD_MISSING) and an http(s) URL (E_FIELD_INVALID) with type "2", and
 * absent or empty otherwise (E_RULE). */
json_t *status_entry_make(long long code, long long rewrite, const char *page_type, const char *page_info,
                          int *code_out, char *err, size_t errlen);
/* The index of the entry for `code` in the list, or -1. */
long status_entry_find(const json_t *list, long long code);

/* ---- switches (appshield_switch.c) ----
 * Top-level policies p_auth, p_error_rewrite, p_filt, p_malf and p_wbl; the
 * sub-switches of p_malf (accept_invalid_http_request, advanced) and of
 * p_wbl (api, bypass, mobile, spider, ua_black_list, and — gap A2.7 —
 * ua_white_list, monitor). Every switch's `name` is its key, and the form
 * field `name` of POST {ASH}/switch takes any of them. */
#define APPSHIELD_SWITCH_NAMES                                                                               \
    "p_auth", "p_error_rewrite", "p_filt", "p_malf", "p_wbl", "accept_invalid_http_request", "advanced",     \
        "api", "bypass", "mobile", "spider", "ua_black_list", "ua_white_list", "monitor"

/* The stored switch states: {"p_auth": 0, ...} for every name, defaults. */
json_t *appshield_switches_default(void);
/* Sets one switch in the stored states; -1 when the name is unknown. */
int appshield_switch_set(json_t *states, const char *name, int enable);
/* The GET {ASH}/switches tree of stored states (missing ones: defaults). */
json_t *appshield_switches_view(const json_t *states);

/* ---- the policy documents of a domain port (appshield_policy.c) ----
 * AppShield ("ap.appshield") and WAF ("ap.waf") each keep one document per
 * domain port, a child resource named "policy" made on the first write;
 * until then reads answer the defaults and nothing is stored. The reserved
 * domain_port_id 449cbcf57ff0ba74 names the site level: its policies are
 * children of the site. A policy kind thus has two kinds of parent, so its
 * res_kind names none (the store then checks only that the parent is the
 * same customer's); ap_domain_port_from_path has checked the chain. */
extern const struct res_kind AP_APPSHIELD;

struct port_policy {
    struct resource site, port; /* the path's chain, loaded and checked */
    struct resource res;        /* res.rid == 0 while the policy is not stored */
    json_t *doc;                /* == res.doc; belongs to the request */
};
/* What the policies of the path hang under: the domain port, or the site
 * for the site level. */
const struct resource *policy_owner(const struct port_policy *p);
/* Loads and checks only the chain of the path into p (no document). */
int policy_chain_load(struct req *r, struct port_policy *p);
/* Loads the customer -> site -> domain-port chain of the path (the one 404
 * for unknown and foreign ids) and the policy of `kind` there, or a new one
 * from `defaults()`. Returns 0, or -1 having replied. */
int port_policy_load(struct req *r, const struct res_kind *kind, json_t *(*defaults)(void),
                     struct port_policy *p);
/* Stores the policy (creating it on the first write). Returns 0, or -1
 * having replied with the store's error. */
int port_policy_save(struct req *r, const struct res_kind *kind, struct port_policy *p);

/* The AppShield policy: port_policy_load with its defaults. */
json_t *appshield_default(void);
int appshield_load(struct req *r, struct port_policy *p);

#endif
