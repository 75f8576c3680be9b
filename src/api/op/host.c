/* host.c — Origin Protection hosts (gaps A1.1; the document shows only the
 * create path): POST {OPS}/network/{network_id}/host, GET/PUT/DELETE
 * {OPH}, GET {OPS}/network/{network_id}/hosts. A host is a set of single
 * addresses (/32, /128) inside its network's blocks, shared with no other
 * host of the network. */
#include <string.h>

#include "api/op/op.h"
#include "api/op/op_kinds.h"
#include "api/op/op_mitigation.h"
#include "core/resource.h"

/* The addresses lie inside the network's blocks and belong to no other host
 * of it (unless `kept`: op_blocks_kept). */
static int check_addresses(struct req *r, const struct resource *net, const struct cidr *b, size_t n,
                           const struct resource *self, bool kept)
{
    struct cidr net_blocks[OP_MAX_NETWORK_BLOCKS];
    size_t nn = op_doc_blocks(net, net_blocks, OP_MAX_NETWORK_BLOCKS);
    struct block_filter siblings = {
        .kind = OP_HOST.name, .parent_rid = net->rid, .except_rid = self ? self->rid : 0};
    if (op_blocks_disjoint(r, "cidr", b, n) != 0 ||
        op_blocks_inside(r, "cidr", b, n, net_blocks, nn, "network's") != 0 ||
        (!kept && op_blocks_free(r, "cidr", b, n, &siblings, "host") != 0))
        return -1;
    return 0;
}

static json_t *host_json(const struct resource *host, bool with_id)
{
    json_t *h = json_pack("{s:O,s:s,s:s}", "cidr", json_object_get(host->doc, "cidr"), "host_desc",
                          op_doc_str(host, "host_desc"), "host_name", host->name);
    if (with_id)
        json_object_set_new(h, "host_id", json_string(host->id));
    return h;
}

int op_host_create(struct req *r)
{
    struct resource site, net;
    if (op_load_chain(r, &site, &net, NULL) != 0)
        return 0;
    struct cidr b[OP_MAX_HOST_ADDRESSES];
    long n = op_field_blocks(r, "cidr", b, OP_MAX_HOST_ADDRESSES);
    if (n < 0 || check_addresses(r, &net, b, (size_t)n, NULL, false) != 0)
        return 0;
    static const struct op_child host = {&OP_HOST,    "host",    "network",    "host_name",
                                         "host_desc", "host_id", "network_id", OP_MAX_HOSTS};
    return op_create_child(r, &host, &net, b, (size_t)n);
}

int op_host_get(struct req *r)
{
    struct resource site, net, host;
    if (op_load_chain(r, &site, &net, &host) != 0)
        return 0;
    return reply_result(r, host_json(&host, false));
}

int op_host_update(struct req *r)
{
    struct resource site, net, host;
    if (op_load_chain(r, &site, &net, &host) != 0)
        return 0;
    struct cidr b[OP_MAX_HOST_ADDRESSES];
    long n = op_field_blocks(r, "cidr", b, OP_MAX_HOST_ADDRESSES);
    bool kept = n >= 0 && op_blocks_kept(&host, b, (size_t)n);
    if (n < 0 || check_addresses(r, &net, b, (size_t)n, &host, kept) != 0)
        return 0;
    return op_update_blocks(r, &host, b, (size_t)n, kept, "host_desc", "host");
}

int op_host_delete(struct req *r)
{
    struct resource site, net, host;
    if (op_load_chain(r, &site, &net, &host) != 0 || op_forget_level(r, &site, &net, &host) != 0)
        return 0;
    return op_delete(r, &host, "host_id");
}

int op_host_list(struct req *r)
{
    struct resource site, net;
    if (op_load_chain(r, &site, &net, NULL) != 0)
        return 0;
    struct res_query q = {
        .kind = OP_HOST.name, .customer_id = r->customer.id, .parent_rid = net.rid, .limit = OP_MAX_HOSTS};
    json_t *rows;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    req_hold(r, rows);
    json_t *hosts = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct resource h;
        op_row_resource(row, &h);
        json_array_append_new(hosts, host_json(&h, true));
    }
    return reply_result(r, hosts);
}
