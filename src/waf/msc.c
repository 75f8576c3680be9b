/* msc.c — see waf.h. */
#include "waf/waf.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <modsecurity/modsecurity.h>
#include <modsecurity/rules_set.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

static pthread_once_t msc_once = PTHREAD_ONCE_INIT;
static ModSecurity *msc;
/* libmodsecurity's rule parser (flex/bison) keeps global state: one load at a time. */
static pthread_mutex_t msc_parse_lock = PTHREAD_MUTEX_INITIALIZER;

static void msc_cleanup_at_exit(void)
{
    if (msc)
        msc_cleanup(msc);
    msc = NULL;
}

static void msc_start(void)
{
    msc = msc_init();
    if (msc) {
        msc_set_connector_info(msc, "parapet rule check");
        atexit(msc_cleanup_at_exit);
    }
}

/* ModSecurity's messages end with a newline and may hold several lines:
 * copy them as one line. */
static void copy_message(char *err, size_t errlen, const char *prefix, const char *msg)
{
    int n = snprintf(err, errlen, "%s%s", prefix, msg && *msg ? msg : "refused by ModSecurity");
    if (n < 0)
        return;
    size_t len = strlen(err);
    while (len > 0 && (err[len - 1] == '\n' || err[len - 1] == ' '))
        err[--len] = '\0';
    for (char *p = err; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

static unsigned long loads; /* under msc_parse_lock */

int waf_msc_check(const char *prelude, const char *text, char *err, size_t errlen)
{
    pthread_once(&msc_once, msc_start);
    if (!msc) {
        snprintf(err, errlen, "libmodsecurity could not start");
        return -1;
    }
    int rc = 0;
    const char *msg = NULL;
    pthread_mutex_lock(&msc_parse_lock);
    loads++;
    RulesSet *rules = msc_create_rules_set();
    if (prelude && msc_rules_add(rules, prelude, &msg) < 0) {
        copy_message(err, errlen, "prelude: ", msg);
        rc = -1;
    } else if (msc_rules_add(rules, text, &msg) < 0) {
        copy_message(err, errlen, "", msg);
        rc = -1;
    }
    free((void *)msg); /* msc_rules_add strdup()s its message */
    msc_rules_cleanup(rules);
    pthread_mutex_unlock(&msc_parse_lock);
    return rc;
}

unsigned long waf_msc_loads(void)
{
    pthread_mutex_lock(&msc_parse_lock);
    unsigned long n = loads;
    pthread_mutex_unlock(&msc_parse_lock);
    return n;
}

/* The texts accepted lately, each after its prelude ("prelude\0text"), in
 * a ring; under `accepted_lock`. */
static struct {
    char *key[WAF_MSC_ACCEPTED];
    size_t len[WAF_MSC_ACCEPTED];
    unsigned next;
} accepted;
static pthread_mutex_t accepted_lock = PTHREAD_MUTEX_INITIALIZER;

static char *accepted_key(const char *prelude, const char *text, size_t *len)
{
    size_t p = prelude ? strlen(prelude) : 0, t = strlen(text);
    char *k = malloc(p + t + 2);
    if (k) {
        memcpy(k, prelude ? prelude : "", p + 1);
        memcpy(k + p + 1, text, t + 1);
    }
    *len = p + t + 1;
    return k;
}

static bool was_accepted(const char *key, size_t len)
{
    bool found = false;
    pthread_mutex_lock(&accepted_lock);
    for (unsigned i = 0; i < WAF_MSC_ACCEPTED && !found; i++)
        found = accepted.key[i] && accepted.len[i] == len && memcmp(accepted.key[i], key, len) == 0;
    pthread_mutex_unlock(&accepted_lock);
    return found;
}

/* Takes key. */
static void remember_accepted(char *key, size_t len)
{
    pthread_mutex_lock(&accepted_lock);
    unsigned i = accepted.next++ % WAF_MSC_ACCEPTED;
    free(accepted.key[i]);
    accepted.key[i] = key;
    accepted.len[i] = len;
    pthread_mutex_unlock(&accepted_lock);
}

int waf_msc_check_remembered(const char *prelude, const char *text, char *err, size_t errlen)
{
    size_t len;
    char *key = accepted_key(prelude, text, &len);
    if (key && was_accepted(key, len)) {
        free(key);
        return 0;
    }
    int rc = waf_msc_check(prelude, text, err, errlen);
    if (rc == 0 && key)
        remember_accepted(key, len);
    else
        free(key);
    return rc;
}

int waf_regex_check(const char *re, char *err, size_t errlen)
{
    int code;
    PCRE2_SIZE offset;
    pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_DOTALL | PCRE2_MULTILINE,
                                  &code, &offset, NULL);
    if (c) {
        pcre2_code_free(c);
        return 0;
    }
    PCRE2_UCHAR buf[256];
    if (pcre2_get_error_message(code, buf, sizeof buf) < 0)
        snprintf((char *)buf, sizeof buf, "error %d", code);
    snprintf(err, errlen, "invalid regular expression: %s at offset %zu", (char *)buf, (size_t)offset);
    return -1;
}

void waf_rx_literal(struct strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p >= 0x80) {
            char c[2] = {(char)*p, 0};
            sb_add(b, c);
        } else {
            sb_printf(b, "\\x%02x", *p);
        }
    }
}
