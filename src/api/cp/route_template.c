/* route_template.c — route templates of a CleanPipe site: named sets of
 * blocks inside the site (what manual mitigation diverts), with integer ids
 * that are never handed out again. */
#include <stdlib.h>
#include <string.h>

#include "api/cp/cp_common.h"

json_t *cp_template_json(const struct resource *t)
{
    json_t *cidr = json_object_get(t->doc, "cidr");
    return json_pack("{s:o,s:s,s:I,s:s}", "cidr", cidr ? json_incref(cidr) : json_array(), "template_desc",
                     cp_doc_str(t->doc, "template_desc"), "template_id", (json_int_t)strtoll(t->id, NULL, 10),
                     "template_name", t->name);
}

static json_t *id_json(const struct resource *t)
{
    return json_pack("{s:I}", "template_id", (json_int_t)strtoll(t->id, NULL, 10));
}

static int template_blocks(struct req *r, const struct resource *site, struct cp_blocks *bl)
{
    return cp_blocks_from_field(r, "cidr", cp_site_family(site), bl) != 0 ||
                   cp_blocks_inside_site(r, "cidr", bl, site) != 0
               ? -1
               : 0;
}

int cp_template_create(struct req *r)
{
    struct resource site;
    struct cp_blocks bl;
    if (cp_site_load(r, &site) != 0 || template_blocks(r, &site, &bl) != 0 ||
        cp_require_room(r, CP_TEMPLATE.name, &site, CP_MAX_TEMPLATES, "template_name",
                        "route templates per site") != 0)
        return 0;
    struct resource t;
    json_t *doc =
        json_pack("{s:s,s:O}", "template_desc", field_str(r, "template_desc"), "cidr", field_json(r, "cidr"));
    if (cp_create(r, &CP_TEMPLATE, &site, "template_name", doc, &bl, &t) != 0)
        return 0;
    return reply_result(r, id_json(&t));
}

int cp_template_get(struct req *r)
{
    struct resource site, t;
    if (cp_site_load(r, &site) != 0 || cp_template_load(r, &site, &t) != 0)
        return 0;
    return cp_reply_read(r, cp_template_json(&t), "template_id");
}

int cp_template_update(struct req *r)
{
    struct resource site, t;
    if (cp_site_load(r, &site) != 0 || cp_template_load(r, &site, &t) != 0)
        return 0;
    if (field_json(r, "cidr")) {
        struct cp_blocks bl;
        if (template_blocks(r, &site, &bl) != 0 || cp_blocks_store(r, t.rid, &bl) != 0)
            return 0;
        cp_take_field(r, t.doc, "cidr", "cidr");
    }
    if (field_str(r, "template_name"))
        snprintf(t.name, sizeof t.name, "%s", field_str(r, "template_name"));
    cp_take_field(r, t.doc, "template_desc", "template_desc");
    if (cp_save(r, &t, "template_name") != 0)
        return 0;
    return reply_result(r, id_json(&t));
}

/* Refused while the site's overview policy names it for manual mitigation. */
int cp_template_delete(struct req *r)
{
    struct resource site, t;
    if (cp_site_load(r, &site) != 0 || cp_template_load(r, &site, &t) != 0)
        return 0;
    json_t *manual = json_object_get(json_object_get(site.doc, "policy"), "manual");
    if (cp_doc_int(manual, "template_profile_id", 0) == strtoll(t.id, NULL, 10))
        return reply_error(r, E_STATE,
                           "template_id: the site's overview policy uses this route template for manual "
                           "mitigation; choose another there first");
    int rc = r->store->ops->res_delete(r->store, t.rid, NULL);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, NULL);
}

int cp_templates_list(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0)
        return 0;
    return cp_reply_list(r, CP_TEMPLATE.name, &site, CP_MAX_TEMPLATES, cp_template_json);
}
