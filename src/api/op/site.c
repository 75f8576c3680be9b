/* site.c — Origin Protection sites: POST {OPC}/site, GET/PUT/DELETE {OPS}.
 * A site holds one ASN and address blocks registered for it; the blocks are
 * indexed (store blocks_*) so that no other customer protects them and the
 * site's networks and hosts stay inside them. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api/op/op.h"
#include "api/op/op_kinds.h"
#include "api/op/op_rules.h"
#include "core/catalogue.h"
#include "core/config.h"
#include "core/resource.h"

/* as_num is in the registry and every block belongs to it; the blocks are
 * disjoint, protected by no other customer and by no other site of this
 * customer. `self` is the site being updated (NULL on create), `kept`
 * whether it keeps its blocks (op_blocks_kept: then they are free). */
static int check_blocks(struct req *r, long long asn, const struct cidr *b, size_t n,
                        const struct resource *self, bool kept)
{
    if (op_blocks_disjoint(r, "cidr", b, n) != 0)
        return -1;
    json_t *prefixes = NULL;
    int rc = r->store->ops->asn_prefixes(r->store, asn, &prefixes);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    req_hold(r, prefixes);
    if (json_array_size(prefixes) == 0) {
        reply_error(r, E_RULE, "as_num: AS%lld is not in the ASN registry", asn);
        return -1;
    }
    char why[160];
    long bad = op_blocks_outside_asn(b, n, asn, prefixes, why, sizeof why);
    if (bad >= 0) {
        char text[NET_TEXT_MAX];
        cidr_format(&b[bad], text);
        reply_error(r, E_RULE, "cidr[%ld]: %s %s", bad, text, why);
        return -1;
    }
    if (kept)
        return 0;
    int64_t except = self ? self->rid : 0;
    struct block_filter others = {.top_level = true, .not_customer_id = r->customer.id, .except_rid = except};
    struct block_filter my_sites = {
        .kind = OP_SITE.name, .customer_id = r->customer.id, .except_rid = except};
    if (op_blocks_free(r, "cidr", b, n, &others, "") != 0 ||
        op_blocks_free(r, "cidr", b, n, &my_sites, "site") != 0)
        return -1;
    return 0;
}

static const char *plan_member(const json_t *plans, const char *customer_id, const char *key)
{
    const char *v = json_string_value(
        json_object_get(json_object_get(json_object_get(plans, "by_customer"), customer_id), key));
    if (!v)
        v = json_string_value(json_object_get(json_object_get(plans, "default"), key));
    return v ? v : "";
}

json_t *op_site_json(const struct resource *site, const json_t *plans)
{
    return json_pack("{s:O,s:O,s:s,s:s,s:s,s:s}", "as_num", json_object_get(site->doc, "as_num"), "cidr",
                     json_object_get(site->doc, "cidr"), "service_plan",
                     plan_member(plans, site->customer_id, "service_plan"), "service_type",
                     plan_member(plans, site->customer_id, "service_type"), "site_desc",
                     op_doc_str(site, "site_desc"), "site_name", site->name);
}

int op_site_create(struct req *r)
{
    struct cidr b[OP_MAX_SITE_BLOCKS];
    long n = op_field_blocks(r, "cidr", b, OP_MAX_SITE_BLOCKS);
    long long asn = field_int(r, "as_num", 0);
    if (n < 0 || check_blocks(r, asn, b, (size_t)n, NULL, false) != 0)
        return 0;
    /* every op.site is top level (its kind has no parent): without the
     * parent filter the count reads the (customer, kind) index alone, not
     * every site's row */
    struct res_query mine = {.kind = OP_SITE.name, .customer_id = r->customer.id};
    json_t *rows = NULL;
    long total = 0;
    int rc = r->store->ops->res_list(r->store, &mine, &rows, &total);
    json_decref(rows);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    if (total >= OP_MAX_SITES)
        return reply_error(r, E_LIMIT, "site_name: a customer may have at most %d sites", OP_MAX_SITES);

    struct resource site = {0};
    memcpy(site.customer_id, r->customer.id, sizeof site.customer_id);
    snprintf(site.name, sizeof site.name, "%s", field_str(r, "site_name"));
    site.doc = req_hold(r, json_pack("{s:I,s:o,s:s}", "as_num", (json_int_t)asn, "cidr",
                                     op_blocks_json(b, (size_t)n), "site_desc",
                                     field_str(r, "site_desc") ? field_str(r, "site_desc") : ""));
    rc = r->store->ops->res_create(r->store, &OP_SITE, &site);
    if (rc == STORE_CONFLICT)
        return reply_error(r, E_CONFLICT, "site_name: %s is already a site of this customer", site.name);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    if (op_blocks_store(r, &site, b, (size_t)n, false) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s}", "site_id", site.id));
}

int op_site_get(struct req *r)
{
    struct resource site;
    if (op_load_chain(r, &site, NULL, NULL) != 0)
        return 0;
    json_t *plans = catalogue_value(r, OP_SERVICE_PLANS);
    if (!plans)
        return 0;
    /* the document shows an array for the one site (gaps B.2.2) */
    return reply_result(r, json_pack("[o]", op_site_json(&site, plans)));
}

int op_site_update(struct req *r)
{
    struct resource site;
    if (op_load_chain(r, &site, NULL, NULL) != 0)
        return 0;
    struct cidr b[OP_MAX_SITE_BLOCKS];
    long n = op_field_blocks(r, "cidr", b, OP_MAX_SITE_BLOCKS);
    long long asn = field_int(r, "as_num", 0);
    bool kept = n >= 0 && op_blocks_kept(&site, b, (size_t)n);
    if (n < 0 || check_blocks(r, asn, b, (size_t)n, &site, kept) != 0)
        return 0;
    json_object_set_new(site.doc, "as_num", json_integer(asn));
    return op_update_blocks(r, &site, b, (size_t)n, kept, "site_desc", "site");
}

/* The capture files of the site's tasks (which go with the site). */
static void remove_captures(struct req *r, json_t *tasks)
{
    size_t i;
    json_t *row;
    json_array_foreach (tasks, i, row) {
        const char *file = json_string_value(json_object_get(json_object_get(row, "doc"), "file"));
        char path[4096];
        if (file && snprintf(path, sizeof path, "%s/%s", r->config->data_dir, file) < (int)sizeof path)
            unlink(path);
    }
}

int op_site_delete(struct req *r)
{
    struct resource site;
    if (op_load_chain(r, &site, NULL, NULL) != 0)
        return 0;
    struct res_query q = {
        .kind = OP_CAPTURE.name, .customer_id = r->customer.id, .parent_rid = site.rid, .limit = 1000000};
    json_t *tasks = NULL;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &tasks, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    req_hold(r, tasks);
    json_t *blocker = NULL;
    rc = r->store->ops->res_delete(r->store, site.rid, &blocker);
    if (rc == STORE_CONFLICT)
        return reply_delete_blocked(r, "site_id", blocker);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "site_id", "");
    remove_captures(r, tasks);
    return reply_result(r, NULL);
}
