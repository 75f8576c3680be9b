/* bogons.c — a site's bogon filters: martian_address and land_attack
 * switches, in the site's "op.site.mitigation" document (member bogons),
 * reached through the {OPS} and {SOPS} doors alike. */
#include "api/op/op_mitigation.h"

static json_t *load_bogons(struct req *r, struct resource *site, struct resource *mit)
{
    if (op_site_of(r, site) != 0 || op_settings_load(r, &OP_SITE_MITIGATION, site, mit) != 0)
        return NULL;
    return op_setting_read(r, mit, "bogons");
}

int op_bogons_switch_set(struct req *r)
{
    struct resource site, mit;
    json_t *bogons = load_bogons(r, &site, &mit);
    if (!bogons)
        return 0;
    json_object_set_new(bogons, field_str(r, "type"),
                        json_pack("{s:I}", "is_enabled", (json_int_t)field_int(r, "is_enabled", 0)));
    json_object_set_new(mit.doc, "bogons", bogons);
    if (op_settings_save(r, &OP_SITE_MITIGATION, &site, &mit) != 0)
        return 0;
    return reply_result(r, NULL);
}

/* A1.10: the query type is required, "described as blacklist or whitelist";
 * those and the write's two values are taken, and the result holds both
 * switches whichever is given. */
int op_bogons_switch_get(struct req *r)
{
    struct resource site, mit;
    json_t *bogons = load_bogons(r, &site, &mit);
    if (!bogons)
        return 0;
    return reply_result(r, bogons);
}
