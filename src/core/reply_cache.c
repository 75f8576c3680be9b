/* reply_cache.c — see reply_cache.h. Direct-mapped slots in a thread-local
 * block, freed when the thread ends. Every entry belongs to the block's one
 * version: a lookup or store under another version empties the block first. */
#include "core/reply_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    char *key; /* NULL: empty */
    size_t key_len;
    uint64_t hash;
    struct cached_reply reply;
};

struct reply_cache {
    uint64_t version;
    size_t bytes; /* keys and bodies held */
    struct entry slots[REPLY_CACHE_SLOTS];
};

static __thread struct reply_cache *cache;
static pthread_key_t cache_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void entry_clear(struct reply_cache *c, struct entry *e)
{
    if (!e->key)
        return;
    c->bytes -= e->key_len + e->reply.len;
    free(e->key);
    free(e->reply.body);
    memset(e, 0, sizeof *e);
}

static void cache_free(void *p)
{
    struct reply_cache *c = p;
    for (size_t i = 0; i < REPLY_CACHE_SLOTS; i++)
        entry_clear(c, &c->slots[i]);
    free(c);
}

static void make_key(void)
{
    (void)pthread_key_create(&cache_key, cache_free);
}

static struct reply_cache *own_cache(void)
{
    if (!cache) {
        pthread_once(&key_once, make_key);
        cache = calloc(1, sizeof *cache);
        if (cache && pthread_setspecific(cache_key, cache) != 0) {
            free(cache);
            cache = NULL;
        }
    }
    return cache;
}

/* Empties the block when it holds another version's answers. */
static void to_version(struct reply_cache *c, uint64_t version)
{
    if (c->version == version)
        return;
    for (size_t i = 0; i < REPLY_CACHE_SLOTS && c->bytes; i++)
        entry_clear(c, &c->slots[i]);
    c->version = version;
}

/* FNV-1a, 64 bits. */
static uint64_t hash_of(const char *key, size_t len)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
    return h;
}

bool reply_cache_get(uint64_t version, const char *key, size_t key_len, struct cached_reply *out)
{
    memset(out, 0, sizeof *out);
    if (!cache || version == 0)
        return false;
    to_version(cache, version);
    uint64_t h = hash_of(key, key_len);
    struct entry *e = &cache->slots[h % REPLY_CACHE_SLOTS];
    if (!e->key || e->hash != h || e->key_len != key_len || memcmp(e->key, key, key_len) != 0)
        return false;
    char *body = malloc(e->reply.len + 1);
    if (!body)
        return false;
    memcpy(body, e->reply.body, e->reply.len + 1);
    *out = e->reply;
    out->body = body;
    return true;
}

void reply_cache_put(uint64_t version, const char *key, size_t key_len, const struct cached_reply *reply)
{
    if (version == 0 || !reply->body || reply->len > REPLY_CACHE_MAX_BODY || !own_cache())
        return;
    to_version(cache, version);
    uint64_t h = hash_of(key, key_len);
    struct entry *e = &cache->slots[h % REPLY_CACHE_SLOTS];
    entry_clear(cache, e);
    if (cache->bytes + key_len + reply->len > REPLY_CACHE_BYTES)
        return;
    char *k = malloc(key_len + 1), *body = malloc(reply->len + 1);
    if (!k || !body) {
        free(k);
        free(body);
        return;
    }
    memcpy(k, key, key_len);
    k[key_len] = '\0';
    memcpy(body, reply->body, reply->len);
    body[reply->len] = '\0';
    *e = (struct entry){.key = k, .key_len = key_len, .hash = h, .reply = *reply};
    e->reply.body = body;
    cache->bytes += key_len + reply->len;
}
