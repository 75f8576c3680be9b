/* grow.h — room for one more element in a malloc'd array that doubles as
 * it fills. */
#ifndef PARAPET_BASE_GROW_H
#define PARAPET_BASE_GROW_H

#include <stddef.h>
#include <stdlib.h>

/* Makes room for element n of the array v (of cap elements; first: the
 * capacity of an empty one): 0, or -1 when memory ran out (v and cap as
 * they were). A GNU statement expression, so that v keeps its type. */
#define GROW_FOR(v, cap, n, first)                                                                          \
    ({                                                                                                     \
        int grow_rc_ = 0;                                                                                  \
        if ((n) >= (cap)) {                                                                                \
            size_t grow_want_ = (cap) ? 2 * (cap) : (first);                                              \
            __typeof__(v) grow_bigger_ = realloc((v), grow_want_ * sizeof *(v));                          \
            if (grow_bigger_)                                                                              \
                (v) = grow_bigger_, (cap) = grow_want_;                                                    \
            else                                                                                           \
                grow_rc_ = -1;                                                                             \
        }                                                                                                  \
        grow_rc_;                                                                                          \
    })

#endif
