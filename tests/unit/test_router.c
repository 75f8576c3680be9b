/* test_router.c — core/router.h over a small table of its own (and a
 * consistency check of the real table in src/routes.def). */
#include "core/router.h"

#include <stdlib.h>

#include "unit.h"

#define R(id_, m_, path_)                                                                                    \
    {                                                                                                        \
        .id = (id_), .method = (m_), .path = (path_)                                                         \
    }

static const struct route table[] = {
    R("cust.list", M_GET, "/spe/customers"), R("cust.get", M_GET, "/spe/customer/{customer_id}"),
    R("cust.del", M_DELETE, "/spe/customer/{customer_id}"),
    R("site.get", M_GET, "/spe/customer/{customer_id}/op/site/{site_id}"),
    /* a literal segment next to a parameter at the same depth */
    R("apf.list", M_GET, "/specp/ap/site/{site_id}/advanced-payload-filtering/filter"),
    R("apf.create", M_POST, "/specp/ap/site/{site_id}/advanced-payload-filtering/filter"),
    R("apf.get", M_GET, "/specp/ap/site/{site_id}/advanced-payload-filtering/{filter_id}"),
    R("apf.delete", M_DELETE, "/specp/ap/site/{site_id}/advanced-payload-filtering/{filter_id}"),
    /* the literal branch dead-ends for /x/1/literal/other: back to {b} */
    R("bt.literal", M_GET, "/x/{a}/literal/end"), R("bt.param", M_GET, "/x/{a}/{b}/other"),
    R("token", M_POST, "/oauth/access_token"),
    R("oauthx", M_GET, "/oauthx"), /* not an /oauth/ path: under /api */
};
enum { NTABLE = sizeof table / sizeof table[0] };

static struct router *rt;

/* Matches and describes: "<route id> name=value ...", "404" or "405 <allow>". */
static const char *match(enum http_method m, const char *path)
{
    static char out[1024];
    struct route_match rm;
    switch (router_match(rt, m, path, &rm)) {
    case ROUTER_NO_PATH: return "404";
    case ROUTER_NO_METHOD: snprintf(out, sizeof out, "405 %s", rm.allow); return out;
    case ROUTER_MATCH: break;
    }
    snprintf(out, sizeof out, "%s", rm.route->id);
    for (int i = 0; i < rm.nparams; i++) {
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, " %s=%s", rm.params[i].name, rm.params[i].value);
    }
    return out;
}

TEST(build)
{
    const char *why = NULL;
    rt = router_build(table, NTABLE, &why);
    CHECK(rt != NULL);
    CHECK(why == NULL);
}

TEST(literal_and_params)
{
    CHECK_STR(match(M_GET, "/api/spe/customers"), "cust.list");
    CHECK_STR(match(M_GET, "/api/spe/customer/c1"), "cust.get customer_id=c1");
    CHECK_STR(match(M_DELETE, "/api/spe/customer/c1"), "cust.del customer_id=c1");
    CHECK_STR(match(M_GET, "/api/spe/customer/c1/op/site/s9"), "site.get customer_id=c1 site_id=s9");
}

TEST(literal_wins_over_param)
{
    const char *base = "/api/specp/ap/site/s1/advanced-payload-filtering/";
    char p[256];
    snprintf(p, sizeof p, "%sfilter", base);
    CHECK_STR(match(M_GET, p), "apf.list site_id=s1");
    CHECK_STR(match(M_POST, p), "apf.create site_id=s1");
    /* the literal decides: DELETE on ".../filter" is 405, never a {filter_id} */
    CHECK_STR(match(M_DELETE, p), "405 GET, POST");
    snprintf(p, sizeof p, "%sf123", base);
    CHECK_STR(match(M_GET, p), "apf.get site_id=s1 filter_id=f123");
    CHECK_STR(match(M_DELETE, p), "apf.delete site_id=s1 filter_id=f123");
    CHECK_STR(match(M_POST, p), "405 GET, DELETE");
    snprintf(p, sizeof p, "%sfilters", base); /* near-miss literal is a parameter */
    CHECK_STR(match(M_GET, p), "apf.get site_id=s1 filter_id=filters");
}

TEST(backtracking)
{
    CHECK_STR(match(M_GET, "/api/x/1/literal/end"), "bt.literal a=1");
    CHECK_STR(match(M_GET, "/api/x/1/literal/other"), "bt.param a=1 b=literal");
    CHECK_STR(match(M_GET, "/api/x/1/two/other"), "bt.param a=1 b=two");
    CHECK_STR(match(M_GET, "/api/x/1/literal/none"), "404");
    CHECK_STR(match(M_GET, "/api/x/1/literal"), "404"); /* an inner node with no routes */
}

TEST(methods)
{
    CHECK_STR(match(M_HEAD, "/api/spe/customers"), "cust.list"); /* HEAD is served by GET */
    CHECK_STR(match(M_HEAD, "/oauth/access_token"), "405 POST");
    CHECK_STR(match(M_GET, "/oauth/access_token"), "405 POST");
    CHECK_STR(match(M_POST, "/oauth/access_token"), "token");
    CHECK_STR(match(M_POST, "/api/spe/customers"), "405 GET");
    CHECK_STR(match(M_PATCH, "/api/spe/customer/c1"), "405 GET, DELETE");
    CHECK_STR(match(M_OPTIONS, "/api/spe/customers"), "405 GET");
    CHECK_STR(match(M_OTHER, "/api/spe/customers"), "405 GET");
    CHECK_STR(match(M_PUT, "/api/nothing"), "404"); /* unknown path beats unknown method */
}

TEST(percent_decoded_params)
{
    CHECK_STR(match(M_GET, "/api/spe/customer/a%20b"), "cust.get customer_id=a b");
    CHECK_STR(match(M_GET, "/api/spe/customer/a+b"), "cust.get customer_id=a+b"); /* '+' is literal */
    CHECK_STR(match(M_GET, "/api/spe/customer/a%2Fb"), "cust.get customer_id=a/b");
    CHECK_STR(match(M_GET, "/api/spe/customer/%C3%A9"), "cust.get customer_id=\xC3\xA9");
    CHECK_STR(match(M_GET, "/api/spe/customer/%zz"), "404");
    CHECK_STR(match(M_GET, "/api/spe/customer/a%2"), "404");
    CHECK_STR(match(M_GET, "/api/spe/customer/a%00b"), "404");
    CHECK_STR(match(M_GET, "/api/spe/%63ustomers"), "404"); /* literals are compared undecoded */

    char p[600] = "/api/spe/customer/";
    memset(p + strlen(p), 'v', 255);
    CHECK(strncmp(match(M_GET, p), "cust.get customer_id=vvv", 24) == 0); /* 255 bytes fit */
    strcat(p, "v");
    CHECK_STR(match(M_GET, p), "404");
}

TEST(odd_paths)
{
    CHECK_STR(match(M_GET, "/api/spe/customers/"), "404");
    CHECK_STR(match(M_GET, "//api/spe/customers"), "404");
    CHECK_STR(match(M_GET, "/api//spe/customers"), "404");
    CHECK_STR(match(M_GET, "/api/spe/customer//op/site/s"), "404"); /* empty parameter */
    CHECK_STR(match(M_GET, ""), "404");
    CHECK_STR(match(M_GET, "/"), "404");
    CHECK_STR(match(M_GET, "api/spe/customers"), "404");
    CHECK_STR(match(M_GET, "/api/spe"), "404");
    CHECK_STR(match(M_GET, "/API/spe/customers"), "404");
    CHECK_STR(match(M_GET, "/spe/customers"), "404");           /* no /api prefix */
    CHECK_STR(match(M_POST, "/api/oauth/access_token"), "404"); /* /oauth is not under /api */
    CHECK_STR(match(M_GET, "/oauthx"), "404");
    CHECK_STR(match(M_GET, "/api/oauthx"), "oauthx");
    CHECK_STR(match(M_GET, "/api/spe/customers?x=1"), "404"); /* the caller strips the query */
}

/* Builds a one-route router for `path` and matches the route's full path. */
static bool reaches_itself(const char *path)
{
    const struct route one[] = {R("one", M_GET, path)};
    const char *why = NULL;
    struct router *r = router_build(one, 1, &why);
    char full[ROUTER_MAX_PATH * 2];
    route_full_path(&one[0], full, sizeof full);
    struct route_match m;
    bool ok = r && router_match(r, M_GET, full, &m) == ROUTER_MATCH;
    router_free(r);
    return ok;
}

TEST(path_limits)
{
    /* the whole path must be shorter than ROUTER_MAX_PATH bytes */
    char p[ROUTER_MAX_PATH + 8] = "/";
    memset(p + 1, 'a', ROUTER_MAX_PATH - 4 - 2); /* "/api/" + 2042 = 2047 bytes */
    CHECK(reaches_itself(p));
    strcat(p, "a");
    CHECK(!reaches_itself(p));
    /* at most ROUTER_MAX_SEGMENTS segments, "api" included */
    char deep[256] = "";
    for (int i = 0; i < ROUTER_MAX_SEGMENTS - 1; i++)
        strcat(deep, "/s");
    CHECK(reaches_itself(deep));
    strcat(deep, "/s");
    CHECK(!reaches_itself(deep));
}

TEST(full_paths)
{
    char out[128];
    route_full_path(&table[0], out, sizeof out);
    CHECK_STR(out, "/api/spe/customers");
    route_full_path(&table[10], out, sizeof out);
    CHECK_STR(out, "/oauth/access_token");
    route_full_path(&table[11], out, sizeof out);
    CHECK_STR(out, "/api/oauthx");
}

TEST(build_rejects_clashes)
{
    static const struct route dup[] = {R("a", M_GET, "/spe/x/{id}"), R("b", M_POST, "/spe/x/{id}"),
                                       R("c", M_GET, "/spe/x/{id}")};
    const char *why = NULL;
    CHECK(router_build(dup, 3, &why) == NULL);
    CHECK_STR(why, "two routes share a method and a path");
    struct router *ok = router_build(dup, 2, &why); /* same path, two methods: fine */
    CHECK(ok != NULL);
    router_free(ok);

    static const struct route names[] = {R("a", M_GET, "/spe/x/{id}"), R("b", M_GET, "/spe/x/{x_id}/y")};
    why = NULL;
    CHECK(router_build(names, 2, &why) == NULL);
    CHECK_STR(why, "two templates name the same path parameter differently");

    static const struct route oauth[] = {R("a", M_GET, "/oauth/t"), R("b", M_GET, "/api/oauth/t")};
    ok = router_build(oauth, 2, &why); /* different full paths */
    CHECK(ok != NULL);
    router_free(ok);
    router_free(NULL);
}

/* Every real route is reached by its own path, with "{x}" filled in. */
TEST(real_table_round_trip)
{
    const char *why = NULL;
    struct router *real = router_build(routes, routes_count, &why);
    CHECK(real != NULL);
    if (!real)
        return;
    for (size_t i = 0; i < routes_count; i++) {
        char full[ROUTER_MAX_PATH], path[ROUTER_MAX_PATH], *o = path;
        route_full_path(&routes[i], full, sizeof full);
        for (const char *p = full; *p;) {
            if (*p == '{') {
                o += sprintf(o, "v%zu", i);
                p = strchr(p, '}') + 1;
            } else {
                *o++ = *p++;
            }
        }
        *o = '\0';
        struct route_match m;
        if (router_match(real, routes[i].method, path, &m) != ROUTER_MATCH || m.route != &routes[i]) {
            fprintf(stderr, "  %s %s does not reach %s\n", method_name(routes[i].method), path, routes[i].id);
            CHECK(0);
        }
    }
    router_free(real);
}

TEST(cleanup)
{
    router_free(rt);
    rt = NULL;
}

UNIT_MAIN(UNIT_CASE(build), UNIT_CASE(literal_and_params), UNIT_CASE(literal_wins_over_param),
          UNIT_CASE(backtracking), UNIT_CASE(methods), UNIT_CASE(percent_decoded_params),
          UNIT_CASE(odd_paths), UNIT_CASE(path_limits), UNIT_CASE(full_paths),
          UNIT_CASE(build_rejects_clashes), UNIT_CASE(real_table_round_trip), UNIT_CASE(cleanup))
