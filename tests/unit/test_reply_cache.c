/* test_reply_cache.c — core/reply_cache.h: an answer is returned (as a copy
 * of its own) only for its key and only under the data version it was kept
 * with; a newer version drops every older answer for good; version 0 and
 * answers over the bounds are never kept. */
#include "core/reply_cache.h"

#include <stdlib.h>
#include <string.h>

#include "unit.h"

static void put(uint64_t version, const char *key, const char *body)
{
    struct cached_reply r = {
        .status = 200, .code = 0, .type = "application/json", .body = (char *)body, .len = strlen(body)};
    reply_cache_put(version, key, strlen(key), &r);
}

/* The body answered for key under version, or NULL; the caller frees it. */
static char *get(uint64_t version, const char *key)
{
    struct cached_reply r;
    if (!reply_cache_get(version, key, strlen(key), &r))
        return NULL;
    CHECK_INT(r.status, 200);
    CHECK_STR(r.type, "application/json");
    CHECK_INT(r.len, strlen(r.body));
    return r.body;
}

TEST(answers_follow_the_version)
{
    char *got = get(5, "a");
    CHECK(got == NULL); /* nothing kept yet */
    static char body[] = "{\"code\":0}";
    put(5, "a", body);
    got = get(5, "a");
    CHECK(got && strcmp(got, body) == 0 && got != body);
    free(got);
    CHECK(get(5, "b") == NULL);  /* another key */
    CHECK(get(5, "ab") == NULL); /* a longer one */
    CHECK(get(6, "a") == NULL);  /* something was committed since */
    CHECK(get(5, "a") == NULL);  /* and the older answer is gone */
}

TEST(version_zero_keeps_nothing)
{
    put(0, "z", "{}");
    CHECK(get(0, "z") == NULL);
}

TEST(bounds)
{
    size_t big = REPLY_CACHE_MAX_BODY + 1;
    char *body = malloc(big + 1);
    CHECK(body != NULL);
    if (!body)
        return;
    memset(body, 'x', big);
    body[big] = '\0';
    put(9, "big", body); /* over the largest answer kept */
    CHECK(get(9, "big") == NULL);
    body[REPLY_CACHE_MAX_BODY] = '\0';
    /* largest answers under distinct keys: the thread's byte budget keeps
     * only so many of them, whatever slots they fall in */
    int kept = 0;
    char key[16];
    for (int i = 0; i < 2 * REPLY_CACHE_SLOTS; i++) {
        snprintf(key, sizeof key, "k%d", i);
        put(9, key, body);
    }
    for (int i = 0; i < 2 * REPLY_CACHE_SLOTS; i++) {
        snprintf(key, sizeof key, "k%d", i);
        char *got = get(9, key);
        kept += got != NULL;
        free(got);
    }
    CHECK(kept >= 1);
    CHECK(kept <= REPLY_CACHE_BYTES / REPLY_CACHE_MAX_BODY);
    free(body);
}

UNIT_MAIN(UNIT_CASE(answers_follow_the_version), UNIT_CASE(version_zero_keeps_nothing), UNIT_CASE(bounds))
