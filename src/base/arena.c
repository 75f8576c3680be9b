/* arena.c — see arena.h. Blocks grow by doubling; a large request gets a
 * block of its own so small allocations keep packing. */
#include "base/arena.h"

#include <stdlib.h>
#include <string.h>

struct arena_block {
    struct arena_block *next;
    size_t used, size;
    max_align_t data[];
};

/* The first block with its header is a 1000-byte malloc: glibc serves
 * sizes up to 1032 from a per-thread cache without locking; bigger ones
 * take the arena path (a typical request needs a few hundred bytes). */
enum { ARENA_FIRST_BLOCK = 1000 - sizeof(struct arena_block) };

void *arena_alloc(struct arena *a, size_t n)
{
    size_t need = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    struct arena_block *b = a->head;
    if (!b || b->size - b->used < need) {
        size_t size = b ? b->size * 2 : ARENA_FIRST_BLOCK;
        if (size < need)
            size = need;
        struct arena_block *nb = malloc(sizeof *nb + size);
        if (!nb)
            abort(); /* out of memory: nothing sensible to answer */
        nb->used = 0;
        nb->size = size;
        nb->next = b;
        a->head = b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

void arena_free(struct arena *a)
{
    struct arena_block *b = a->head;
    while (b) {
        struct arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}
