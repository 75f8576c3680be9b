/* waf_msc.h — asks libmodsecurity whether it accepts a piece of rule text,
 * and compiles regular expressions with PCRE2 the way ModSecurity does
 * (libmodsecurity 3.0.9 loads a rule with a broken regex without a word, so
 * regexes are checked here first). One msc_init per process (pthread_once);
 * each check loads the text into a scratch rules set and frees it. */
#ifndef PARAPET_WAF_MSC_H
#define PARAPET_WAF_MSC_H

#include <stddef.h>

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
