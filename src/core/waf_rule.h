/* waf_rule.h — WAF custom rules (gap A2.9): the JSON model the API takes,
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
#ifndef PARAPET_WAF_RULE_H
#define PARAPET_WAF_RULE_H

#include <jansson.h>
#include <stddef.h>

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

#endif
