/* network.c — Origin Protection networks: POST {OPS}/network,
 * GET/PUT/DELETE {OPS}/network/{network_id} and (beyond the documents)
 * GET {OPS}/networks. A network holds class C (IPv4 /24) blocks
 * inside its site's blocks, disjoint from its sibling networks; an update
 * must keep its hosts covered. */
#include <string.h>

#include "api/op/op.h"
#include "api/op/op_kinds.h"
#include "api/op/op_mitigation.h"
#include "core/resource.h"

/* The blocks lie inside the site's and overlap no other network of it
 * (unless `kept`: op_blocks_kept). */
static int check_blocks(struct req *r, const struct resource *site, const struct cidr *b, size_t n,
                        const struct resource *self, bool kept)
{
    struct cidr site_blocks[OP_MAX_SITE_BLOCKS];
    size_t ns = op_doc_blocks(site, site_blocks, OP_MAX_SITE_BLOCKS);
    struct block_filter siblings = {
        .kind = OP_NETWORK.name, .parent_rid = site->rid, .except_rid = self ? self->rid : 0};
    if (op_blocks_disjoint(r, "cidr", b, n) != 0 ||
        op_blocks_inside(r, "cidr", b, n, site_blocks, ns, "site's") != 0 ||
        (!kept && op_blocks_free(r, "cidr", b, n, &siblings, "network") != 0))
        return -1;
    return 0;
}

int op_network_create(struct req *r)
{
    struct resource site;
    if (op_load_chain(r, &site, NULL, NULL) != 0)
        return 0;
    struct cidr b[OP_MAX_NETWORK_BLOCKS];
    long n = op_field_blocks(r, "cidr", b, OP_MAX_NETWORK_BLOCKS);
    if (n < 0 || check_blocks(r, &site, b, (size_t)n, NULL, false) != 0)
        return 0;
    static const struct op_child network = {&OP_NETWORK,    "network",    "site",    "network_name",
                                            "network_desc", "network_id", "site_id", OP_MAX_NETWORKS};
    return op_create_child(r, &network, &site, b, (size_t)n);
}

static json_t *network_json(const struct resource *net)
{
    return json_pack("{s:O,s:s,s:s}", "cidr", json_object_get(net->doc, "cidr"), "network_desc",
                     op_doc_str(net, "network_desc"), "network_name", net->name);
}

int op_network_get(struct req *r)
{
    struct resource site, net;
    if (op_load_chain(r, &site, &net, NULL) != 0)
        return 0;
    return reply_result(r, network_json(&net));
}

int op_network_list(struct req *r)
{
    struct resource site;
    if (op_load_chain(r, &site, NULL, NULL) != 0)
        return 0;
    struct res_query q = {.kind = OP_NETWORK.name,
                          .customer_id = r->customer.id,
                          .parent_rid = site.rid,
                          .limit = OP_MAX_NETWORKS};
    json_t *rows;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    req_hold(r, rows);
    json_t *list = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct resource net;
        op_row_resource(row, &net);
        json_t *n = network_json(&net);
        json_object_set_new(n, "network_id", json_string(net.id));
        json_array_append_new(list, n);
    }
    return reply_result(r, list);
}

int op_network_update(struct req *r)
{
    struct resource site, net;
    if (op_load_chain(r, &site, &net, NULL) != 0)
        return 0;
    struct cidr b[OP_MAX_NETWORK_BLOCKS];
    long n = op_field_blocks(r, "cidr", b, OP_MAX_NETWORK_BLOCKS);
    bool kept = n >= 0 && op_blocks_kept(&net, b, (size_t)n);
    if (n < 0 || check_blocks(r, &site, b, (size_t)n, &net, kept) != 0)
        return 0;
    return op_update_blocks(r, &net, b, (size_t)n, kept, "network_desc", "network");
}

int op_network_delete(struct req *r)
{
    struct resource site, net;
    if (op_load_chain(r, &site, &net, NULL) != 0 || op_forget_level(r, &site, &net, NULL) != 0)
        return 0;
    return op_delete(r, &net, "network_id");
}
