/* mitigation_store.c — what the family's handlers share: the kinds of its
 * settings documents, loading the site/network/host of a path (with the
 * overview's reserved 0 levels), settings documents created on first write
 * and read over the catalogue's defaults, and finding a profile. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/op/op_kinds.h"
#include "api/op/op_mitigation.h"
#include "base/text.h"
#include "core/catalogue.h"
#include "core/resource.h"

/* Settings documents: one per parent, under the fixed name "settings" (unique
 * in the parent, so that one indexed lookup finds it and two first writes
 * cannot both create it). */
#define SETTINGS_NAME "settings"
const struct res_kind OP_SITE_MITIGATION = {"op.site.mitigation", .parent = "op.site",
                                            .name_scope = RES_NAME_IN_PARENT};
const struct res_kind OP_SITE_POLICY = {"op.site.policy", .parent = "op.site",
                                        .name_scope = RES_NAME_IN_PARENT};
const struct res_kind OP_HOST_DETECTION = {"op.host.detection", .parent = "op.host",
                                           .name_scope = RES_NAME_IN_PARENT};
const struct res_kind OP_HOST_MITIGATION = {"op.host.mitigation", .parent = "op.host",
                                            .name_scope = RES_NAME_IN_PARENT};
/* Resources of their own. A profile's public profile_id is its name (the
 * client chooses it, unique in its site); its id stays internal. */
const struct res_kind OP_FLEX_FILTER = {"op.flex_filter", .parent = "op.host"};
const struct res_kind OP_AUTO_PROFILE = {"op.auto_profile", .parent = "op.site",
                                         .name_scope = RES_NAME_IN_PARENT};
const struct res_kind OP_AUTO_FLEX_FILTER = {"op.auto_flex_filter", .parent = "op.auto_profile"};

int reply_refusal(struct req *r, const struct op_refusal *why)
{
    return reply_error(r, why->err, "%s", why->msg);
}

int op_site_of(struct req *r, struct resource *site)
{
    return op_load_chain(r, site, NULL, NULL);
}

int op_path_load(struct req *r, bool levels, struct op_path *p)
{
    memset(p, 0, sizeof *p);
    const char *nid = path_param(r, "network_id"), *hid = path_param(r, "host_id");
    if (levels && nid && strcmp(nid, "0") == 0) {
        if (op_load_chain(r, &p->site, NULL, NULL) != 0)
            return -1;
        if (!hid || strcmp(hid, "0") != 0) {
            reply_error(r, E_RULE, "host_id: must be 0 when network_id is 0 (the site level)");
            return -1;
        }
        p->site_level = true;
        copy_text(p->level_key, sizeof p->level_key, "site");
        return 0;
    }
    if (levels && hid && strcmp(hid, "0") == 0) {
        if (op_load_chain(r, &p->site, &p->network, NULL) != 0)
            return -1;
        p->network_level = true;
        copy_text(p->level_key, sizeof p->level_key, p->network.id);
        return 0;
    }
    if (op_load_chain(r, &p->site, &p->network, &p->host) != 0)
        return -1;
    snprintf(p->level_key, sizeof p->level_key, "%s/%s", p->network.id, p->host.id);
    return 0;
}

int op_settings_load(struct req *r, const struct res_kind *kind, const struct resource *parent,
                     struct resource *out)
{
    memset(out, 0, sizeof *out);
    struct res_query q = {.kind = kind->name, .customer_id = parent->customer_id, .parent_rid = parent->rid};
    int rc = r->store->ops->res_get(r->store, &q, NULL, SETTINGS_NAME, out);
    if (rc == STORE_NOT_FOUND) {
        memset(out, 0, sizeof *out);
        out->doc = req_hold(r, json_object());
        return 0;
    }
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    req_hold(r, out->doc);
    if (!json_is_object(out->doc))
        out->doc = req_hold(r, json_object());
    return 0;
}

int op_settings_save(struct req *r, const struct res_kind *kind, const struct resource *parent,
                     struct resource *res)
{
    int rc;
    if (res->rid > 0) {
        rc = r->store->ops->res_update(r->store, res);
    } else {
        copy_text(res->kind, sizeof res->kind, kind->name);
        copy_text(res->customer_id, sizeof res->customer_id, parent->customer_id);
        res->parent_rid = parent->rid;
        copy_text(res->name, sizeof res->name, SETTINGS_NAME);
        rc = r->store->ops->res_create(r->store, kind, res);
    }
    if (rc != STORE_OK) {
        reply_res_error(r, rc, kind->name, "the settings changed meanwhile; try again");
        return -1;
    }
    return 0;
}

/* A thread's parsed copies of the catalogue values this family reads on every
 * request (the detection tree is ~2.5 KB of JSON), each valid while the
 * store's change counter is the one read before it (as auth_cache does). */
struct cached_value {
    const char *key; /* a string literal of the callers */
    uint64_t version;
    json_t *value;
};
enum { CACHE_SLOTS = 4 };
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_free(void *p)
{
    struct cached_value *c = p;
    for (int i = 0; i < CACHE_SLOTS; i++)
        json_decref(c[i].value);
    free(c);
}

static void cache_init(void)
{
    (void)pthread_key_create(&cache_key, cache_free);
}

/* This thread's slots (freed when the thread ends), or NULL. */
static struct cached_value *thread_cache(void)
{
    pthread_once(&cache_once, cache_init);
    struct cached_value *c = pthread_getspecific(cache_key);
    if (!c && (c = calloc(CACHE_SLOTS, sizeof *c)) && pthread_setspecific(cache_key, c) != 0) {
        free(c);
        c = NULL;
    }
    return c;
}

json_t *op_catalogue(struct req *r, const char *key)
{
    struct cached_value *c = r->data_version ? thread_cache() : NULL, *slot = NULL;
    for (int i = 0; c && i < CACHE_SLOTS && !slot; i++)
        if (!c[i].key || strcmp(c[i].key, key) == 0)
            slot = &c[i];
    if (slot && slot->key && slot->version == r->data_version)
        return req_hold(r, json_incref(slot->value));
    json_t *v = catalogue_value(r, key);
    if (v && slot) {
        json_decref(slot->value);
        slot->key = key;
        slot->version = r->data_version;
        slot->value = json_incref(v);
    }
    return v;
}

json_t *op_mitigation_default(struct req *r, const char *name)
{
    json_t *all = op_catalogue(r, "op_mitigation_defaults");
    if (!all)
        return NULL;
    json_t *v = json_object_get(all, name);
    if (!json_is_object(v)) {
        reply_error(r, E_INTERNAL, "the operator's catalogue op_mitigation_defaults has no %s", name);
        return NULL;
    }
    return v;
}

json_t *op_setting_read(struct req *r, const struct resource *settings, const char *name)
{
    json_t *def = op_mitigation_default(r, name);
    return def ? op_merge(def, json_object_get(settings->doc, name)) : NULL;
}

int op_profile_find(struct req *r, const struct resource *site, const char *profile_id, const char *field,
                    struct resource *out)
{
    memset(out, 0, sizeof *out);
    struct res_query q = {
        .kind = OP_AUTO_PROFILE.name, .customer_id = site->customer_id, .parent_rid = site->rid};
    int rc = profile_id && *profile_id ? r->store->ops->res_get(r->store, &q, NULL, profile_id, out)
                                       : STORE_NOT_FOUND;
    if (rc == STORE_OK) {
        req_hold(r, out->doc);
        return 0;
    }
    if (rc != STORE_NOT_FOUND) {
        reply_store_error(r, rc);
        return -1;
    }
    json_t *templates = op_catalogue(r, "op_auto_mitigation_templates");
    if (!templates)
        return -1;
    json_t *t = profile_id ? json_object_get(templates, profile_id) : NULL;
    if (!json_is_object(t)) {
        reply_error(r, E_NOT_FOUND, "%s: no such profile", field);
        return -1;
    }
    memset(out, 0, sizeof *out);
    copy_text(out->name, sizeof out->name, profile_id);
    out->doc = t;
    return 0;
}

/* The host's filters in every auto-mitigation profile of its site (one
 * query: host ids are unique, so the customer's filters are filtered by
 * host_id). */
static int forget_profile_filters(struct req *r, const struct resource *site, const struct resource *host)
{
    struct res_query q = {
        .kind = OP_AUTO_FLEX_FILTER.name, .customer_id = site->customer_id, .limit = LONG_MAX};
    json_t *rows = NULL;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    req_hold(r, rows);
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        if (rc != STORE_OK)
            break;
        const char *of = json_string_value(json_object_get(json_object_get(row, "doc"), "host_id"));
        if (of && strcmp(of, host->id) == 0)
            rc = r->store->ops->res_delete(r->store, json_integer_value(json_object_get(row, "rid")), NULL);
    }
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    return 0;
}

int op_forget_level(struct req *r, const struct resource *site, const struct resource *network,
                    const struct resource *host)
{
    if (host && forget_profile_filters(r, site, host) != 0)
        return -1;
    struct resource pol;
    if (op_settings_load(r, &OP_SITE_POLICY, site, &pol) != 0)
        return -1;
    json_t *levels = json_object_get(pol.doc, "levels");
    char key[2 * RES_ID_MAX + 2];
    size_t nlen = strlen(network->id);
    snprintf(key, sizeof key, "%s/%s", network->id, host ? host->id : "");
    bool changed = false;
    const char *k;
    void *tmp;
    json_t *v;
    json_object_foreach_safe(levels, tmp, k, v)
    {
        bool of_host = host && strcmp(k, key) == 0;
        bool of_network = !host && strncmp(k, network->id, nlen) == 0 && (k[nlen] == '\0' || k[nlen] == '/');
        if (of_host || of_network) {
            json_object_del(levels, k);
            changed = true;
        }
    }
    return changed ? op_settings_save(r, &OP_SITE_POLICY, site, &pol) : 0;
}
