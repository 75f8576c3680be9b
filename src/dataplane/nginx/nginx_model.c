/* nginx_model.c — see nginx_model.h. Six listings (one per kind, every
 * tenant's), joined here by parent. */
#include "dataplane/nginx/nginx_model.h"

#include <stdio.h>

#include "store/resource.h"

static int list_kind(struct store *s, const char *kind, json_t **rows)
{
    struct res_query q = {.kind = kind, .limit = 1000000000L};
    long total = 0;
    return s->ops->res_list(s, &q, rows, &total);
}

/* {"<parent rid>": [rows...]} */
static json_t *by_parent(json_t *rows)
{
    json_t *out = json_object();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)json_integer_value(json_object_get(row, "parent_rid")));
        json_t *list = json_object_get(out, key);
        if (!list)
            json_object_set_new(out, key, list = json_array());
        json_array_append(list, row);
    }
    return out;
}

static json_t *children(json_t *index, const json_t *parent)
{
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)json_integer_value(json_object_get(parent, "rid")));
    return json_object_get(index, key);
}

/* The one policy document of `kind` under parent (named "policy"), or null. */
static json_t *policy_doc(json_t *index, const json_t *parent)
{
    json_t *rows = children(index, parent);
    json_t *doc = json_object_get(json_array_get(rows, 0), "doc");
    return doc ? json_incref(doc) : json_null();
}

static json_t *rule_docs(json_t *index, const json_t *parent)
{
    json_t *out = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (children(index, parent), i, row)
        json_array_append(out, json_object_get(row, "doc"));
    return out;
}

static json_t *node(const json_t *row)
{
    return json_pack("{s:O,s:O,s:O,s:O,s:O}", "rid", json_object_get(row, "rid"), "id", json_object_get(row, "id"),
                     "customer_id", json_object_get(row, "customer_id"), "name", json_object_get(row, "name"),
                     "doc", json_object_get(row, "doc"));
}

static void add_policies(json_t *out, const json_t *owner, json_t *shield, json_t *waf, json_t *rules)
{
    json_object_set_new(out, "appshield", policy_doc(shield, owner));
    json_object_set_new(out, "waf", policy_doc(waf, owner));
    json_object_set_new(out, "rules", rule_docs(rules, owner));
}

int nginx_model_load(struct store *s, json_t **out)
{
    static const char *const kinds[] = {"ap.site", "ap.domain", "ap.domain_port", "ap.appshield", "ap.waf",
                                        "ap.waf.custom_rule"};
    json_t *rows[6] = {0};
    int rc = STORE_OK;
    for (size_t k = 0; k < 6 && rc == STORE_OK; k++)
        rc = list_kind(s, kinds[k], &rows[k]);
    json_t *idx[6] = {0};
    for (size_t k = 1; k < 6; k++)
        idx[k] = by_parent(rows[k] ? rows[k] : json_array());
    json_t *sites = json_array();
    size_t i, j, p;
    json_t *site, *domain, *port;
    json_array_foreach (rc == STORE_OK ? rows[0] : NULL, i, site) {
        json_t *sn = node(site);
        add_policies(sn, site, idx[3], idx[4], idx[5]);
        json_t *domains = json_array();
        json_array_foreach (children(idx[1], site), j, domain) {
            json_t *dn = node(domain);
            json_t *ports = json_array();
            json_array_foreach (children(idx[2], domain), p, port) {
                json_t *pn = node(port);
                add_policies(pn, port, idx[3], idx[4], idx[5]);
                json_array_append_new(ports, pn);
            }
            json_object_set_new(dn, "ports", ports);
            json_array_append_new(domains, dn);
        }
        json_object_set_new(sn, "domains", domains);
        json_array_append_new(sites, sn);
    }
    for (size_t k = 0; k < 6; k++) {
        json_decref(rows[k]);
        json_decref(idx[k]);
    }
    if (rc != STORE_OK) {
        json_decref(sites);
        return rc;
    }
    *out = sites;
    return STORE_OK;
}
