/* dev_cp.c — see dev_cp.h. */
#include "cli/dev_cp.h"

#include <stdio.h>
#include <string.h>

#include "api/cp/cp_common.h"

#define DEV_CP_BLOCK "198.18.100.0/24"
#define DEV_CP_HOST  "198.18.100.10"

static int fail(struct account_error *e, const char *what)
{
    snprintf(e->message, sizeof e->message, "CleanPipe seed: %s", what);
    return -1;
}

/* Creates a resource of kind k holding one block (`text`, parsed bare). */
static int create(struct store *s, const struct res_kind *k, struct resource *res, const char *text)
{
    struct cidr c;
    if (cidr_parse(text, CIDR_ALLOW_BARE, &c) != 0 || s->ops->res_create(s, k, res) != STORE_OK)
        return -1;
    return s->ops->blocks_set(s, res->rid, &c, 1) == STORE_OK ? 0 : -1;
}

int dev_cp_seed(struct store *s, const char *customer_id, struct account_error *e)
{
    json_t *plans = NULL;
    s->ops->catalogue_get(s, CP_CAT_SERVICE_PLANS, &plans);
    const char *plan = json_string_value(json_array_get(plans, 0));
    struct resource site = {0}, host = {0}, tpl = {0};
    snprintf(site.customer_id, sizeof site.customer_id, "%s", customer_id);
    snprintf(site.name, sizeof site.name, "dev_cleanpipe");
    json_t *site_cidr = json_pack("[s]", DEV_CP_BLOCK), *host_cidr = json_pack("[s]", DEV_CP_HOST);
    site.doc = cp_site_doc_new("seeded by serve --dev", "ipv4", 1, plan ? plan : "", site_cidr);
    json_decref(plans);
    int rc = create(s, &CP_SITE, &site, DEV_CP_BLOCK);
    memcpy(host.customer_id, site.customer_id, sizeof host.customer_id);
    memcpy(tpl.customer_id, site.customer_id, sizeof tpl.customer_id);
    host.parent_rid = tpl.parent_rid = site.rid;
    snprintf(host.name, sizeof host.name, "web_1");
    snprintf(tpl.name, sizeof tpl.name, "whole_site");
    host.doc = cp_host_doc_new("a web server", host_cidr);
    json_decref(site_cidr);
    json_decref(host_cidr);
    tpl.doc = json_pack("{s:s,s:[s]}", "template_desc", "divert the whole site", "cidr", DEV_CP_BLOCK);
    if (rc == 0)
        rc = create(s, &CP_HOST, &host, DEV_CP_HOST);
    if (rc == 0)
        rc = create(s, &CP_TEMPLATE, &tpl, DEV_CP_BLOCK);
    resource_clear(&site);
    resource_clear(&host);
    resource_clear(&tpl);
    return rc == 0 ? 0 : fail(e, "could not store the site");
}
