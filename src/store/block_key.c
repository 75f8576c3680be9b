/* block_key.c — see block_key.h. */
#include "store/block_key.h"

#include <string.h>

void block_range(const struct cidr *c, uint8_t lo[BLOCK_KEY_LEN], uint8_t hi[BLOCK_KEY_LEN])
{
    memset(lo, 0, BLOCK_KEY_LEN);
    lo[0] = (uint8_t)c->addr.family;
    memcpy(lo + 1, c->addr.b, 16); /* host bits are clear */
    memcpy(hi, lo, BLOCK_KEY_LEN);
    int width = c->addr.family == NET_V4 ? 4 : 16;
    for (int i = 0; i < width; i++) {
        int keep = c->prefix - 8 * i; /* network bits in this byte */
        if (keep <= 0)
            hi[1 + i] = 0xff;
        else if (keep < 8)
            hi[1 + i] |= (uint8_t)(0xff >> keep);
    }
}

int block_ancestors(const struct cidr *c, uint8_t keys[][BLOCK_KEY_LEN])
{
    for (int len = 0; len < c->prefix; len++) {
        uint8_t *k = keys[len];
        memset(k, 0, BLOCK_KEY_LEN);
        k[0] = (uint8_t)c->addr.family;
        memcpy(k + 1, c->addr.b, (size_t)len / 8);
        if (len % 8)
            k[1 + len / 8] = (uint8_t)(c->addr.b[len / 8] & (0xff << (8 - len % 8)));
    }
    return c->prefix;
}

int block_overlaps(struct store *s, block_overlap_query query, const struct cidr *c,
                   const struct block_filter *f, struct block_hit *out, size_t max, size_t *n)
{
    *n = 0;
    uint8_t ancestors[128][BLOCK_KEY_LEN];
    int nanc = block_ancestors(c, ancestors);
    int rc = nanc > 0 ? query(s, c, f, (const uint8_t(*)[BLOCK_KEY_LEN])ancestors, nanc, out, max, n) : 0;
    if (rc == 0 && *n < max)
        rc = query(s, c, f, NULL, 0, out, max, n);
    return rc;
}
