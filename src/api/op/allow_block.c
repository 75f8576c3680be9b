/* allow_block.c — a site's allow list and block list (the {OPS} and {SOPS}
 * doors reach the same data). Stored in the site's "op.site.mitigation"
 * document, members allow_list and block_list, each {is_enabled,
 * source_countries, source_ips}. A write replaces both arrays of the list
 * and keeps its switch (gaps B.4.1). */
#include "api/op/op_mitigation.h"
#include "core/catalogue.h"

/* The site's mitigation settings and the list `type` in them (over the catalogue's defaults). */
static int load_list(struct req *r, struct resource *site, struct resource *mit, json_t **list)
{
    if (op_site_of(r, site) != 0 || op_settings_load(r, &OP_SITE_MITIGATION, site, mit) != 0)
        return -1;
    *list = op_setting_read(r, mit, field_str(r, "type"));
    return *list ? 0 : -1;
}

static int save_list(struct req *r, struct resource *site, struct resource *mit, json_t *list)
{
    json_object_set_new(mit->doc, field_str(r, "type"), list);
    if (op_settings_save(r, &OP_SITE_MITIGATION, site, mit) != 0)
        return 0;
    return reply_result(r, NULL);
}

static int refuse_duplicate(struct req *r, const char *field)
{
    json_t *v = field_json(r, field);
    long dup = op_first_duplicate(v);
    if (dup < 0)
        return 0;
    reply_error(r, E_FIELD_INVALID, "%s[%ld]: %s is given twice", field, dup,
                json_string_value(json_array_get(v, (size_t)dup)));
    return -1;
}

/* The write's field is src_countries (doc 001's table); the resource
 * section names source_countries too, the name the read answers: either is
 * taken, one of them is required. */
static const char *countries_field(struct req *r)
{
    bool src = field_json(r, "src_countries") != NULL, source = field_json(r, "source_countries") != NULL;
    if (src && source) {
        reply_error(r, E_FIELD_REPEATED, "src_countries: is given also as source_countries; send one of them");
        return NULL;
    }
    if (!src && !source) {
        reply_error(r, E_FIELD_MISSING, "src_countries: is required");
        return NULL;
    }
    return src ? "src_countries" : "source_countries";
}

int op_allow_block_set(struct req *r)
{
    const char *countries = countries_field(r);
    if (!countries || refuse_duplicate(r, "source_ips") || refuse_duplicate(r, countries) ||
        catalogue_require_keys(r, "countries", countries, "countries") != 0)
        return 0;
    struct resource site, mit;
    json_t *list;
    if (load_list(r, &site, &mit, &list) != 0)
        return 0;
    json_object_set(list, "source_ips", field_json(r, "source_ips"));
    json_object_set(list, "source_countries", field_json(r, countries));
    return save_list(r, &site, &mit, list);
}

int op_allow_block_get(struct req *r)
{
    struct resource site, mit;
    json_t *list;
    if (load_list(r, &site, &mit, &list) != 0)
        return 0;
    return reply_result(r, list);
}

int op_allow_block_switch_set(struct req *r)
{
    struct resource site, mit;
    json_t *list;
    if (load_list(r, &site, &mit, &list) != 0)
        return 0;
    json_object_set_new(list, "is_enabled", json_integer(field_int(r, "is_enabled", 0)));
    return save_list(r, &site, &mit, list);
}
