/* ratelimit.c — see ratelimit.h. A slot holds a seeded 64-bit hash of its
 * key, never the key; a collision (about 2^-64 per pair) merges two keys'
 * counts, which only ever makes a limit stricter. */
#include "core/ratelimit.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gnutls/crypto.h>

enum { WAYS = 4, LOCKS = 64 };

struct slot {
    uint64_t key; /* 0: empty */
    int64_t last_seen;
    int64_t window_start; /* quotas */
    uint32_t count;
    uint32_t failures; /* failures */
    int64_t last_failure, blocked_until;
};

struct ratelimit {
    size_t sets; /* power of two */
    uint64_t seed;
    pthread_mutex_t locks[LOCKS];
    struct slot *slots; /* sets * WAYS */
};

struct ratelimit *ratelimit_new(size_t slots)
{
    size_t sets = 16;
    while (sets * WAYS < slots)
        sets *= 2;
    struct ratelimit *t = calloc(1, sizeof *t);
    if (!t || !(t->slots = calloc(sets * WAYS, sizeof *t->slots))) {
        free(t);
        return NULL;
    }
    t->sets = sets;
    gnutls_rnd(GNUTLS_RND_NONCE, &t->seed, sizeof t->seed);
    for (int i = 0; i < LOCKS; i++)
        pthread_mutex_init(&t->locks[i], NULL);
    return t;
}

void ratelimit_free(struct ratelimit *t)
{
    if (!t)
        return;
    for (int i = 0; i < LOCKS; i++)
        pthread_mutex_destroy(&t->locks[i]);
    free(t->slots);
    free(t);
}

/* FNV-1a over the seed and the key, then a final mix; never 0. */
static uint64_t hash(const struct ratelimit *t, const void *key, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ t->seed;
    const unsigned char *p = key;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h ? h : 1;
}

/* The key's slot in its set, locked (the caller unlocks *lock); when
 * absent and `create`, a fresh slot taking the place of the least recently
 * seen one; NULL when absent and not created. */
static struct slot *find(struct ratelimit *t, uint64_t h, bool create, int64_t now, pthread_mutex_t **lock)
{
    size_t set = (size_t)(h >> 20) & (t->sets - 1);
    *lock = &t->locks[set % LOCKS];
    pthread_mutex_lock(*lock);
    struct slot *s = &t->slots[set * WAYS], *victim = s;
    for (int i = 0; i < WAYS; i++) {
        if (s[i].key == h) {
            s[i].last_seen = now;
            return &s[i];
        }
        if (s[i].key == 0 || (victim->key != 0 && s[i].last_seen < victim->last_seen))
            victim = &s[i];
    }
    if (!create)
        return NULL;
    memset(victim, 0, sizeof *victim);
    victim->key = h;
    victim->last_seen = now;
    return victim;
}

void ratelimit_take(struct ratelimit *t, const void *key, size_t len, unsigned limit, unsigned window_s,
                    int64_t now_ms, struct rl_verdict *out)
{
    if (window_s == 0)
        window_s = 1;
    int64_t window_ms = (int64_t)window_s * 1000, start = now_ms - now_ms % window_ms;
    pthread_mutex_t *lock;
    struct slot *s = find(t, hash(t, key, len), true, now_ms, &lock);
    if (s->window_start != start) {
        s->window_start = start;
        s->count = 0;
    }
    out->limited = s->count >= limit;
    if (!out->limited)
        s->count++;
    out->remaining = limit - s->count;
    pthread_mutex_unlock(lock);
    out->limit = limit;
    out->window_s = window_s;
    out->reset_s = (unsigned)((start + window_ms - now_ms + 999) / 1000);
}

/* Whole seconds, rounded up, of a positive number of milliseconds. */
static unsigned seconds(int64_t ms)
{
    return ms > 0 ? (unsigned)((ms + 999) / 1000) : 0;
}

unsigned ratelimit_blocked(struct ratelimit *t, const void *key, size_t len, int64_t now_ms)
{
    pthread_mutex_t *lock;
    struct slot *s = find(t, hash(t, key, len), false, now_ms, &lock);
    unsigned left = s ? seconds(s->blocked_until - now_ms) : 0;
    pthread_mutex_unlock(lock);
    return left;
}

unsigned ratelimit_fail(struct ratelimit *t, const void *key, size_t len, const struct rl_backoff *b,
                        int64_t now_ms)
{
    pthread_mutex_t *lock;
    struct slot *s = find(t, hash(t, key, len), true, now_ms, &lock);
    int64_t max_ms = (int64_t)b->max_s * 1000;
    if (now_ms - s->last_failure > max_ms)
        s->failures = 0; /* quiet for long enough: start afresh */
    s->last_failure = now_ms;
    s->failures++;
    int64_t block = 0;
    if (s->failures > b->free_failures) {
        unsigned n = s->failures - b->free_failures;
        block = n > 30 ? max_ms : ((int64_t)b->base_s * 1000) << (n - 1);
        if (block > max_ms)
            block = max_ms;
        s->blocked_until = now_ms + block;
    }
    pthread_mutex_unlock(lock);
    return seconds(block);
}

void ratelimit_forgive(struct ratelimit *t, const void *key, size_t len)
{
    pthread_mutex_t *lock;
    struct slot *s = find(t, hash(t, key, len), false, 0, &lock);
    if (s) {
        s->failures = 0;
        s->blocked_until = 0;
    }
    pthread_mutex_unlock(lock);
}
