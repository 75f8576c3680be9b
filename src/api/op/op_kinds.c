/* op_kinds.c — the Origin Protection kinds and the family's shared steps
 * (op_kinds.h). */
#include "api/op/op_kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/resource.h"
#include "core/route.h"

const struct res_kind OP_SITE = {"op.site", .name_scope = RES_NAME_IN_PARENT};
/* A site with networks, or a network with hosts, is not deleted: the
 * client deletes what it protects first (docs/decisions.md). */
const struct res_kind OP_NETWORK = {"op.network", .parent = "op.site", .name_scope = RES_NAME_IN_PARENT,
                                    .restricts_parent = true};
const struct res_kind OP_HOST = {"op.host", .parent = "op.network", .name_scope = RES_NAME_IN_PARENT,
                                 .restricts_parent = true};
const struct res_kind OP_CAPTURE = {"op.capture", .parent = "op.site", .serial_id = true};

int op_load_chain(struct req *r, struct resource *site, struct resource *network, struct resource *host)
{
    if (r->route->access == ACCESS_SITE)
        *site = r->site; /* the dispatcher's; its doc is held by the request */
    else if (res_from_path(r, OP_SITE.name, "site_id", "site", NULL, site) != 0)
        return -1;
    if (network && res_from_path(r, OP_NETWORK.name, "network_id", "network", site, network) != 0)
        return -1;
    if (host && res_from_path(r, OP_HOST.name, "host_id", "host", network, host) != 0)
        return -1;
    return 0;
}

long op_field_blocks(struct req *r, const char *field, struct cidr *out, size_t max)
{
    long n = field_cidrs(r, field, out, max);
    if (n < 0)
        reply_error(r, E_FIELD_INVALID, "%s: must have at most %zu blocks", field, max);
    return n;
}

int op_blocks_disjoint(struct req *r, const char *field, const struct cidr *b, size_t n)
{
    size_t i, j;
    if (cidrs_first_overlap(b, n, &i, &j) != 0)
        return 0;
    char text[NET_TEXT_MAX];
    cidr_format(&b[i], text);
    reply_error(r, E_RULE, "%s[%zu]: overlaps %s[%zu] (%s)", field, j, field, i, text);
    return -1;
}

int op_blocks_inside(struct req *r, const char *field, const struct cidr *b, size_t n,
                     const struct cidr *outer, size_t n_outer, const char *whose)
{
    for (size_t i = 0; i < n; i++) {
        if (cidrs_within(&b[i], 1, outer, n_outer))
            continue;
        char text[NET_TEXT_MAX];
        cidr_format(&b[i], text);
        reply_error(r, E_RULE, "%s[%zu]: %s must lie inside the %s blocks", field, i, text, whose);
        return -1;
    }
    return 0;
}

int op_blocks_free(struct req *r, const char *field, const struct cidr *b, size_t n,
                   const struct block_filter *f, const char *holder)
{
    for (size_t i = 0; i < n; i++) {
        struct block_hit hit;
        size_t found = 0;
        int rc = r->store->ops->blocks_overlapping(r->store, &b[i], f, &hit, 1, &found);
        if (rc != STORE_OK) {
            reply_store_error(r, rc);
            return -1;
        }
        if (found == 0)
            continue;
        char mine[NET_TEXT_MAX], theirs[NET_TEXT_MAX];
        cidr_format(&b[i], mine);
        cidr_format(&hit.block, theirs);
        if (f->not_customer_id) /* never tell what another customer holds */
            reply_error(r, E_CONFLICT, "%s[%zu]: %s is already protected by another customer", field, i,
                        mine);
        else
            reply_error(r, E_CONFLICT, "%s[%zu]: %s overlaps %s %s (%s)", field, i, mine, holder, hit.id,
                        theirs);
        return -1;
    }
    return 0;
}

int op_blocks_store(struct req *r, const struct resource *res, const struct cidr *b, size_t n,
                    bool check_children)
{
    int rc = r->store->ops->blocks_set(r->store, res->rid, b, n);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    if (!check_children)
        return 0;
    struct block_hit hit;
    rc = r->store->ops->blocks_uncovered(r->store, res->rid, &hit);
    if (rc == STORE_NOT_FOUND)
        return 0;
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    /* the dispatcher rolls the new blocks back with the rest */
    char text[NET_TEXT_MAX];
    cidr_format(&hit.block, text);
    const char *dot = strrchr(hit.kind, '.');
    reply_error(r, E_STATE, "cidr: must keep covering %s of %s %s", text, dot ? dot + 1 : hit.kind, hit.id);
    return -1;
}

long op_count_children(struct req *r, const char *kind, const struct resource *parent)
{
    struct res_query q = {.kind = kind, .customer_id = r->customer.id, .parent_rid = parent->rid};
    json_t *rows = NULL;
    long total = 0;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    json_decref(rows);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    return total;
}

size_t op_doc_blocks(const struct resource *res, struct cidr *out, size_t max)
{
    size_t n = 0, i;
    json_t *v;
    json_array_foreach (json_object_get(res->doc, "cidr"), i, v) {
        if (n < max && cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &out[n]) == 0)
            n++;
    }
    return n;
}

void op_row_resource(const json_t *row, struct resource *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->kind, sizeof out->kind, "%s", json_string_value(json_object_get(row, "kind")));
    snprintf(out->id, sizeof out->id, "%s", json_string_value(json_object_get(row, "id")));
    snprintf(out->customer_id, sizeof out->customer_id, "%s",
             json_string_value(json_object_get(row, "customer_id")));
    snprintf(out->name, sizeof out->name, "%s",
             json_string_value(json_object_get(row, "name")) ? json_string_value(json_object_get(row, "name"))
                                                             : "");
    out->rid = json_integer_value(json_object_get(row, "rid"));
    out->parent_rid = json_integer_value(json_object_get(row, "parent_rid"));
    out->doc = json_object_get(row, "doc");
    out->created_at = json_integer_value(json_object_get(row, "created_at"));
    out->updated_at = json_integer_value(json_object_get(row, "updated_at"));
    out->version = json_integer_value(json_object_get(row, "version"));
}

json_t *op_blocks_json(const struct cidr *b, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        char text[NET_TEXT_MAX];
        cidr_format(&b[i], text);
        json_array_append_new(a, json_string(text));
    }
    return a;
}

const char *op_doc_str(const struct resource *res, const char *member)
{
    const char *s = json_string_value(json_object_get(res->doc, member));
    return s ? s : "";
}

int op_create_child(struct req *r, const struct op_child *c, const struct resource *parent,
                    const struct cidr *b, size_t n)
{
    long count = op_count_children(r, c->kind->name, parent);
    if (count < 0)
        return 0;
    if (count >= c->max)
        return reply_error(r, E_LIMIT, "%s: a %s may have at most %ld %ss", c->name_field, c->parent_noun,
                           c->max, c->noun);
    struct resource child = {.parent_rid = parent->rid};
    memcpy(child.customer_id, parent->customer_id, sizeof child.customer_id);
    snprintf(child.name, sizeof child.name, "%s", field_str(r, c->name_field));
    const char *desc = field_str(r, c->desc_field);
    child.doc =
        req_hold(r, json_pack("{s:o,s:s}", "cidr", op_blocks_json(b, n), c->desc_field, desc ? desc : ""));
    int rc = r->store->ops->res_create(r->store, c->kind, &child);
    if (rc == STORE_CONFLICT)
        return reply_error(r, E_CONFLICT, "%s: %s is already a %s of this %s", c->name_field, child.name,
                           c->noun, c->parent_noun);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, c->parent_id_field, "");
    if (op_blocks_store(r, &child, b, n, false) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s}", c->id_field, child.id));
}

bool op_blocks_kept(const struct resource *res, const struct cidr *b, size_t n)
{
    struct cidr stored[OP_MAX_SITE_BLOCKS]; /* the most blocks any level holds */
    if (n > OP_MAX_SITE_BLOCKS || json_array_size(json_object_get(res->doc, "cidr")) != n ||
        op_doc_blocks(res, stored, n) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!cidr_equal(&stored[i], &b[i]))
            return false;
    return true;
}

int op_update_blocks(struct req *r, struct resource *res, const struct cidr *b, size_t n, bool kept,
                     const char *desc_field, const char *what)
{
    char id_field[32], changed[96];
    snprintf(id_field, sizeof id_field, "%s_id", what);
    snprintf(changed, sizeof changed, "%s: the %s changed meanwhile; try again", id_field, what);
    json_object_set_new(res->doc, "cidr", op_blocks_json(b, n));
    if (field_str(r, desc_field)) /* absent: unchanged */
        json_object_set_new(res->doc, desc_field, json_string(field_str(r, desc_field)));
    int rc = r->store->ops->res_update(r->store, res);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, id_field, changed);
    if (!kept && op_blocks_store(r, res, b, n, true) != 0)
        return 0;
    return reply_result(r, NULL);
}

int op_delete(struct req *r, const struct resource *res, const char *id_field)
{
    json_t *blocker = NULL;
    int rc = r->store->ops->res_delete(r->store, res->rid, &blocker);
    if (rc == STORE_CONFLICT)
        return reply_delete_blocked(r, id_field, blocker);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, id_field, "");
    return reply_result(r, NULL);
}
