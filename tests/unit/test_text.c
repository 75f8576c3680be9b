/* test_text.c — base/text.h: UTF-8 checks, copying, percent decoding. */
#include "base/text.h"

#include "unit.h"

#define VALID(lit) utf8_valid(lit, sizeof lit - 1)

TEST(utf8_valid_forms)
{
    CHECK(utf8_valid("", 0));
    CHECK(VALID("plain ascii ~"));
    CHECK(VALID("\xC3\xA9"));         /* é */
    CHECK(VALID("\xE2\x82\xAC"));     /* € */
    CHECK(VALID("\xF0\x9F\x98\x80")); /* U+1F600 */
    CHECK(VALID("\xF4\x8F\xBF\xBF")); /* U+10FFFF, the last code point */
    CHECK(VALID("\xED\x9F\xBF"));     /* U+D7FF, just below the surrogates */
    CHECK(VALID("\xEE\x80\x80"));     /* U+E000, just above them */
    CHECK(VALID("\xC2\x80"));         /* U+0080, smallest 2-byte */
    CHECK(VALID("\xE0\xA0\x80"));     /* U+0800, smallest 3-byte */
    CHECK(VALID("\xF0\x90\x80\x80")); /* U+10000, smallest 4-byte */
    CHECK(VALID("a\0b"));             /* NUL is valid UTF-8; callers refuse it */
}

TEST(utf8_invalid_forms)
{
    CHECK(!VALID("\xF4\x90\x80\x80")); /* above U+10FFFF */
    CHECK(!VALID("\xF5\x80\x80\x80"));
    CHECK(!VALID("\xC0\x80"));         /* overlong NUL */
    CHECK(!VALID("\xC1\xBF"));         /* overlong */
    CHECK(!VALID("\xE0\x80\x80"));     /* overlong */
    CHECK(!VALID("\xE0\x9F\xBF"));     /* overlong U+07FF */
    CHECK(!VALID("\xF0\x80\x80\x80")); /* overlong */
    CHECK(!VALID("\xF0\x8F\xBF\xBF")); /* overlong U+FFFF */
    CHECK(!VALID("\xED\xA0\x80"));     /* U+D800 surrogate */
    CHECK(!VALID("\xED\xBF\xBF"));     /* U+DFFF surrogate */
    CHECK(!VALID("\xC3"));             /* truncated */
    CHECK(!VALID("\xE2\x82"));
    CHECK(!VALID("ab\xF0\x9F\x98"));
    CHECK(!VALID("\x80")); /* lone continuation */
    CHECK(!VALID("a\xBF"
                 "b"));
    CHECK(!VALID("\xC3\x28")); /* bad continuation */
    CHECK(!VALID("\xE2\x28\xAC"));
    CHECK(!VALID("\xF8\x88\x80\x80\x80")); /* 5-byte form */
    CHECK(!VALID("\xFC\x84\x80\x80\x80\x80"));
    CHECK(!VALID("\xFE"));
    CHECK(!VALID("\xFF"));
    CHECK(!utf8_valid("\xC3\xA9", 1));    /* n cuts a sequence */
    CHECK(utf8_valid("\xC3\xA9\xFF", 2)); /* bytes past n are not read */
}

TEST(utf8_length_counts_code_points)
{
    CHECK_INT(utf8_length(""), 0);
    CHECK_INT(utf8_length("abc"), 3);
    CHECK_INT(utf8_length("h\xC3\xA9llo"), 5);
    CHECK_INT(utf8_length("\xE2\x82\xAC\xF0\x9F\x98\x80"), 2);
}

TEST(copy_text_fits_or_truncates)
{
    char buf[6];
    CHECK(copy_text(buf, sizeof buf, "abc"));
    CHECK_STR(buf, "abc");
    CHECK(copy_text(buf, sizeof buf, "abcde")); /* exactly size - 1 */
    CHECK_STR(buf, "abcde");
    CHECK(!copy_text(buf, sizeof buf, "abcdef"));
    CHECK_STR(buf, "abcde"); /* truncated but terminated */
    CHECK(copy_text(buf, 1, ""));
    CHECK(!copy_text(buf, 1, "x"));
    CHECK_STR(buf, "");
}

/* Decodes a literal; the result as text, or "ERR". */
static const char *pd(const char *s, bool plus)
{
    static char out[256];
    long n = percent_decode(s, strlen(s), out, plus);
    if (n < 0)
        return "ERR";
    out[n] = '\0';
    return out;
}

TEST(percent_decode_cases)
{
    CHECK_STR(pd("", true), "");
    CHECK_STR(pd("plain", true), "plain");
    CHECK_STR(pd("a%20b", true), "a b");
    CHECK_STR(pd("%41%62", false), "Ab");
    CHECK_STR(pd("%e2%82%ac", false), "\xE2\x82\xAC"); /* lower-case hex */
    CHECK_STR(pd("%E2%82%AC", false), "\xE2\x82\xAC");
    CHECK_STR(pd("a+b", true), "a b");
    CHECK_STR(pd("a+b", false), "a+b"); /* '+' is literal in paths */
    CHECK_STR(pd("%2B", true), "+");
    CHECK_STR(pd("%2b+", true), "+ ");
    CHECK_STR(pd("100%25", true), "100%");
    CHECK_STR(pd("%", true), "ERR");
    CHECK_STR(pd("%4", true), "ERR");
    CHECK_STR(pd("abc%", true), "ERR");
    CHECK_STR(pd("ab%4", true), "ERR");
    CHECK_STR(pd("%zz", true), "ERR");
    CHECK_STR(pd("%4g", true), "ERR");
    CHECK_STR(pd("%g4", true), "ERR");
    CHECK_STR(pd("%%41", true), "ERR");
    CHECK_STR(pd("% 41", true), "ERR");

    char out[8];
    CHECK_INT(percent_decode("%00x", 4, out, false), 2); /* NUL is decoded; callers refuse it */
    CHECK(out[0] == '\0' && out[1] == 'x');
    CHECK_INT(percent_decode("%41", 2, out, false), -1); /* n ends inside the escape */
    CHECK_INT(percent_decode("%41zzz", 3, out, false), 1);
    CHECK_INT(percent_decode("x", 0, out, false), 0);
}

UNIT_MAIN(UNIT_CASE(utf8_valid_forms), UNIT_CASE(utf8_invalid_forms),
          UNIT_CASE(utf8_length_counts_code_points), UNIT_CASE(copy_text_fits_or_truncates),
          UNIT_CASE(percent_decode_cases))
