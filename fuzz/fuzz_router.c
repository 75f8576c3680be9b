/* fuzz_router.c — router_match over the real route table with arbitrary
 * methods and paths. Input: [method byte] path.
 * Invariants: a match has the asked method (HEAD served by GET), one decoded
 * value per {param}, and the template filled with those values fully
 * %-encoded reaches the same route with the same values; a 405 names
 * methods the path takes but not the one asked. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/router.h"
#include "fuzz_assert.h"

static struct router *rt;

/* Fills the route's template with the match's values, every byte %XX (so
 * no value can be taken for a literal segment). Returns false if it would
 * not fit the router's limits. */
static bool rebuild(const struct route_match *m, char *out, size_t size)
{
    char full[ROUTER_MAX_PATH];
    route_full_path(m->route, full, sizeof full);
    size_t o = 0;
    int k = 0;
    for (const char *p = full; *p;) {
        if (*p == '{') {
            const char *v = m->params[k++].value;
            if (strlen(v) * 3 >= sizeof m->params[0].value)
                return false; /* the encoded segment would be too long */
            for (; *v; v++) {
                if (o + 4 >= size)
                    return false;
                o += (size_t)snprintf(out + o, size - o, "%%%02X", (unsigned char)*v);
            }
            p = strchr(p, '}') + 1;
        } else {
            if (o + 2 >= size)
                return false;
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
    return o < ROUTER_MAX_PATH;
}

static int count_params(const char *tmpl)
{
    int n = 0;
    for (; *tmpl; tmpl++)
        n += *tmpl == '{';
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!rt) {
        const char *why = NULL;
        rt = router_build(routes, routes_count, &why);
        FUZZ_ASSERT(rt);
    }
    if (size < 1)
        return 0;
    enum http_method m = (enum http_method)(data[0] % (M_OTHER + 1));
    char path[ROUTER_MAX_PATH + 64];
    size_t n = size - 1 < sizeof path - 1 ? size - 1 : sizeof path - 1;
    memcpy(path, data + 1, n);
    path[n] = '\0';

    struct route_match mt;
    switch (router_match(rt, m, path, &mt)) {
    case ROUTER_NO_PATH: FUZZ_ASSERT(mt.route == NULL); break;
    case ROUTER_NO_METHOD:
        FUZZ_ASSERT(mt.route == NULL && mt.allow[0]);
        if (m == M_GET || m == M_HEAD)
            FUZZ_ASSERT(!strstr(mt.allow, "GET"));
        else if (m != M_OTHER)
            FUZZ_ASSERT(!strstr(mt.allow, method_name(m)));
        break;
    case ROUTER_MATCH: {
        const struct route *r = mt.route;
        FUZZ_ASSERT(r && (r->method == m || (m == M_HEAD && r->method == M_GET)));
        FUZZ_ASSERT(mt.nparams == count_params(r->path));
        for (int i = 0; i < mt.nparams; i++)
            FUZZ_ASSERT(mt.params[i].name && mt.params[i].value[0]);
        char again[ROUTER_MAX_PATH * 4];
        if (rebuild(&mt, again, sizeof again)) {
            struct route_match m2;
            FUZZ_ASSERT(router_match(rt, m, again, &m2) == ROUTER_MATCH && m2.route == r);
            FUZZ_ASSERT(m2.nparams == mt.nparams);
            for (int i = 0; i < mt.nparams; i++)
                FUZZ_ASSERT(strcmp(m2.params[i].value, mt.params[i].value) == 0);
        }
        break;
    }
    }
    return 0;
}
