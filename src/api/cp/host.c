/* host.c — hosts of a CleanPipe site: addresses inside the site, each
 * address on one host of the site only. */
#include <string.h>

#include "api/cp/cp_common.h"

json_t *cp_host_json(const struct resource *host)
{
    json_t *cidr = json_object_get(host->doc, "cidr");
    return json_pack("{s:o,s:s,s:s,s:s}", "cidr", cidr ? json_incref(cidr) : json_array(), "host_desc",
                     cp_doc_str(host->doc, "host_desc"), "host_id", host->id, "host_name", host->name);
}

json_t *cp_host_doc_new(const char *desc, json_t *cidr)
{
    return json_pack("{s:s,s:O,s:o,s:o,s:{s:i,s:[]}}", "host_desc", desc, "cidr", cidr, "policy",
                     cp_host_policy_default(), "lists", cp_lists_default(), "tcp_option", "is_enabled", 0,
                     "filter_sets");
}

/* The request's cidr: addresses of the site's family, inside the site, on
 * no other host of it. */
static int host_addresses(struct req *r, const struct resource *site, int64_t self_rid, struct cp_blocks *bl)
{
    if (cp_blocks_from_field(r, "cidr", cp_site_family(site), bl) != 0 ||
        cp_blocks_inside_site(r, "cidr", bl, site) != 0 ||
        cp_blocks_not_hosts(r, "cidr", bl, site, self_rid) != 0)
        return -1;
    return 0;
}

int cp_host_create(struct req *r)
{
    struct resource site;
    struct cp_blocks bl;
    if (cp_site_load(r, &site) != 0 || host_addresses(r, &site, 0, &bl) != 0 ||
        cp_require_room(r, CP_HOST.name, &site, CP_MAX_HOSTS, "host_name", "hosts per site") != 0)
        return 0;
    struct resource host;
    if (cp_create(r, &CP_HOST, &site, "host_name",
                  cp_host_doc_new(field_str(r, "host_desc"), field_json(r, "cidr")), &bl, &host) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s}", "host_id", host.id));
}

int cp_host_get(struct req *r)
{
    struct resource site, host;
    if (cp_site_load(r, &site) != 0 || cp_host_load(r, &site, &host) != 0)
        return 0;
    return cp_reply_read(r, cp_host_json(&host), "host_id");
}

/* host_name is not among the update fields (the route refuses it). */
int cp_host_update(struct req *r)
{
    struct resource site, host;
    if (cp_site_load(r, &site) != 0 || cp_host_load(r, &site, &host) != 0)
        return 0;
    if (field_json(r, "cidr")) {
        struct cp_blocks bl;
        if (host_addresses(r, &site, host.rid, &bl) != 0 || cp_blocks_store(r, host.rid, &bl) != 0)
            return 0;
        cp_take_field(r, host.doc, "cidr", "cidr");
    }
    cp_take_field(r, host.doc, "host_desc", "host_desc");
    if (cp_save(r, &host, NULL) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s}", "host_id", host.id));
}

/* The host's policy, lists and TCP option settings go with it. */
int cp_host_delete(struct req *r)
{
    struct resource site, host;
    if (cp_site_load(r, &site) != 0 || cp_host_load(r, &site, &host) != 0)
        return 0;
    int rc = r->store->ops->res_delete(r->store, host.rid, NULL);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, NULL);
}

int cp_hosts_list(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0)
        return 0;
    return cp_reply_list(r, CP_HOST.name, &site, CP_MAX_HOSTS, cp_host_json);
}
