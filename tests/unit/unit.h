/* unit.h — a minimal unit-test harness: each test file defines TEST(name)
 * functions and lists them in a UNIT_MAIN(...) call. CHECK() records a
 * failure and continues; the closing line is "unit <file>: N passed, N failed". */
#ifndef PARAPET_UNIT_H
#define PARAPET_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failed_checks;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__,         \
                    __LINE__, #cond);                                        \
            unit_failed_checks++;                                            \
        }                                                                    \
    } while (0)

#define CHECK_STR(got, want)                                                 \
    do {                                                                     \
        const char *g_ = (got), *w_ = (want);                                \
        if (!g_ || strcmp(g_, w_) != 0) {                                    \
            fprintf(stderr, "  %s:%d: got \"%s\", want \"%s\"\n", __FILE__,  \
                    __LINE__, g_ ? g_ : "(null)", w_);                       \
            unit_failed_checks++;                                            \
        }                                                                    \
    } while (0)

#define CHECK_INT(got, want)                                                 \
    do {                                                                     \
        long long g_ = (long long)(got), w_ = (long long)(want);             \
        if (g_ != w_) {                                                      \
            fprintf(stderr, "  %s:%d: %s = %lld, want %lld\n", __FILE__,     \
                    __LINE__, #got, g_, w_);                                 \
            unit_failed_checks++;                                            \
        }                                                                    \
    } while (0)

#define TEST(name) static void name(void)

struct unit_case {
    const char *name;
    void (*fn)(void);
};

static inline int unit_run(const char *file, const struct unit_case *cases,
                           size_t n)
{
    int passed = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        int before = unit_failed_checks;
        cases[i].fn();
        if (unit_failed_checks == before) {
            passed++;
        } else {
            failed++;
            fprintf(stderr, "FAIL %s\n", cases[i].name);
        }
    }
    printf("unit %s: %d passed, %d failed\n", file, passed, failed);
    return failed ? 1 : 0;
}

#define UNIT_CASE(fn) {#fn, fn}
#define UNIT_MAIN(...)                                                       \
    int main(void)                                                           \
    {                                                                        \
        static const struct unit_case cases_[] = {__VA_ARGS__};              \
        return unit_run(__FILE__, cases_, sizeof cases_ / sizeof cases_[0]); \
    }

#endif
