/* dev_op.c — `serve --dev`: one Origin Protection site for customer 1 on
 * the documentation ASN AS64496 (192.0.2.0/24, RFC 5737), with a network
 * and a host, so that the README tour shows one. Runs inside the dev seed's
 * transaction (the ASN registry is filled in the same one). */
#include <stdio.h>
#include <string.h>

#include "api/op/op_kinds.h"
#include "cli/dev_op.h"

/* Creates one resource holding the blocks `cidr` (NULL parent: a site). */
static int add(struct store *s, const struct res_kind *k, const char *customer_id,
               const struct resource *parent, const char *name, const char *cidr, json_t *doc,
               struct resource *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->customer_id, sizeof out->customer_id, "%s", customer_id);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->parent_rid = parent ? parent->rid : 0;
    json_object_set_new(doc, "cidr", json_pack("[s]", cidr));
    out->doc = doc;
    struct cidr c;
    int rc = cidr_parse(cidr, CIDR_ALLOW_BARE, &c) == 0 ? s->ops->res_create(s, k, out) : STORE_ERROR;
    if (rc == STORE_OK)
        rc = s->ops->blocks_set(s, out->rid, &c, 1);
    resource_clear(out);
    return rc;
}

int dev_op_seed(struct store *s, const char *customer_id, struct account_error *e)
{
    struct resource site, net, host;
    int rc = add(s, &OP_SITE, customer_id, NULL, "dev_site", "192.0.2.0/24",
                 json_pack("{s:i,s:s}", "as_num", 64496, "site_desc", "documentation addresses (RFC 5737)"),
                 &site);
    if (rc == STORE_OK)
        rc = add(s, &OP_NETWORK, customer_id, &site, "dev network", "192.0.2.0/24",
                 json_pack("{s:s}", "network_desc", ""), &net);
    if (rc == STORE_OK)
        rc = add(s, &OP_HOST, customer_id, &net, "web", "192.0.2.10/32",
                 json_pack("{s:s}", "host_desc", "a web server"), &host);
    if (rc != STORE_OK)
        snprintf(e->message, sizeof e->message, "the Origin Protection dev site could not be created");
    return rc == STORE_OK ? 0 : -1;
}
