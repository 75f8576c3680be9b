/* fuzz_assert.h — an invariant a fuzz target checks: a broken one traps, so
 * libFuzzer reports it as a crash with the input that broke it. */
#ifndef PARAPET_FUZZ_ASSERT_H
#define PARAPET_FUZZ_ASSERT_H

#define FUZZ_ASSERT(c)                                                                                       \
    do {                                                                                                     \
        if (!(c))                                                                                            \
            __builtin_trap();                                                                                \
    } while (0)

#endif
