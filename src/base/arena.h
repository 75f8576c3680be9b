/* arena.h — per-request bump allocator: everything a request allocates for
 * itself (decoded path parameters, copies of header values) is released in
 * one call when the request completes. */
#ifndef PARAPET_ARENA_H
#define PARAPET_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
    struct arena_block *head;
};

void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
void arena_free(struct arena *a);

#endif
