/* block_key.h — address blocks as [lo, hi] ranges of 17-byte keys (the
 * family, 4 or 6, then the address in 16 bytes, IPv4 left-aligned), so that
 * overlap and containment are bytewise range tests in either backend and the
 * families never meet. */
#ifndef PARAPET_BLOCK_KEY_H
#define PARAPET_BLOCK_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "base/net.h"

struct store;
struct block_filter;
struct block_hit;

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

/* One query of a backend's overlap lookup, adding at most max - *n rows to
 * out in (first address, rid) order: with ancestors, the blocks starting at
 * one of those nanc keys before c that reach into it; without, the blocks
 * starting inside c. */
typedef int (*block_overlap_query)(struct store *s, const struct cidr *c, const struct block_filter *f,
                                   const uint8_t (*ancestors)[BLOCK_KEY_LEN], int nanc, struct block_hit *out,
                                   size_t max, size_t *n);
/* store_ops.blocks_overlapping on top of a backend's query: the containing
 * blocks first (they start before c), then those inside. */
int block_overlaps(struct store *s, block_overlap_query query, const struct cidr *c,
                   const struct block_filter *f, struct block_hit *out, size_t max, size_t *n);

#endif
