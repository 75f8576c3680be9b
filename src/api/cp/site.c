/* site.c — CleanPipe sites: create, read, update, delete. */
#include <string.h>

#include "api/cp/cp_common.h"
#include "core/catalogue.h"

json_t *cp_site_doc_new(const char *desc, const char *ip_type, long long profile_id, const char *service_plan,
                        json_t *cidr)
{
    return json_pack("{s:s,s:s,s:I,s:s,s:O,s:o,s:o}", "site_desc", desc, "ip_type", ip_type,
                     "mitigation_group_profile_id", (json_int_t)profile_id, "service_plan", service_plan,
                     "cidr", cidr, "policy", cp_site_policy_default(), "lists", cp_lists_default());
}

json_t *cp_site_json(const struct resource *site)
{
    json_t *cidr = json_object_get(site->doc, "cidr");
    return json_pack("{s:s,s:s,s:o,s:s,s:I,s:s,s:s}", "site_id", site->id, "site_name", site->name, "cidr",
                     cidr ? json_incref(cidr) : json_array(), "ip_type", cp_doc_str(site->doc, "ip_type"),
                     "mitigation_group_profile_id",
                     (json_int_t)cp_doc_int(site->doc, "mitigation_group_profile_id", 0), "service_plan",
                     cp_doc_str(site->doc, "service_plan"), "site_desc", cp_doc_str(site->doc, "site_desc"));
}

/* mitigation_group_profile_id must name a profile of the site's ip_type. */
static int require_group_profile(struct req *r, const char *ip_type)
{
    json_t *v = field_json(r, "mitigation_group_profile_id");
    if (!v)
        return 0;
    bool failed;
    if (cp_profile_find(r, CP_CAT_GROUP_PROFILES, ip_type, json_integer_value(v), &failed))
        return 0;
    if (!failed)
        reply_error(r, E_FIELD_INVALID,
                    "mitigation_group_profile_id: %lld is not a mitigation group profile for %s "
                    "(GET .../cp/mitigation_group_profiles?ip_type=%s)",
                    (long long)json_integer_value(v), ip_type, ip_type);
    return -1;
}

/* The catalogue's first service plan: what a new site is given. */
static const char *default_plan(struct req *r)
{
    json_t *plans = catalogue_value(r, CP_CAT_SERVICE_PLANS);
    if (!plans)
        return NULL;
    const char *first = json_string_value(json_array_get(plans, 0));
    return first ? first : "";
}

int cp_site_create(struct req *r)
{
    const char *ip_type = field_str(r, "ip_type");
    int family = strcmp(ip_type, "ipv6") == 0 ? NET_V6 : NET_V4;
    struct cp_blocks bl;
    const char *plan;
    if (require_group_profile(r, ip_type) != 0 || cp_blocks_from_field(r, "cidr", family, &bl) != 0 ||
        cp_blocks_unclaimed(r, "cidr", &bl, 0) != 0 ||
        cp_require_room(r, CP_SITE.name, NULL, CP_MAX_SITES, "site_name", "CleanPipe sites per customer") !=
            0 ||
        !(plan = default_plan(r)))
        return 0;
    struct resource site;
    json_t *doc =
        cp_site_doc_new(field_str(r, "site_desc"), ip_type, field_int(r, "mitigation_group_profile_id", 0),
                        plan, field_json(r, "cidr"));
    if (cp_create(r, &CP_SITE, NULL, "site_name", doc, &bl, &site) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s}", "site_id", site.id));
}

int cp_site_get(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0)
        return 0;
    return cp_reply_read(r, cp_site_json(&site), "site_id");
}

int cp_site_update(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0 || require_group_profile(r, cp_doc_str(site.doc, "ip_type")) != 0)
        return 0;
    if (field_json(r, "cidr")) {
        struct cp_blocks bl;
        struct block_hit hit;
        if (cp_blocks_from_field(r, "cidr", cp_site_family(&site), &bl) != 0 ||
            cp_blocks_unclaimed(r, "cidr", &bl, site.rid) != 0 || cp_blocks_store(r, site.rid, &bl) != 0)
            return 0;
        /* checked after the write: the transaction is rolled back on refusal */
        int rc = r->store->ops->blocks_uncovered(r->store, site.rid, &hit);
        if (rc == STORE_OK) {
            char text[NET_TEXT_MAX];
            bool is_host = strcmp(hit.kind, CP_HOST.name) == 0;
            if (is_host) /* host addresses are entered and answered bare */
                ip_format(&hit.block.addr, text);
            else
                cidr_format(&hit.block, text);
            const char *noun = is_host ? "host" : "route template";
            return reply_error(r, E_STATE,
                               "cidr: must keep covering %s of %s %s; change or delete that first", text,
                               noun, hit.id);
        }
        if (rc != STORE_NOT_FOUND)
            return reply_store_error(r, rc);
        cp_take_field(r, site.doc, "cidr", "cidr");
    }
    cp_take_field(r, site.doc, "mitigation_group_profile_id", "mitigation_group_profile_id");
    cp_take_field(r, site.doc, "site_desc", "site_desc");
    if (cp_save(r, &site, NULL) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s}", "site_id", site.id));
}

/* Refused while the site has hosts or route templates (docs/decisions.md). */
int cp_site_delete(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0)
        return 0;
    json_t *blocker = NULL;
    int rc = r->store->ops->res_delete(r->store, site.rid, &blocker);
    if (rc == STORE_CONFLICT && blocker) {
        const char *kind = cp_doc_str(blocker, "kind");
        reply_error(r, E_STATE, "site_id: cannot be deleted while it has a %s (%s); delete that first",
                    strcmp(kind, CP_HOST.name) == 0 ? "host" : "route template", cp_doc_str(blocker, "id"));
        json_decref(blocker);
        return 0;
    }
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, NULL);
}
