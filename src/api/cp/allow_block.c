/* allow_block.c — allow and block lists of a CleanPipe site or host, kept in
 * its document under "lists": {allow_list: {is_enabled, source_ips,
 * source_countries}, block_list: {...}}. A set replaces the arrays its body
 * carries and keeps the others (gaps B.4.1). */
#include <string.h>

#include "api/cp/cp_common.h"
#include "core/catalogue.h"

json_t *cp_lists_default(void)
{
    return json_pack("{s:{s:i,s:[],s:[]},s:{s:i,s:[],s:[]}}", "allow_list", "is_enabled", 0, "source_ips",
                     "source_countries", "block_list", "is_enabled", 0, "source_ips", "source_countries");
}

/* The list of the request's type in res's document. */
static json_t *list_of(struct req *r, struct resource *res)
{
    return cp_doc_obj(cp_doc_obj(res->doc, "lists"), field_str(r, "type"));
}

/* source_ips: no block given twice (an address and its /32 are the same). */
static int distinct_sources(struct req *r)
{
    json_t *ips = field_json(r, "source_ips");
    struct cidr seen[CP_MAX_SOURCE_IPS];
    size_t n = json_array_size(ips);
    for (size_t i = 0; i < n && i < CP_MAX_SOURCE_IPS; i++) {
        if (cidr_parse(json_string_value(json_array_get(ips, i)), CIDR_ALLOW_BARE, &seen[i]) != 0) {
            reply_error(r, E_FIELD_INVALID, "source_ips[%zu]: must be an address or block", i);
            return -1;
        }
        for (size_t j = 0; j < i; j++) {
            if (cidr_equal(&seen[i], &seen[j])) {
                reply_error(r, E_FIELD_INVALID, "source_ips[%zu]: repeats source_ips[%zu]", i, j);
                return -1;
            }
        }
    }
    return 0;
}

static int distinct_countries(struct req *r)
{
    json_t *cc = field_json(r, "source_countries");
    size_t n = json_array_size(cc);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            if (json_equal(json_array_get(cc, i), json_array_get(cc, j))) {
                reply_error(r, E_FIELD_INVALID, "source_countries[%zu]: repeats source_countries[%zu]", i, j);
                return -1;
            }
        }
    }
    return catalogue_require_keys(r, "countries", "source_countries", "countries");
}

static int list_set(struct req *r, struct resource *res)
{
    if (!field_json(r, "source_ips") && !field_json(r, "source_countries"))
        return reply_error(r, E_FIELD_MISSING, "source_ips: is required when source_countries is absent");
    if (distinct_sources(r) != 0 || distinct_countries(r) != 0)
        return 0;
    json_t *list = list_of(r, res);
    cp_take_field(r, list, "source_ips", "source_ips");
    cp_take_field(r, list, "source_countries", "source_countries");
    if (cp_save(r, res, NULL) != 0)
        return 0;
    return reply_result(r, NULL);
}

static int list_get(struct req *r, struct resource *res)
{
    json_t *list = list_of(r, res), *ips = json_object_get(list, "source_ips"),
           *cc = json_object_get(list, "source_countries");
    return reply_result(r, json_pack("{s:I,s:o,s:o}", "is_enabled",
                                     (json_int_t)cp_doc_int(list, "is_enabled", 0), "source_countries",
                                     cc ? json_incref(cc) : json_array(), "source_ips",
                                     ips ? json_incref(ips) : json_array()));
}

static int list_switch(struct req *r, struct resource *res)
{
    json_object_set_new(list_of(r, res), "is_enabled", json_integer(field_int(r, "is_enabled", 0)));
    if (cp_save(r, res, NULL) != 0)
        return 0;
    return reply_result(r, NULL);
}

#define LIST_HANDLER(name, load, action)                                                                     \
    int name(struct req *r)                                                                                  \
    {                                                                                                        \
        struct resource res;                                                                                 \
        return load(r, &res) != 0 ? 0 : action(r, &res);                                                     \
    }

LIST_HANDLER(cp_site_list_set, cp_site_load, list_set)
LIST_HANDLER(cp_site_list_get, cp_site_load, list_get)
LIST_HANDLER(cp_site_list_switch, cp_site_load, list_switch)
LIST_HANDLER(cp_host_list_set, cp_path_host, list_set)
LIST_HANDLER(cp_host_list_get, cp_path_host, list_get)
LIST_HANDLER(cp_host_list_switch, cp_path_host, list_switch)
