/* model.c — the renderers' input from the store (model.h). One list read
 * per kind, joined here by parent rid, so the number of reads does not grow
 * with the number of sites. */
#include "dataplane/model.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api/op/op_mitigation.h"

enum { ALL = 1000000 }; /* "every row" for res_list */

struct load {
    struct store *s;
    json_t *det_defaults, *mit_defaults;
    int rc;
};

static json_t *all_of(struct load *l, const char *kind)
{
    struct res_query q = {.kind = kind, .limit = ALL};
    json_t *rows = NULL;
    long total;
    if (l->rc == 0 && l->s->ops->res_list(l->s, &q, &rows, &total) != STORE_OK)
        l->rc = -1;
    return rows ? rows : json_array();
}

static void rid_key(char key[24], json_int_t rid)
{
    snprintf(key, 24, "%lld", (long long)rid);
}

/* The rows of a kind grouped by parent rid: {"<parent rid>": [row...]}. */
static json_t *by_parent(struct load *l, const char *kind)
{
    json_t *rows = all_of(l, kind), *by = json_object();
    size_t i;
    json_t *row;
    char key[24];
    json_array_foreach (rows, i, row) {
        rid_key(key, json_integer_value(json_object_get(row, "parent_rid")));
        json_t *list = json_object_get(by, key);
        if (!list)
            json_object_set_new(by, key, list = json_array());
        json_array_append(list, row);
    }
    json_decref(rows);
    return by;
}

/* The one settings document under a parent ("settings" kinds), or NULL. */
static json_t *settings_of(json_t *by, json_int_t parent)
{
    char key[24];
    rid_key(key, parent);
    return json_object_get(json_array_get(json_object_get(by, key), 0), "doc");
}

static json_t *children_of(json_t *by, json_int_t parent)
{
    char key[24];
    rid_key(key, parent);
    return json_object_get(by, key); /* NULL (no children) iterates as empty */
}

static json_t *merged(const json_t *defaults, const char *name, const json_t *doc)
{
    const json_t *def = json_object_get(defaults, name);
    return def ? op_merge(def, json_object_get(doc, name)) : json_object();
}

/* The host's detection leaves over the catalogue's tree. */
static json_t *detection_of(const json_t *tree, const json_t *doc)
{
    const json_t *stored = json_object_get(doc, "policy");
    json_t *out = json_object();
    const char *group, *name;
    json_t *leaves, *def;
    json_object_foreach ((json_t *)tree, group, leaves) {
        json_t *g = json_object();
        json_object_foreach (leaves, name, def) {
            const json_t *mine = json_object_get(json_object_get(stored, group), name);
            json_object_set_new(g, name, json_is_object(mine) ? op_merge(def, mine) : json_deep_copy(def));
        }
        json_object_set_new(out, group, g);
    }
    return out;
}

static json_t *base(const json_t *row)
{
    json_t *doc = json_object_get(row, "doc");
    json_t *blocks = json_object_get(doc, "cidr");
    return json_pack("{s:O,s:O,s:O,s:O,s:O}", "rid", json_object_get(row, "rid"), "id", json_object_get(row, "id"),
                     "customer_id", json_object_get(row, "customer_id"), "name",
                     json_object_get(row, "name") ? json_object_get(row, "name") : json_string(""), "blocks",
                     json_is_array(blocks) ? blocks : json_array());
}

/* The ongoing DDoS events of one site of a family. */
static json_t *events_of(struct load *l, const char *family, const json_t *site)
{
    int64_t rid = json_integer_value(json_object_get(site, "rid"));
    struct tel_event_query q = {.family = family,
                                .customer_id = json_string_value(json_object_get(site, "customer_id")),
                                .site_rids = &rid,
                                .n_sites = 1,
                                .from = 0,
                                .to = (int64_t)time(NULL) + 86400,
                                .status = TEL_ONGOING,
                                .limit = 1000};
    json_t *rows = NULL, *out = json_array();
    long total;
    if (l->rc == 0 && l->s->ops->tel_events_list(l->s, &q, &rows, &total) != STORE_OK)
        l->rc = -1;
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        int sev = (int)json_integer_value(json_object_get(row, "severity"));
        json_array_append_new(out, json_pack("{s:O,s:O,s:s}", "alert_id", json_object_get(row, "alert_id"),
                                             "site_ip", json_object_get(row, "site_ip"), "severity",
                                             sev == TEL_SEV_BLACKHOLE ? "blackhole" : "divert"));
    }
    json_decref(rows);
    return out;
}

static json_int_t level_int(const json_t *policy, const char *level, const char *member)
{
    return json_integer_value(json_object_get(json_object_get(json_object_get(policy, "levels"), level), member));
}

static json_t *op_sites(struct load *l)
{
    json_t *sites = all_of(l, "op.site"), *nets = by_parent(l, "op.network"), *hosts = by_parent(l, "op.host");
    json_t *policies = by_parent(l, "op.site.policy"), *mits = by_parent(l, "op.site.mitigation");
    json_t *dets = by_parent(l, "op.host.detection"), *hmits = by_parent(l, "op.host.mitigation");
    json_t *flex = by_parent(l, "op.flex_filter");
    json_t *out = json_array();
    size_t i, j, k, f;
    json_t *row, *nrow, *hrow, *frow;
    json_array_foreach (sites, i, row) {
        json_int_t rid = json_integer_value(json_object_get(row, "rid"));
        json_t *site = base(row), *policy = settings_of(policies, rid), *mit = settings_of(mits, rid);
        json_object_set_new(site, "detection_mode", json_integer(level_int(policy, "site", "detection_mode")));
        json_object_set_new(site, "mitigation_mode", json_integer(level_int(policy, "site", "mitigation_mode")));
        json_object_set_new(site, "allow_list", merged(l->mit_defaults, "allow_list", mit));
        json_object_set_new(site, "block_list", merged(l->mit_defaults, "block_list", mit));
        json_object_set_new(site, "bogons", merged(l->mit_defaults, "bogons", mit));
        json_object_set(site, "defaults", l->det_defaults);
        json_t *nlist = json_array();
        json_array_foreach (children_of(nets, rid), j, nrow) {
            json_t *net = base(nrow);
            const char *nid = json_string_value(json_object_get(nrow, "id"));
            json_object_set_new(net, "mitigation_mode", json_integer(level_int(policy, nid, "mitigation_mode")));
            json_t *hlist = json_array();
            json_int_t nrid = json_integer_value(json_object_get(nrow, "rid"));
            json_array_foreach (children_of(hosts, nrid), k, hrow) {
                json_t *host = base(hrow);
                json_int_t hrid = json_integer_value(json_object_get(hrow, "rid"));
                char level[2 * RES_ID_MAX + 2];
                snprintf(level, sizeof level, "%s/%s", nid, json_string_value(json_object_get(hrow, "id")));
                json_object_set_new(host, "mitigation_mode", json_integer(level_int(policy, level, "mitigation_mode")));
                json_object_set_new(host, "detection", detection_of(l->det_defaults, settings_of(dets, hrid)));
                json_t *hm = settings_of(hmits, hrid);
                json_object_set_new(host, "udp_flood", merged(l->mit_defaults, "udp_flood", hm));
                json_object_set_new(host, "zombie", merged(l->mit_defaults, "zombie", hm));
                json_t *flist = json_array();
                json_array_foreach (children_of(flex, hrid), f, frow) {
                    json_t *doc = json_deep_copy(json_object_get(frow, "doc"));
                    json_object_set(doc, "id", json_object_get(frow, "id"));
                    json_array_append_new(flist, doc);
                }
                json_object_set_new(host, "flex", flist);
                json_array_append_new(hlist, host);
            }
            json_object_set_new(net, "hosts", hlist);
            json_array_append_new(nlist, net);
        }
        json_object_set_new(site, "networks", nlist);
        json_object_set_new(site, "events", events_of(l, "op", site));
        json_array_append_new(out, site);
    }
    json_decref(sites), json_decref(nets), json_decref(hosts), json_decref(policies), json_decref(mits);
    json_decref(dets), json_decref(hmits), json_decref(flex);
    return out;
}

static json_t *doc_member(const json_t *row, const char *name)
{
    json_t *v = json_object_get(json_object_get(row, "doc"), name);
    return v ? json_incref(v) : json_object();
}

static json_t *cp_sites(struct load *l)
{
    json_t *sites = all_of(l, "cp.site"), *hosts = by_parent(l, "cp.host");
    json_t *templates = by_parent(l, "cp.route_template"), *out = json_array();
    size_t i, j;
    json_t *row, *crow;
    json_array_foreach (sites, i, row) {
        json_int_t rid = json_integer_value(json_object_get(row, "rid"));
        json_t *site = base(row);
        json_object_set(site, "defaults", l->det_defaults);
        json_object_set_new(site, "policy", doc_member(row, "policy"));
        json_object_set_new(site, "lists", doc_member(row, "lists"));
        json_t *tl = json_array(), *hl = json_array();
        json_array_foreach (children_of(templates, rid), j, crow)
            json_array_append_new(tl, base(crow));
        json_array_foreach (children_of(hosts, rid), j, crow) {
            json_t *h = base(crow);
            json_object_set_new(h, "policy", doc_member(crow, "policy"));
            json_object_set_new(h, "lists", doc_member(crow, "lists"));
            json_array_append_new(hl, h);
        }
        json_object_set_new(site, "templates", tl);
        json_object_set_new(site, "hosts", hl);
        json_object_set_new(site, "events", events_of(l, "cp", site));
        json_array_append_new(out, site);
    }
    json_decref(sites), json_decref(hosts), json_decref(templates);
    return out;
}

static json_t *catalogue(struct load *l, const char *key)
{
    json_t *v = NULL;
    if (l->rc == 0 && l->s->ops->catalogue_get(l->s, key, &v) != STORE_OK)
        l->rc = -1;
    return json_is_object(v) ? v : (json_decref(v), json_object());
}

int dp_model_load(struct store *s, json_t **out)
{
    *out = NULL;
    if (s->ops->begin(s, false) != STORE_OK)
        return -1;
    struct load l = {.s = s};
    l.det_defaults = catalogue(&l, "op_detection_defaults");
    l.mit_defaults = catalogue(&l, "op_mitigation_defaults");
    json_t *op = op_sites(&l), *cp = cp_sites(&l);
    s->ops->commit(s);
    json_decref(l.det_defaults);
    json_decref(l.mit_defaults);
    if (l.rc != 0) {
        json_decref(op), json_decref(cp);
        return -1;
    }
    *out = json_pack("{s:o,s:o}", "op_sites", op, "cp_sites", cp);
    return 0;
}
