/* op_kinds.h — the Origin Protection resource kinds and the family's shared
 * steps: loading the site / network / host chain a path names, and the
 * address-block rules every level checks (docs/decisions.md, "Origin
 * Protection: sites, networks, hosts, captures").
 *
 *   op.site     top level (per customer), name unique per customer; its
 *               delete is refused while it has a network
 *   op.network  under a site, name unique in the site; its delete is refused
 *               while it has a host
 *   op.host     under a network, name unique in the network
 *   op.capture  a capture task under a site (serial id); goes with the site */
#ifndef PARAPET_API_OP_KINDS_H
#define PARAPET_API_OP_KINDS_H

#include "core/req.h"

extern const struct res_kind OP_SITE, OP_NETWORK, OP_HOST, OP_CAPTURE;

enum {
    OP_MAX_SITE_BLOCKS = 64,    /* cidr items of a site */
    OP_MAX_NETWORK_BLOCKS = 64, /* cidr items of a network */
    OP_MAX_HOST_ADDRESSES = 64, /* cidr items of a host */
    OP_MAX_NETWORKS = 256,      /* networks per site */
    OP_MAX_HOSTS = 1024,        /* hosts per network */
    OP_MAX_SITES = 1000,        /* sites per customer */
};

/* Loads what the path names, in order: the site ({site_id}; on an
 * ACCESS_SITE route the one the dispatcher loaded), then, when `network` is
 * not NULL, the site's network {network_id}, then, when `host` is not NULL,
 * that network's host {host_id}. Each out->doc belongs to the request. An
 * unknown id and another tenant's id get the same 404 ("network_id: no such
 * network"). Returns 0, or -1 having replied. */
int op_load_chain(struct req *r, struct resource *site, struct resource *network, struct resource *host);

/* The blocks of an array field (already canonical), or -1 having replied
 * when there are more than max. */
long op_field_blocks(struct req *r, const char *field, struct cidr *out, size_t max);
/* 400 when two blocks of the field overlap ("cidr[2]: overlaps cidr[0]
 * (10.0.0.0/24)"). Returns 0, or -1 having replied. */
int op_blocks_disjoint(struct req *r, const char *field, const struct cidr *b, size_t n);
/* 400 when a block lies inside no block of `outer` ("cidr[1]: 10.9.0.0/24
 * must lie inside the site's blocks"). Returns 0, or -1 having replied. */
int op_blocks_inside(struct req *r, const char *field, const struct cidr *b, size_t n,
                     const struct cidr *outer, size_t n_outer, const char *whose);
/* 409 when a block overlaps one that `f` sees ("cidr[0]: 10.0.0.0/24 overlaps
 * network 1a2b... (10.0.0.0/24)"); `holder` names what f looks at. Returns
 * 0, or -1 having replied. */
int op_blocks_free(struct req *r, const char *field, const struct cidr *b, size_t n,
                   const struct block_filter *f, const char *holder);
/* Replaces the resource's indexed blocks; then, when check_children, 409
 * when a block of a descendant is no longer covered. Returns 0, or -1
 * having replied. */
int op_blocks_store(struct req *r, const struct resource *res, const struct cidr *b, size_t n,
                    bool check_children);
/* Whether `b` are exactly the blocks the resource's document holds, in the
 * same order. An update that keeps them skips their overlap checks and their
 * index: they were checked when stored, and every block stored since was
 * checked against them (docs/decisions.md). */
bool op_blocks_kept(const struct resource *res, const struct cidr *b, size_t n);
/* The update every level shares: the checked blocks `b` replace the
 * document's "cidr", the field `desc_field` (when sent; absent keeps it)
 * its description; the resource is stored and, unless `kept`
 * (op_blocks_kept), its indexed blocks replaced (409 when a descendant is no
 * longer covered). `what` ("site", "network", "host") names it in errors.
 * Replies (the bare envelope on success); returns 0. */
int op_update_blocks(struct req *r, struct resource *res, const struct cidr *b, size_t n, bool kept,
                     const char *desc_field, const char *what);
/* What op_create_child makes: a network under a site, a host under a network. */
struct op_child {
    const struct res_kind *kind;
    const char *noun, *parent_noun;         /* "host", "network" */
    const char *name_field, *desc_field;    /* "host_name", "host_desc" */
    const char *id_field, *parent_id_field; /* "host_id", "network_id" */
    long max;                               /* children a parent may have */
};
/* The create every level below the site shares: the limit on children
 * (409 naming name_field), the resource named by name_field with the
 * checked blocks `b` and its description (unique name: 409), its indexed
 * blocks. Replies {id_field: id}; returns 0. */
int op_create_child(struct req *r, const struct op_child *c, const struct resource *parent,
                    const struct cidr *b, size_t n);
/* Deletes a network or host (refused while it has children: 409 naming
 * one). Replies; returns 0. */
int op_delete(struct req *r, const struct resource *res, const char *id_field);
/* How many children of `kind` the parent has (limit checks). -1 on a store
 * error (replied). */
long op_count_children(struct req *r, const char *kind, const struct resource *parent);
/* The blocks of a resource's document member "cidr" (canonical strings):
 * fills out[max], returns the count. */
size_t op_doc_blocks(const struct resource *res, struct cidr *out, size_t max);
/* A row of store_ops.res_list as a resource (its doc borrowed from the row). */
void op_row_resource(const json_t *row, struct resource *out);
/* The blocks as an array of canonical strings (new reference). */
json_t *op_blocks_json(const struct cidr *b, size_t n);
/* A string member of a resource's document, "" when absent. */
const char *op_doc_str(const struct resource *res, const char *member);

#endif
