/* reply_cache.h — rendered answers of read routes, kept per worker thread
 * and trusted only while the store's data version is the one they were read
 * under (store_ops.data_version), as core/auth_cache.h does for token
 * records. A route opts in with ROUTE_CACHED (core/route.h) when its answer
 * is a function of the stored data, the path, the checked fields and the
 * caller only: no clock, no files, nothing held outside the store. Then a
 * repeated read of a large document (the CleanPipe overview of 1,000 hosts:
 * 1,000 stored documents parsed, merged over the catalogue and encoded)
 * costs a lookup and a copy.
 *
 * Any commit, by this process, the admin CLI or (PostgreSQL) another node,
 * changes the version; the first lookup under a new version empties the
 * thread's cache, so no answer outlives the data it was rendered from and
 * memory is given back. A version of 0 ("the store cannot tell") caches
 * nothing. Bounded: REPLY_CACHE_SLOTS answers, REPLY_CACHE_BYTES in all per
 * thread, none over REPLY_CACHE_MAX_BODY. */
#ifndef PARAPET_REPLY_CACHE_H
#define PARAPET_REPLY_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    REPLY_CACHE_SLOTS = 64,
    REPLY_CACHE_BYTES = 2 << 20,
    REPLY_CACHE_MAX_BODY = 512 << 10,
};

struct cached_reply {
    int status;
    long code;
    const char *type; /* a string that outlives every request (a literal) */
    char *body;       /* malloc'd copy, the caller's (NULL on a miss) */
    size_t len;
};

/* On a hit fills *out (out->body a new copy) and answers true. */
bool reply_cache_get(uint64_t version, const char *key, size_t key_len, struct cached_reply *out);
/* Keeps a copy of the answer under (version, key); nothing when it does
 * not fit the bounds. */
void reply_cache_put(uint64_t version, const char *key, size_t key_len, const struct cached_reply *reply);

#endif
