/* router.h — matches a request path against the route table's templates
 * ("/spe/customer/{customer_id}/op/site/{site_id}"). Literal segments win
 * over parameters; the first template (literal-first) that matches the whole
 * path decides, so ".../filter" is never read as a {filter_id}. Pure: no I/O,
 * no allocation while matching. */
#ifndef PARAPET_ROUTER_H
#define PARAPET_ROUTER_H

#include <stddef.h>

#include "core/route.h"

enum { ROUTER_MAX_SEGMENTS = 24, ROUTER_MAX_PARAMS = 8, ROUTER_MAX_PATH = 2048 };

enum router_result { ROUTER_MATCH, ROUTER_NO_PATH, ROUTER_NO_METHOD };

struct route_param {
    const char *name;
    char value[256]; /* percent-decoded */
};

struct route_match {
    const struct route *route;
    struct route_param params[ROUTER_MAX_PARAMS];
    int nparams;
    char allow[64]; /* on ROUTER_NO_METHOD: "GET, POST" */
};

struct router;

/* Builds the trie; NULL (with the reason in *why) when two templates clash. */
struct router *router_build(const struct route *table, size_t n, const char **why);
void router_free(struct router *rt);
/* The full path a route is served at: "/api" + path, except /oauth paths. */
void route_full_path(const struct route *r, char *out, size_t size);
enum router_result router_match(const struct router *rt, enum http_method m, const char *raw_path,
                                struct route_match *out);

#endif
