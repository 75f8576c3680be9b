/* fuzz_waf_rule.c — waf_rule_normalize and waf_rule_compile on custom rule
 * bodies. Input: [slot byte] JSON text. Invariants: a refusal carries a
 * message; the canonical form is a fixed point; the compiled text is one
 * SecRule line per chain link, each `SecRule VAR "OP" "ACTIONS"` with no
 * double quote inside OP or ACTIONS, OP not ending in a backslash and no
 * "%{" anywhere (so no value can end a string early, add an action or read
 * a macro); and libmodsecurity loads it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "waf/waf.h"

/* Checks one line "SecRule VAR \"OP\" \"ACTIONS\"" (without its newline). */
static void check_line(const char *l, size_t n)
{
    FUZZ_ASSERT(n > 8 && memcmp(l, "SecRule ", 8) == 0);
    const char *q[4];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        FUZZ_ASSERT((unsigned char)l[i] >= 0x20 && l[i] != 0x7f);
        if (l[i] == '"') {
            FUZZ_ASSERT(k < 4);
            q[k++] = l + i;
        }
    }
    FUZZ_ASSERT(k == 4 && q[3] == l + n - 1); /* exactly two quoted strings, the last at the end */
    FUZZ_ASSERT(q[1][-1] != '\\' && q[3][-1] != '\\');
    FUZZ_ASSERT(q[2] == q[1] + 2 && q[1][1] == ' ');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    json_t *body = json_loadb((const char *)data + 1, size - 1, JSON_DECODE_ANY, NULL);
    if (!body)
        return 0;
    char err[WAF_ERR_LEN] = "";
    json_t *rule = waf_rule_normalize(body, err, sizeof err);
    json_decref(body);
    if (!rule) {
        FUZZ_ASSERT(err[0] && strchr(err, ':'));
        return 0;
    }
    json_t *again = waf_rule_normalize(rule, err, sizeof err);
    FUZZ_ASSERT(again && json_equal(again, rule));
    json_decref(again);

    unsigned slot = data[0] * 39u; /* 0..9945 */
    char *text = waf_rule_compile(rule, slot, err, sizeof err);
    if (!text) {
        /* only a regex the quoting cannot carry (PCRE2 refuses those too) */
        FUZZ_ASSERT(strstr(err, "cannot be carried"));
        json_decref(rule);
        return 0;
    }
    FUZZ_ASSERT(!strstr(text, "%{"));
    size_t lines = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        FUZZ_ASSERT(nl);
        check_line(p, (size_t)(nl - p));
        lines++;
        p = nl + 1;
    }
    size_t links = json_array_size(json_object_get(rule, "conditions"));
    for (size_t i = 0; i < json_array_size(json_object_get(rule, "conditions")); i++) {
        const json_t *c = json_array_get(json_object_get(rule, "conditions"), i);
        if (!strcmp(json_string_value(json_object_get(c, "field")), "country"))
            links++;
    }
    FUZZ_ASSERT(lines == links);
    char idtext[32];
    snprintf(idtext, sizeof idtext, "\"id:%u,", WAF_RULE_ID_BASE + slot);
    FUZZ_ASSERT(strstr(text, idtext));
    FUZZ_ASSERT(waf_msc_check("SecRuleEngine On\n", text, err, sizeof err) == 0);
    free(text);
    json_decref(rule);
    return 0;
}
