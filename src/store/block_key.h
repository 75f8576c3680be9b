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

/* The blocks overlapping a block c are those starting inside it and those
 * containing its first address; a CIDR block containing that address
 * starts at it masked to the block's own length. block_ancestors() writes
 * those starts for every length shorter than c's (c->prefix keys, at most
 * 128) into keys, one after another, and returns their number: the
 * overlap queries look them up in the index instead of walking every block
 * below c. */
int block_ancestors(const struct cidr *c, uint8_t keys[][BLOCK_KEY_LEN]);

#endif
