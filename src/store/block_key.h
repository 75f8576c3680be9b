/* block_key.h — address blocks as [lo, hi] ranges of 17-byte keys (the
 * family, 4 or 6, then the address in 16 bytes, IPv4 left-aligned), so that
 * overlap and containment are bytewise range tests in either backend and the
 * families never meet. */
#ifndef PARAPET_BLOCK_KEY_H
#define PARAPET_BLOCK_KEY_H

#include <stdint.h>

#include "core/net.h"

enum { BLOCK_KEY_LEN = 17 };

/* The keys of the first and last address of a block. */
void block_range(const struct cidr *c, uint8_t lo[BLOCK_KEY_LEN], uint8_t hi[BLOCK_KEY_LEN]);

#endif
