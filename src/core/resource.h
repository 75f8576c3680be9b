/* resource.h — what handlers share when they work on generic resources
 * (store/resource.h): loading a resource named by a path parameter, scoped
 * to the request's customer and its parent, with the one answer an unknown
 * id and another tenant's id both get; replies for store refusals; and the
 * address blocks of a field. */
#ifndef PARAPET_CORE_RESOURCE_H
#define PARAPET_CORE_RESOURCE_H

#include "core/req.h"

/* Keeps a JSON value alive until the request ends (released with it). */
json_t *req_hold(struct req *r, json_t *v);

/* Loads the resource of `kind` whose id is the path parameter `param`,
 * belonging to the request's customer and (unless parent is NULL: top
 * level) to `parent`. On failure replies 404 "<param>: no such <noun>" (or
 * a store error) and returns -1. out->doc belongs to the request (released
 * with it: never resource_clear() it); change it in place and res_update. */
int res_from_path(struct req *r, const char *kind, const char *param, const char *noun,
                  const struct resource *parent, struct resource *out);

/* The same without the document (out->doc NULL), for a parent that is only
 * checked: its existence, customer and place in the chain. No document is
 * parsed, and the audit notes none (the request cannot write it back). */
int res_head_from_path(struct req *r, const char *kind, const char *param, const char *noun,
                       const struct resource *parent, struct resource *out);

/* The same for an id that is not a path parameter (e.g. a host_id in a
 * body): replies 404 "<field>: no such <noun>" when it is not found. */
int res_by_id(struct req *r, const char *kind, const char *id, const char *field, const char *noun,
              const struct resource *parent, struct resource *out);

/* Replies for a failed res_* call: STORE_NOT_FOUND -> 404 naming `what`,
 * STORE_CONFLICT -> 409 `conflict` (a printf format taking no argument is
 * fine), other -> 500. Return 0 like the reply_* functions. */
int reply_res_error(struct req *r, int rc, const char *what, const char *conflict);
/* 409 for a delete refused because of `blocker` ({"kind","id"}; consumed). */
int reply_delete_blocked(struct req *r, const char *what, json_t *blocker);

/* The blocks of an array field of canonical "addr/len" strings (see
 * rule_cidr): fills out[max], returns the count, or -1 if it holds more. */
long field_cidrs(struct req *r, const char *name, struct cidr *out, size_t max);

/* A page of a list in the API's usual shape: offset of 1-based page. */
static inline long page_offset(long long page, long page_size)
{
    return (long)((page - 1) * page_size);
}

#endif
