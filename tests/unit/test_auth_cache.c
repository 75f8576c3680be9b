/* test_auth_cache.c — core/auth_cache.h: entries are returned only under
 * the data version they were stored with, only for their own key, and
 * version 0 caches nothing. */
#include "core/auth_cache.h"

#include "unit.h"

static struct token token(const char *digest, const char *app)
{
    struct token t = {0};
    snprintf(t.digest, sizeof t.digest, "%s", digest);
    snprintf(t.app_id, sizeof t.app_id, "%s", app);
    t.type = TOKEN_ACCESS;
    return t;
}

#define D1 "1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "2222222222222222222222222222222222222222222222222222222222222222"

TEST(token_entries_follow_the_version)
{
    struct token got, t = token(D1, "00000000000000a1");
    CHECK(!auth_cache_get_token(7, D1, &got)); /* nothing stored yet */
    auth_cache_put_token(7, &t);
    CHECK(auth_cache_get_token(7, D1, &got));
    CHECK_STR(got.app_id, "00000000000000a1");
    CHECK(!auth_cache_get_token(8, D1, &got)); /* something was committed since */
    CHECK(!auth_cache_get_token(7, D2, &got)); /* another token */
    CHECK(!auth_cache_get_token(0, D1, &got)); /* the store cannot tell */
}

TEST(version_zero_stores_nothing)
{
    struct token got, t = token(D2, "00000000000000a2");
    auth_cache_put_token(0, &t);
    CHECK(!auth_cache_get_token(0, D2, &got));
}

TEST(customer_entries_follow_the_version)
{
    struct customer got, c = {0};
    snprintf(c.id, sizeof c.id, "00000000000000c1");
    snprintf(c.portal_id, sizeof c.portal_id, "00000000000000f1");
    auth_cache_put_customer(3, &c);
    CHECK(auth_cache_get_customer(3, "00000000000000c1", &got));
    CHECK_STR(got.portal_id, "00000000000000f1");
    CHECK(!auth_cache_get_customer(4, "00000000000000c1", &got));
    CHECK(!auth_cache_get_customer(3, "00000000000000c2", &got));
}

UNIT_MAIN(UNIT_CASE(token_entries_follow_the_version), UNIT_CASE(version_zero_stores_nothing),
          UNIT_CASE(customer_entries_follow_the_version))
