/* auto_mitigation.c — a site's auto-mitigation profiles (gaps B.4.6, A1.6).
 * Every site sees the operator's templates (catalogue
 * op_auto_mitigation_templates: read-only, usable by the overview policy,
 * cloneable) and its own profiles (kind op.auto_profile, the client's
 * profile_id as the resource's name). POST .../profile/{profile_id} creates
 * the site profile or renames it; clone copies a profile (and its flex
 * filters) under a new 16-hex profile_id; DELETE refuses templates and a
 * profile an overview level uses. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api/op/op_kinds.h"
#include "api/op/op_mitigation.h"
#include "base/crypto.h"
#include "base/text.h"
#include "core/catalogue.h"
#include "core/resource.h"

static json_t *profile_json(const struct resource *p)
{
    return json_pack("{s:s,s:O}", "profile_id", p->name, "profile_name",
                     json_object_get(p->doc, "profile_name"));
}

static int refuse_template(struct req *r, const char *id, const char *what)
{
    return reply_error(r, E_STATE,
                       "profile_id: %s is a template of the catalogue; it cannot be %s (clone it)", id, what);
}

/* Creates the site profile `id` with `doc` (consumed). */
static int create_profile(struct req *r, const struct resource *site, const char *id, json_t *doc,
                          struct resource *out)
{
    req_hold(r, doc);
    struct res_query q = {
        .kind = OP_AUTO_PROFILE.name, .customer_id = site->customer_id, .parent_rid = site->rid};
    json_t *rows;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    json_decref(rows);
    if (rc != STORE_OK)
        return reply_store_error(r, rc), -1;
    if (total >= OP_PROFILES_MAX_PER_SITE)
        return reply_error(r, E_LIMIT, "profile_id: a site may have at most %d profiles of its own",
                           OP_PROFILES_MAX_PER_SITE),
               -1;
    memset(out, 0, sizeof *out);
    copy_text(out->kind, sizeof out->kind, OP_AUTO_PROFILE.name);
    copy_text(out->customer_id, sizeof out->customer_id, site->customer_id);
    copy_text(out->name, sizeof out->name, id);
    out->parent_rid = site->rid;
    out->doc = doc;
    rc = r->store->ops->res_create(r->store, &OP_AUTO_PROFILE, out);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "profile_id", "profile_id: is already a profile of this site"), -1;
    return 0;
}

int op_auto_profile_set(struct req *r)
{
    struct resource site, p;
    if (op_site_of(r, &site) != 0)
        return 0;
    const char *id = path_param(r, "profile_id");
    json_t *templates = op_catalogue(r, "op_auto_mitigation_templates");
    if (!templates)
        return 0;
    const char *key;
    json_t *t;
    json_object_foreach (templates, key, t)
        if (strcasecmp(key, id) == 0) /* profile ids compare without case, as names do */
            return refuse_template(r, key, "changed");
    struct res_query q = {
        .kind = OP_AUTO_PROFILE.name, .customer_id = site.customer_id, .parent_rid = site.rid};
    int rc = r->store->ops->res_get(r->store, &q, NULL, id, &p);
    if (rc == STORE_NOT_FOUND) {
        if (create_profile(r, &site, id, json_pack("{s:s}", "profile_name", field_str(r, "profile_name")),
                           &p) != 0)
            return 0;
        return reply_result(r, NULL);
    }
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    req_hold(r, p.doc);
    json_object_set_new(p.doc, "profile_name", json_string(field_str(r, "profile_name")));
    rc = r->store->ops->res_update(r->store, &p);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "profile_id", "profile_id: the profile changed meanwhile; try again");
    return reply_result(r, NULL);
}

int op_auto_profile_get(struct req *r)
{
    struct resource site, p;
    if (op_site_of(r, &site) != 0 ||
        op_profile_find(r, &site, path_param(r, "profile_id"), "profile_id", &p) != 0)
        return 0;
    return reply_result(r, profile_json(&p));
}

/* Whether the overview level `key` ("site", "<network_id>" or
 * "<network_id>/<host_id>") still exists: levels of deleted networks and
 * hosts do not hold a profile. */
static int level_exists(struct req *r, const struct resource *site, const char *key, bool *exists)
{
    *exists = true;
    if (strcmp(key, "site") == 0)
        return 0;
    char nid[RES_ID_MAX + 1];
    const char *slash = strchr(key, '/');
    snprintf(nid, sizeof nid, "%.*s", (int)(slash ? (size_t)(slash - key) : strlen(key)), key);
    struct resource net = {0}, host = {0};
    struct res_query q = {.kind = OP_NETWORK.name, .customer_id = site->customer_id, .parent_rid = site->rid};
    int rc = r->store->ops->res_get(r->store, &q, nid, NULL, &net);
    if (rc == STORE_OK && slash) {
        struct res_query hq = {.kind = OP_HOST.name, .customer_id = site->customer_id, .parent_rid = net.rid};
        rc = r->store->ops->res_get(r->store, &hq, slash + 1, NULL, &host);
        resource_clear(&host);
    }
    resource_clear(&net);
    if (rc == STORE_NOT_FOUND)
        *exists = false;
    else if (rc != STORE_OK)
        return reply_store_error(r, rc), -1;
    return 0;
}

/* "the site level", "network <id>", "host <id>" */
static const char *level_words(const char *key, char *out, size_t size)
{
    const char *slash = strchr(key, '/');
    if (slash)
        snprintf(out, size, "host %s", slash + 1);
    else if (strcmp(key, "site") != 0)
        snprintf(out, size, "network %s", key);
    else
        snprintf(out, size, "the site level");
    return out;
}

int op_auto_profile_delete(struct req *r)
{
    char words[2 * RES_ID_MAX + 16];
    struct resource site, p, pol;
    if (op_site_of(r, &site) != 0 ||
        op_profile_find(r, &site, path_param(r, "profile_id"), "profile_id", &p) != 0)
        return 0;
    if (p.rid == 0)
        return refuse_template(r, p.name, "deleted");
    if (op_settings_load(r, &OP_SITE_POLICY, &site, &pol) != 0)
        return 0;
    const char *key;
    json_t *level;
    json_object_foreach (json_object_get(pol.doc, "levels"), key, level) {
        const char *used = json_string_value(json_object_get(level, "auto_profile"));
        bool exists;
        if (!used || strcmp(used, p.name) != 0)
            continue;
        if (level_exists(r, &site, key, &exists) != 0)
            return 0;
        if (exists)
            return reply_error(r, E_STATE,
                               "profile_id: %s is the auto-mitigation profile of the overview policy at %s; "
                               "choose another profile there first",
                               p.name, level_words(key, words, sizeof words));
    }
    int rc = r->store->ops->res_delete(r->store, p.rid, NULL);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "profile_id", "profile_id: could not be deleted");
    return reply_result(r, NULL);
}

/* Copies the flex filters of profile `from` under profile `to`. */
static int copy_filters(struct req *r, const struct resource *from, const struct resource *to)
{
    struct res_query q = {.kind = OP_AUTO_FLEX_FILTER.name,
                          .customer_id = from->customer_id,
                          .parent_rid = from->rid,
                          .limit = 100000};
    json_t *rows;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc), -1;
    req_hold(r, rows);
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct resource f = {.parent_rid = to->rid, .doc = json_object_get(row, "doc")};
        copy_text(f.kind, sizeof f.kind, OP_AUTO_FLEX_FILTER.name);
        copy_text(f.customer_id, sizeof f.customer_id, to->customer_id);
        rc = r->store->ops->res_create(r->store, &OP_AUTO_FLEX_FILTER, &f);
        if (rc != STORE_OK)
            return reply_store_error(r, rc), -1;
    }
    return 0;
}

int op_auto_profile_clone(struct req *r)
{
    struct resource site, from, copy;
    if (op_site_of(r, &site) != 0 ||
        op_profile_find(r, &site, path_param(r, "profile_id"), "profile_id", &from) != 0)
        return 0;
    char id[17], name[OP_NAME_MAX + 1];
    random_hex(id, 8);
    const char *was = json_string_value(json_object_get(from.doc, "profile_name"));
    snprintf(name, sizeof name, "%.*s copy", OP_NAME_MAX - 5, was ? was : from.name);
    if (create_profile(r, &site, id, json_pack("{s:s}", "profile_name", name), &copy) != 0)
        return 0;
    if (from.rid > 0 && copy_filters(r, &from, &copy) != 0)
        return 0;
    return reply_result(r, profile_json(&copy));
}

/* A1.6 / A0.15: without limit, 200 and every profile as an array; with
 * limit (1 to 50), 201 and the page {data, limit, start, total}. Templates
 * come first (catalogue order), then the site's profiles (creation order). */
int op_auto_profiles_list(struct req *r)
{
    struct resource site;
    if (op_site_of(r, &site) != 0)
        return 0;
    json_t *templates = op_catalogue(r, "op_auto_mitigation_templates");
    if (!templates)
        return 0;
    bool paged = field_json(r, "limit") != NULL;
    long start = (long)field_int(r, "start", 0), limit = paged ? (long)field_int(r, "limit", 50) : 1000000;
    long ntpl = (long)json_object_size(templates), i = 0;
    json_t *data = json_array();
    const char *key;
    json_t *t;
    json_object_foreach (templates, key, t) {
        if (i >= start && (long)json_array_size(data) < limit)
            json_array_append_new(data, json_pack("{s:s,s:O}", "profile_id", key, "profile_name",
                                                  json_object_get(t, "profile_name")));
        i++;
    }
    long want = limit - (long)json_array_size(data);
    struct res_query q = {.kind = OP_AUTO_PROFILE.name,
                          .customer_id = site.customer_id,
                          .parent_rid = site.rid,
                          .offset = start > ntpl ? start - ntpl : 0,
                          .limit = want};
    json_t *rows = NULL;
    long total = 0;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK) {
        json_decref(data);
        return reply_store_error(r, rc);
    }
    size_t j;
    json_t *row;
    json_array_foreach (rows, j, row)
        json_array_append_new(data, json_pack("{s:O,s:O}", "profile_id", json_object_get(row, "name"),
                                              "profile_name",
                                              json_object_get(json_object_get(row, "doc"), "profile_name")));
    json_decref(rows);
    if (!paged)
        return reply_result(r, data);
    reply_result(r, json_pack("{s:o,s:i,s:i,s:i}", "data", data, "limit", (int)limit, "start", (int)start,
                              "total", (int)(ntpl + total)));
    r->status = 201;
    return 0;
}
