/* catalogue.c — what CleanPipe hands out from the operator's catalogue:
 * mitigation group profiles and auto profiles (per ip_type), service plans,
 * and the lookups other handlers validate against. */
#include <string.h>

#include "api/cp/cp_common.h"
#include "core/catalogue.h"

/* The catalogue list `key` for ip_type as the API answers it: entries with
 * an integer profile_id and a string profile_name (anything else the
 * operator stored is left out). NULL after replying 500. */
static json_t *profiles_for(struct req *r, const char *key, const char *ip_type)
{
    json_t *all = catalogue_value(r, key);
    if (!all)
        return NULL;
    json_t *out = json_array();
    size_t i;
    json_t *p;
    json_array_foreach (json_object_get(all, ip_type), i, p) {
        json_t *id = json_object_get(p, "profile_id"), *name = json_object_get(p, "profile_name");
        if (json_is_integer(id) && json_is_string(name))
            json_array_append_new(out, json_pack("{s:O,s:O}", "profile_id", id, "profile_name", name));
    }
    return out;
}

int cp_mitigation_group_profiles_list(struct req *r)
{
    json_t *list = profiles_for(r, CP_CAT_GROUP_PROFILES, field_str(r, "ip_type"));
    return list ? reply_result(r, list) : 0;
}

int cp_auto_profiles_list(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0)
        return 0;
    json_t *list = profiles_for(r, CP_CAT_AUTO_PROFILES, cp_doc_str(site.doc, "ip_type"));
    return list ? reply_result(r, list) : 0;
}

int cp_service_plan_list(struct req *r)
{
    json_t *plans = catalogue_value(r, CP_CAT_SERVICE_PLANS);
    if (!plans)
        return 0;
    json_t *out = json_array();
    size_t i;
    json_t *p;
    json_array_foreach (plans, i, p)
        if (json_is_string(p))
            json_array_append(out, p);
    return reply_result(r, out);
}

json_t *cp_profile_in(const json_t *list, long long id)
{
    size_t i;
    json_t *p;
    json_array_foreach (list, i, p) {
        /* only entries the lists show (integer id, string name) can be chosen */
        json_t *pid = json_object_get(p, "profile_id");
        if (json_is_integer(pid) && json_integer_value(pid) == id &&
            json_is_string(json_object_get(p, "profile_name")))
            return p;
    }
    return NULL;
}

json_t *cp_profiles_raw(struct req *r, const char *key, const char *ip_type)
{
    json_t *all = catalogue_value(r, key);
    if (!all)
        return NULL;
    json_t *list = json_object_get(all, ip_type);
    return json_is_array(list) ? list : req_hold(r, json_array());
}

json_t *cp_profile_find(struct req *r, const char *key, const char *ip_type, long long id, bool *failed)
{
    json_t *list = cp_profiles_raw(r, key, ip_type);
    *failed = list == NULL;
    return cp_profile_in(list, id);
}

const char *cp_profile_name(json_t *profile)
{
    return json_string_value(json_object_get(profile, "profile_name"));
}
