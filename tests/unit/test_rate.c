/* test_rate.c — base/rate.h: "10K", "2.5M", "1G" and their formatting. */
#include "base/rate.h"

#include <stdint.h>

#include "unit.h"

/* rate_parse with no practical maximum; -1/-2 on failure, else the value. */
static long long parse(const char *s)
{
    uint64_t v = 12345;
    int rc = rate_parse(s, UINT64_MAX, &v);
    return rc ? rc : (long long)v;
}

static const char *fmt(uint64_t v)
{
    static char out[RATE_TEXT_MAX];
    rate_format(v, out);
    return out;
}

TEST(plain_and_suffixes)
{
    CHECK_INT(parse("0"), 0);
    CHECK_INT(parse("7"), 7);
    CHECK_INT(parse("10K"), 10000);
    CHECK_INT(parse("10k"), 10000);
    CHECK_INT(parse("3M"), 3000000);
    CHECK_INT(parse("3m"), 3000000);
    CHECK_INT(parse("1G"), 1000000000);
    CHECK_INT(parse("1g"), 1000000000);
    CHECK_INT(parse("0K"), 0);
    CHECK_INT(parse("400G"), 400000000000LL);
}

TEST(decimals)
{
    CHECK_INT(parse("2.5M"), 2500000);
    CHECK_INT(parse("1.001K"), 1001);
    CHECK_INT(parse("0.001K"), 1);
    CHECK_INT(parse("0.5K"), 500);
    CHECK_INT(parse("1.50K"), 1500);
    CHECK_INT(parse("1.5G"), 1500000000);
    CHECK_INT(parse("1.999G"), 1999000000);
    CHECK_INT(parse("1.0"), 1);  /* whole once scaled */
    CHECK_INT(parse("1.5"), -1); /* not a whole number */
    CHECK_INT(parse("0.5"), -1);
    CHECK_INT(parse("1.0005K"), -1); /* more than 3 decimals */
    CHECK_INT(parse("0.0001M"), -1);
    CHECK_INT(parse(".5K"), -1);
    CHECK_INT(parse("5.K"), -1);
    CHECK_INT(parse("5."), -1);
    CHECK_INT(parse("1.2.3K"), -1);
}

TEST(bad_syntax)
{
    static const char *bad[] = {"",    "K",    "k",    "-1",  "+1",    "-1K", " 1K",   "1K ", "1 K",
                                "\t1", "1\n",  "010K", "00",  "01",    "1T",  "1KB",   "1KK", "K1",
                                "1e3", "0x10", "1,5K", "one", "1.5 M", "1/2", "1K\x01"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 42;
        int rc = rate_parse(bad[i], UINT64_MAX, &v);
        if (rc != -1 || v != 42) {
            fprintf(stderr, "  \"%s\" -> %d (%llu)\n", bad[i], rc, (unsigned long long)v);
            CHECK(0);
        }
    }
    uint64_t v;
    CHECK_INT(rate_parse(NULL, 100, &v), -1);
    CHECK_INT(parse("100000000000000000000"), -1); /* 21 characters */
}

TEST(limits_and_overflow)
{
    uint64_t v = 0;
    CHECK_INT(rate_parse("10K", 10000, &v), 0);
    CHECK(v == 10000);
    v = 7;
    CHECK_INT(rate_parse("10.001K", 10000, &v), -2);
    CHECK(v == 7); /* untouched on failure */
    CHECK_INT(rate_parse("0", 0, &v), 0);
    CHECK_INT(rate_parse("1", 0, &v), -2);
    CHECK_INT(parse("99999999999999999999"), -2); /* 20 digits, above 2^64 */
    CHECK_INT(parse("18446744073709551616"), -2); /* 2^64 */
    CHECK_INT(parse("18446744073709552K"), -2);   /* the scaling overflows */
    CHECK_INT(parse("18446744073.709552G"), -1);  /* 4 decimals: syntax first */
    CHECK_INT(parse("18446744074G"), -2);
    CHECK_INT(parse("18446744073.71G"), -2); /* whole part fits, the fraction overflows */
    CHECK_INT(rate_parse("18446744073709551615", UINT64_MAX, &v), 0);
    CHECK(v == UINT64_MAX); /* the largest value is still a value */
    CHECK_INT(rate_parse("18446744073709551614", UINT64_MAX, &v), 0);
    CHECK(v == UINT64_MAX - 1);
    CHECK_INT(rate_parse("18446744073709551K", UINT64_MAX, &v), 0);
    CHECK(v == 18446744073709551000ULL);
    CHECK_INT(rate_parse("18446744073.709G", UINT64_MAX, &v), 0);
    CHECK(v == 18446744073709000000ULL);
}

TEST(format)
{
    CHECK_STR(fmt(0), "0");
    CHECK_STR(fmt(1), "1");
    CHECK_STR(fmt(999), "999");
    CHECK_STR(fmt(1000), "1K");
    CHECK_STR(fmt(1001), "1.001K");
    CHECK_STR(fmt(1010), "1.01K");
    CHECK_STR(fmt(1500), "1.5K");
    CHECK_STR(fmt(2500), "2.5K");
    CHECK_STR(fmt(100000), "100K");
    CHECK_STR(fmt(1000000), "1M");
    CHECK_STR(fmt(1100000), "1.1M");
    CHECK_STR(fmt(2500000), "2.5M");
    CHECK_STR(fmt(1000001), "1000.001K");
    CHECK_STR(fmt(1234567), "1234.567K");
    CHECK_STR(fmt(1000000000), "1G");
    CHECK_STR(fmt(1500000000), "1.5G");
    CHECK_STR(fmt(5000000000000ULL), "5000G");
    CHECK_STR(fmt(999999999999ULL), "999999999.999K");
    CHECK_STR(fmt(1000000000001ULL), "1000000000.001K"); /* K always fits 3 decimals */
}

TEST(round_trip)
{
    static const uint64_t values[] = {0,
                                      1,
                                      999,
                                      1000,
                                      1001,
                                      2500,
                                      999999,
                                      1000000,
                                      1234567,
                                      1000000000,
                                      1500000000,
                                      1000000001,
                                      123456789012ULL,
                                      100000000000000ULL};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint64_t back = 0;
        int rc = rate_parse(fmt(values[i]), UINT64_MAX, &back);
        if (rc != 0 || back != values[i]) {
            fprintf(stderr, "  %llu -> \"%s\" -> %d %llu\n", (unsigned long long)values[i], fmt(values[i]),
                    rc, (unsigned long long)back);
            CHECK(0);
        }
    }
}

TEST(errors)
{
    CHECK_STR(rate_error(-2), "is too large");
    CHECK_STR(rate_error(-1), "must be a number, optionally followed by K, M or G");
}

UNIT_MAIN(UNIT_CASE(plain_and_suffixes), UNIT_CASE(decimals), UNIT_CASE(bad_syntax),
          UNIT_CASE(limits_and_overflow), UNIT_CASE(format), UNIT_CASE(round_trip), UNIT_CASE(errors))
