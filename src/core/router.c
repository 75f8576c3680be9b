/* router.c — see router.h. */
#include "core/router.h"

#include "base/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rnode {
    char *literal;       /* this node's segment text (literal children) */
    struct rnode **lits; /* literal children */
    size_t nlits;
    struct rnode *param; /* the one parameter child */
    char *param_name;
    const struct route *by_method[M_OTHER + 1];
};

struct router {
    struct rnode root;
};

static void free_node(struct rnode *n)
{
    for (size_t i = 0; i < n->nlits; i++) {
        free_node(n->lits[i]);
        free(n->lits[i]);
    }
    free(n->lits);
    if (n->param) {
        free_node(n->param);
        free(n->param);
    }
    free(n->literal);
    free(n->param_name);
}

void router_free(struct router *rt)
{
    if (!rt)
        return;
    free_node(&rt->root);
    free(rt);
}

void route_full_path(const struct route *r, char *out, size_t size)
{
    if (strncmp(r->path, "/oauth/", 7) == 0 || strncmp(r->path, "/ingest/", 8) == 0)
        snprintf(out, size, "%s", r->path);
    else
        snprintf(out, size, "/api%s", r->path);
}

static struct rnode *literal_child(struct rnode *n, const char *seg, size_t len, bool create)
{
    for (size_t i = 0; i < n->nlits; i++)
        if (strlen(n->lits[i]->literal) == len && memcmp(n->lits[i]->literal, seg, len) == 0)
            return n->lits[i];
    if (!create)
        return NULL;
    struct rnode *c = calloc(1, sizeof *c);
    c->literal = strndup(seg, len);
    n->lits = realloc(n->lits, (n->nlits + 1) * sizeof *n->lits);
    n->lits[n->nlits++] = c;
    return c;
}

static int insert(struct router *rt, const struct route *r, const char **why)
{
    char full[ROUTER_MAX_PATH];
    route_full_path(r, full, sizeof full);
    struct rnode *n = &rt->root;
    const char *p = full;
    while (*p == '/') {
        p++;
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len >= 2 && p[0] == '{' && p[len - 1] == '}') {
            if (!n->param) {
                n->param = calloc(1, sizeof *n->param);
                n->param_name = strndup(p + 1, len - 2);
            } else if (strlen(n->param_name) != len - 2 || memcmp(n->param_name, p + 1, len - 2) != 0) {
                *why = "two templates name the same path parameter differently";
                return -1;
            }
            n = n->param;
        } else {
            n = literal_child(n, p, len, true);
        }
        p += len;
    }
    if (n->by_method[r->method]) {
        *why = "two routes share a method and a path";
        return -1;
    }
    n->by_method[r->method] = r;
    return 0;
}

struct router *router_build(const struct route *table, size_t n, const char **why)
{
    struct router *rt = calloc(1, sizeof *rt);
    for (size_t i = 0; i < n; i++) {
        if (insert(rt, &table[i], why) != 0) {
            router_free(rt);
            return NULL;
        }
    }
    return rt;
}

static bool has_routes(const struct rnode *n)
{
    for (int m = 0; m <= M_OTHER; m++)
        if (n->by_method[m])
            return true;
    return false;
}

struct segment {
    const char *s;
    size_t len;
};

/* Percent-decodes a path segment ('+' stays '+' in paths); false if the
 * escape is broken, the value too long, or it holds a NUL. */
static bool decode_segment(struct segment seg, char *out, size_t size)
{
    if (seg.len >= size)
        return false;
    long n = percent_decode(seg.s, seg.len, out, false);
    if (n < 0 || memchr(out, '\0', (size_t)n))
        return false;
    out[n] = '\0';
    return true;
}

/* Depth-first, literal first; returns the terminal node or NULL. */
static const struct rnode *walk(const struct rnode *n, const struct segment *segs, int nsegs,
                                struct route_match *m)
{
    if (nsegs == 0)
        return has_routes(n) ? n : NULL;
    for (size_t i = 0; i < n->nlits; i++) {
        const struct rnode *c = n->lits[i];
        if (strlen(c->literal) == segs[0].len && memcmp(c->literal, segs[0].s, segs[0].len) == 0) {
            const struct rnode *t = walk(c, segs + 1, nsegs - 1, m);
            if (t)
                return t;
            break;
        }
    }
    if (n->param && segs[0].len > 0 && m->nparams < ROUTER_MAX_PARAMS) {
        struct route_param *p = &m->params[m->nparams];
        if (!decode_segment(segs[0], p->value, sizeof p->value))
            return NULL;
        p->name = n->param_name;
        m->nparams++;
        const struct rnode *t = walk(n->param, segs + 1, nsegs - 1, m);
        if (t)
            return t;
        m->nparams--;
    }
    return NULL;
}

static void allow_list(const struct rnode *n, char *out, size_t size)
{
    out[0] = '\0';
    for (int m = 0; m <= M_OTHER; m++) {
        if (!n->by_method[m])
            continue;
        if (out[0])
            strncat(out, ", ", size - strlen(out) - 1);
        strncat(out, method_name((enum http_method)m), size - strlen(out) - 1);
    }
}

enum router_result router_match(const struct router *rt, enum http_method m, const char *raw_path,
                                struct route_match *out)
{
    memset(out, 0, sizeof *out);
    size_t plen = strlen(raw_path);
    if (plen == 0 || plen >= ROUTER_MAX_PATH || raw_path[0] != '/')
        return ROUTER_NO_PATH;
    struct segment segs[ROUTER_MAX_SEGMENTS];
    int nsegs = 0;
    const char *p = raw_path;
    while (*p == '/') {
        if (nsegs == ROUTER_MAX_SEGMENTS)
            return ROUTER_NO_PATH;
        p++;
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0)
            return ROUTER_NO_PATH; /* "//" or a trailing slash */
        segs[nsegs].s = p;
        segs[nsegs].len = len;
        nsegs++;
        p += len;
    }
    const struct rnode *t = walk(&rt->root, segs, nsegs, out);
    if (!t)
        return ROUTER_NO_PATH;
    enum http_method look = m == M_HEAD ? M_GET : m;
    if (look > M_OTHER || !t->by_method[look] || look == M_OTHER) {
        allow_list(t, out->allow, sizeof out->allow);
        return ROUTER_NO_METHOD;
    }
    out->route = t->by_method[look];
    return ROUTER_MATCH;
}
