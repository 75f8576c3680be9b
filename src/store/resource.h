/* resource.h — the generic resource layer of the store (docs/architecture.md).
 *
 * Every resource of the three protection families (sites, networks, hosts,
 * domains, ports, filters, profiles, templates, rules, lists, tasks...) is one
 * record: a kind, a public id, its customer, its parent, an optional name
 * unique within a scope, a JSON document, timestamps and a version. A family
 * declares its kinds as `struct res_kind` constants next to its handlers; a
 * new kind needs no new backend function.
 *
 * Address blocks are the one typed special: a resource may hold a list of
 * CIDR blocks, indexed so that overlap and containment are answered by the
 * store across all families and customers. */
#ifndef PARAPET_RESOURCE_H
#define PARAPET_RESOURCE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/net.h"

enum {
    RES_KIND_MAX = 47,  /* "op.site", "ap.waf.custom_rule", ... */
    RES_ID_MAX = 20,    /* 16 hex, or a decimal serial */
    RES_NAME_MAX = 255, /* names, domain names */
    RES_MAX_BLOCKS = 256, /* address blocks one resource may hold */
};

enum res_name_scope {
    RES_NAME_NONE = 0,   /* the kind has no unique name */
    RES_NAME_IN_PARENT,  /* unique among siblings (top-level kinds: per customer) */
    RES_NAME_GLOBAL,     /* unique on the platform (e.g. Application Protection domains) */
};

/* What a kind is. Declared once per kind by its family, e.g.
 *   const struct res_kind OP_NETWORK = {"op.network", .parent = "op.site",
 *       .name_scope = RES_NAME_IN_PARENT, .restricts_parent = true};
 */
struct res_kind {
    const char *name;
    const char *parent;         /* the parent's kind; NULL: directly under the customer */
    bool serial_id;             /* decimal ids from a per-kind counter, never reused; else 16 random hex */
    enum res_name_scope name_scope;
    /* While a resource of this kind exists its parent cannot be deleted
     * (STORE_CONFLICT naming it); otherwise it goes with its parent. */
    bool restricts_parent;
};

struct resource {
    char kind[RES_KIND_MAX + 1];
    char id[RES_ID_MAX + 1];
    char customer_id[17];
    int64_t rid;        /* the store's key; parents are referred to by it */
    int64_t parent_rid; /* 0: directly under the customer */
    char name[RES_NAME_MAX + 1]; /* "" when the resource has none */
    json_t *doc;        /* a JSON object; owned by whoever filled the struct */
    int64_t created_at, updated_at, version;
};

/* Which resources a lookup or a list sees. NULL / 0 members do not filter. */
enum { RES_TOP_LEVEL = -1 }; /* parent_rid value: only resources with no parent */
struct res_query {
    const char *kind;        /* required */
    const char *customer_id; /* this customer's only */
    const char *portal_id;   /* customers of this portal only */
    int64_t parent_rid;      /* children of this resource, RES_TOP_LEVEL, or 0: any */
    long offset, limit;      /* list: a page in creation order; limit 0 counts only */
    bool without_doc;        /* res_get: leave out->doc NULL, for a parent that is only checked
                              * (its existence, customer and place): no document is parsed */
};

/* A block someone holds, as the overlap query reports it. */
struct block_hit {
    int64_t rid;
    char kind[RES_KIND_MAX + 1];
    char id[RES_ID_MAX + 1];
    char customer_id[17];
    struct cidr block;
};

/* Whose blocks an overlap query looks at. NULL / 0 / false do not filter. */
struct block_filter {
    const char *kind;            /* holders of this kind */
    const char *customer_id;     /* holders of this customer */
    const char *not_customer_id; /* holders of any other customer */
    bool top_level;              /* holders without a parent: the protected address space */
    int64_t parent_rid;          /* holders under this parent (siblings) */
    int64_t except_rid;          /* not this holder (an update checking itself) */
};

/* Releases r->doc (the struct itself is the caller's). */
void resource_clear(struct resource *r);

#endif
