/* overview.c — the overview policy of a CleanPipe site: detection and
 * mitigation at site level, and per host (site level unless customised).
 * A POST changes only what its body carries (gaps B.4.10). Stored in the
 * site's and the hosts' documents under "policy":
 *   site: {detection, auto: {enable, profile_id}, manual: {enable, template_profile_id}}
 *   host: {is_customize, detection, auto: {enable, profile_id}, manual: {mode}}
 * A profile_id or template_profile_id of 0 (or never set) means none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/cp/cp_common.h"

json_t *cp_site_policy_default(void)
{
    return json_pack("{s:i,s:{s:i,s:i},s:{s:i,s:i}}", "detection", 1, "auto", "enable", 0, "profile_id", 0,
                     "manual", "enable", 0, "template_profile_id", 0);
}

json_t *cp_host_policy_default(void)
{
    return json_pack("{s:i,s:i,s:{s:i,s:i},s:{s:i}}", "is_customize", 0, "detection", 1, "auto", "enable", 0,
                     "profile_id", 0, "manual", "mode", 0);
}

/* Copies in[key] over out[key] when the body carries it. */
static void take(json_t *out, const json_t *in, const char *key)
{
    json_t *v = json_object_get(in, key);
    if (v)
        json_object_set(out, key, v);
}

/* Merges a body's auto {enable, profile_id} into the stored one: the
 * profile must be one of the site's auto profiles, and auto mitigation
 * cannot be on without one. `where` names the body member. */
static int merge_auto(struct req *r, const char *where, json_t *stored, const json_t *in, const char *ip_type)
{
    take(stored, in, "enable");
    take(stored, in, "profile_id");
    long long id = cp_doc_int(stored, "profile_id", 0);
    if (json_object_get(in, "profile_id") && id != 0) {
        bool failed;
        if (!cp_profile_find(r, CP_CAT_AUTO_PROFILES, ip_type, id, &failed)) {
            if (!failed)
                reply_error(r, E_FIELD_INVALID,
                            "%s.profile_id: %lld is not an auto profile of this site "
                            "(GET .../policy/mitigation/auto-profiles)",
                            where, id);
            return -1;
        }
    }
    if (cp_doc_int(stored, "enable", 0) && id == 0) {
        reply_error(r, E_RULE, "%s.profile_id: is required to enable auto mitigation", where);
        return -1;
    }
    return 0;
}

static int merge_site(struct req *r, struct resource *site, const json_t *in)
{
    json_t *stored = cp_doc_obj(site->doc, "policy");
    const json_t *mit = json_object_get(in, "mitigation");
    const json_t *manual_in = json_object_get(mit, "manual");
    take(stored, in, "detection");
    if (merge_auto(r, "site.policy.mitigation.auto", cp_doc_obj(stored, "auto"), json_object_get(mit, "auto"),
                   cp_doc_str(site->doc, "ip_type")) != 0)
        return -1;
    json_t *manual = cp_doc_obj(stored, "manual");
    take(manual, manual_in, "enable");
    take(manual, manual_in, "template_profile_id");
    long long tid = cp_doc_int(manual, "template_profile_id", 0);
    if (json_object_get(manual_in, "template_profile_id") && tid != 0) {
        char id[24];
        struct resource t;
        snprintf(id, sizeof id, "%lld", tid);
        if (res_by_id(r, CP_TEMPLATE.name, id, "site.policy.mitigation.manual.template_profile_id",
                      "route template of this site", site, &t) != 0)
            return -1;
    }
    if (cp_doc_int(manual, "enable", 0) && tid == 0) {
        reply_error(
            r, E_RULE,
            "site.policy.mitigation.manual.template_profile_id: is required to enable manual mitigation "
            "(a route template of the site)");
        return -1;
    }
    return 0;
}

static int merge_host(struct req *r, const struct resource *site, size_t i, const json_t *in)
{
    const char *host_id = json_string_value(json_object_get(in, "host_id"));
    char where[96];
    snprintf(where, sizeof where, "hosts[%zu].host_id", i);
    struct resource host;
    if (res_by_id(r, CP_HOST.name, host_id, where, "host of this site", site, &host) != 0)
        return -1;
    const json_t *policy = json_object_get(in, "policy"), *mit = json_object_get(policy, "mitigation");
    json_t *stored = cp_doc_obj(host.doc, "policy");
    json_t *custom = json_object_get(policy, "custom");
    if (custom) /* 0: the site's policy applies; anything else: the host's own */
        json_object_set_new(stored, "is_customize", json_integer(json_integer_value(custom) != 0));
    take(stored, policy, "detection");
    snprintf(where, sizeof where, "hosts[%zu].policy.mitigation.auto", i);
    if (merge_auto(r, where, cp_doc_obj(stored, "auto"), json_object_get(mit, "auto"),
                   cp_doc_str(site->doc, "ip_type")) != 0)
        return -1;
    take(cp_doc_obj(stored, "manual"), json_object_get(mit, "manual"), "mode");
    return cp_save(r, &host, NULL);
}

int cp_overview_set(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0)
        return 0;
    json_t *hosts = field_json(r, "hosts"), *in_site = field_json(r, "site");
    if (!hosts && !in_site)
        return reply_error(r, E_FIELD_MISSING, "hosts: is required when site is absent (nothing to change)");
    size_t i, j;
    json_t *h;
    json_array_foreach (hosts, i, h) {
        for (j = 0; j < i; j++)
            if (json_equal(json_object_get(h, "host_id"),
                           json_object_get(json_array_get(hosts, j), "host_id")))
                return reply_error(r, E_FIELD_INVALID, "hosts[%zu].host_id: repeats hosts[%zu].host_id", i,
                                   j);
        if (merge_host(r, &site, i, h) != 0)
            return 0;
    }
    if (in_site) {
        if (merge_site(r, &site, json_object_get(in_site, "policy")) != 0 || cp_save(r, &site, NULL) != 0)
            return 0;
    }
    return reply_result(r, NULL);
}

/* {enable, profile_id, profile_name} with the catalogue's name. The types
 * stay the documented ones: no profile chosen is profile_id 0 (what a POST
 * sends for none) with profile_name ""; a profile the operator has since
 * removed keeps its id with the name "". */
static json_t *auto_json(const json_t *stored, const json_t *profiles)
{
    long long id = cp_doc_int(stored, "profile_id", 0);
    json_t *p = id ? cp_profile_in(profiles, id) : NULL;
    const char *name = p ? cp_profile_name(p) : NULL;
    return json_pack("{s:I,s:I,s:s}", "enable", (json_int_t)cp_doc_int(stored, "enable", 0), "profile_id",
                     (json_int_t)id, "profile_name", name ? name : "");
}

static json_t *host_policy_json(const json_t *row, const json_t *profiles)
{
    const json_t *p = json_object_get(json_object_get(row, "doc"), "policy");
    return json_pack("{s:s,s:{s:I,s:I,s:{s:o,s:{s:I}}}}", "host_id", cp_doc_str(row, "id"), "policy",
                     "detection", (json_int_t)cp_doc_int(p, "detection", 1), "is_customize",
                     (json_int_t)cp_doc_int(p, "is_customize", 0), "mitigation", "auto",
                     auto_json(json_object_get(p, "auto"), profiles), "manual", "mode",
                     (json_int_t)cp_doc_int(json_object_get(p, "manual"), "mode", 0));
}

int cp_overview_get(struct req *r)
{
    struct resource site;
    if (cp_site_load(r, &site) != 0)
        return 0;
    json_t *rows = cp_list(r, CP_HOST.name, site.rid, CP_MAX_HOSTS);
    json_t *profiles =
        rows ? cp_profiles_raw(r, CP_CAT_AUTO_PROFILES, cp_doc_str(site.doc, "ip_type")) : NULL;
    if (!profiles)
        return 0;
    json_t *hosts = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        json_array_append_new(hosts, host_policy_json(row, profiles));
    const json_t *p = json_object_get(site.doc, "policy"), *manual = json_object_get(p, "manual");
    long long tid = cp_doc_int(manual, "template_profile_id", 0);
    json_t *tname = json_string(""); /* none chosen: template_profile_id 0 */
    if (tid) {
        char id[24];
        struct resource t;
        struct res_query q = {
            .kind = CP_TEMPLATE.name, .customer_id = r->customer.id, .parent_rid = site.rid};
        snprintf(id, sizeof id, "%lld", tid);
        if (r->store->ops->res_get(r->store, &q, id, NULL, &t) == STORE_OK) {
            json_decref(tname);
            tname = json_string(t.name);
            resource_clear(&t);
        }
    }
    json_t *site_json = json_pack("{s:{s:I,s:{s:o,s:{s:I,s:o,s:o}}}}", "policy", "detection",
                                  (json_int_t)cp_doc_int(p, "detection", 1), "mitigation", "auto",
                                  auto_json(json_object_get(p, "auto"), profiles), "manual", "enable",
                                  (json_int_t)cp_doc_int(manual, "enable", 0), "template_profile_id",
                                  json_integer(tid), "template_profile_name", tname);
    return reply_result(r, json_pack("{s:o,s:o}", "hosts", hosts, "site", site_json));
}
