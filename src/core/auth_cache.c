/* auth_cache.c — see auth_cache.h. The slots live in a thread-local block,
 * allocated on a thread's first store and freed when the thread ends. */
#include "core/auth_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"

enum {
    TOKEN_SLOTS = 512,   /* ~110 KiB */
    CUSTOMER_SLOTS = 128 /* ~200 KiB */
};

struct auth_cache {
    struct {
        uint64_t version; /* 0: empty */
        struct token t;
    } tokens[TOKEN_SLOTS];
    struct {
        uint64_t version;
        struct customer c;
    } customers[CUSTOMER_SLOTS];
};

static __thread struct auth_cache *cache;
static pthread_key_t cache_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void make_key(void)
{
    pthread_key_create(&cache_key, free);
}

static struct auth_cache *own_cache(void)
{
    if (!cache) {
        pthread_once(&key_once, make_key);
        cache = calloc(1, sizeof *cache);
        if (cache)
            pthread_setspecific(cache_key, cache);
    }
    return cache;
}

/* FNV-1a over the first characters: digests and ids are random hex. */
static size_t slot_of(const char *key, size_t slots)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 16 && key[i]; i++)
        h = (h ^ (unsigned char)key[i]) * 16777619u;
    return h % slots;
}

bool auth_cache_get_token(uint64_t version, const char *digest, struct token *out)
{
    if (!cache || version == 0)
        return false;
    size_t i = slot_of(digest, TOKEN_SLOTS);
    if (cache->tokens[i].version != version || !ct_streq(cache->tokens[i].t.digest, digest))
        return false;
    *out = cache->tokens[i].t;
    return true;
}

void auth_cache_put_token(uint64_t version, const struct token *t)
{
    if (version == 0 || !own_cache())
        return;
    size_t i = slot_of(t->digest, TOKEN_SLOTS);
    cache->tokens[i].version = version;
    cache->tokens[i].t = *t;
}

bool auth_cache_get_customer(uint64_t version, const char *id, struct customer *out)
{
    if (!cache || version == 0)
        return false;
    size_t i = slot_of(id, CUSTOMER_SLOTS);
    if (cache->customers[i].version != version || strcmp(cache->customers[i].c.id, id) != 0)
        return false;
    *out = cache->customers[i].c;
    return true;
}

void auth_cache_put_customer(uint64_t version, const struct customer *c)
{
    if (version == 0 || !own_cache())
        return;
    size_t i = slot_of(c->id, CUSTOMER_SLOTS);
    cache->customers[i].version = version;
    cache->customers[i].c = *c;
}
