/* sites.c — lists of sites (beyond the documents: GET {OPC}/sites and
 * GET /specp/op/sites) and the site report GET {OPC}/site-report (gaps
 * A1.4: the document does not show its fields; docs/decisions.md). */
#include <stdio.h>

#include "api/op/op.h"
#include "api/op/op_kinds.h"
#include "api/op/op_mitigation.h"
#include "core/catalogue.h"
#include "core/deploy_report.h"
#include "core/resource.h"

enum { OP_LIST_ALL = 1000000 }; /* "every row" for res_list (sites are capped per customer) */

/* A page of sites q sees, each in the read shape plus site_id (and
 * customer_id when with_customer). */
static int reply_sites(struct req *r, struct res_query *q, bool with_customer)
{
    json_t *plans = catalogue_value(r, OP_SERVICE_PLANS);
    if (!plans)
        return 0;
    long page_size = (long)field_int(r, "page_size", 100);
    q->offset = page_offset(field_int(r, "page", 1), page_size);
    q->limit = page_size;
    json_t *rows;
    long total;
    int rc = r->store->ops->res_list(r->store, q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    req_hold(r, rows);
    json_t *sites = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct resource site;
        op_row_resource(row, &site);
        json_t *s = op_site_json(&site, plans);
        json_object_set_new(s, "site_id", json_string(site.id));
        if (with_customer)
            json_object_set_new(s, "customer_id", json_string(site.customer_id));
        json_array_append_new(sites, s);
    }
    return reply_result(r, sites);
}

int op_sites_list(struct req *r)
{
    struct res_query q = {.kind = OP_SITE.name, .customer_id = r->customer.id, .parent_rid = RES_TOP_LEVEL};
    return reply_sites(r, &q, false);
}

int op_token_sites_list(struct req *r)
{
    struct res_query q = {.kind = OP_SITE.name, .parent_rid = RES_TOP_LEVEL};
    if (r->caller.kind == TOKEN_PORTAL)
        q.portal_id = r->caller.portal_id; /* every customer of the portal */
    else
        q.customer_id = r->customer.id; /* the installed app's customer (ACCESS_TOKEN loaded it) */
    return reply_sites(r, &q, true);
}

/* Every resource of a kind the customer has, whatever its parent. */
static json_t *all_of(struct req *r, const char *kind, int parent_rid)
{
    struct res_query q = {
        .kind = kind, .customer_id = r->customer.id, .parent_rid = parent_rid, .limit = OP_LIST_ALL};
    json_t *rows = NULL;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return NULL;
    }
    return req_hold(r, rows);
}

static void add_int(json_t *o, const char *key, json_int_t by)
{
    json_int_t was = json_integer_value(json_object_get(o, key));
    json_object_set_new(o, key, json_integer(was > INT64_MAX - by ? INT64_MAX : was + by));
}

/* The addresses a site's blocks cover: IPv4 addresses, and IPv6 /64 subnets
 * (an IPv6 address count is too large to be useful). */
static void count_addresses(json_t *entry, const struct resource *site)
{
    struct cidr b[OP_MAX_SITE_BLOCKS];
    size_t n = op_doc_blocks(site, b, OP_MAX_SITE_BLOCKS);
    json_t *a = json_pack("{s:I,s:I}", "ipv4", (json_int_t)0, "ipv6_64", (json_int_t)0);
    for (size_t i = 0; i < n; i++) {
        if (b[i].addr.family == NET_V4)
            add_int(a, "ipv4", (json_int_t)cidr_size(&b[i]));
        else if (b[i].prefix <= 64)
            add_int(a, "ipv6_64", b[i].prefix <= 2 ? INT64_MAX : (json_int_t)1 << (64 - b[i].prefix));
    }
    json_object_set_new(entry, "addresses", a);
}

static const char *rid_key(char key[24], int64_t rid)
{
    snprintf(key, 24, "%lld", (long long)rid);
    return key;
}

/* rid -> the document of each resource of `kind` the customer has (settings
 * documents: one per parent, so keyed by the parent's rid). */
static json_t *docs_by_parent(struct req *r, const char *kind)
{
    json_t *rows = all_of(r, kind, 0);
    if (!rows)
        return NULL;
    json_t *by = req_hold(r, json_object());
    size_t i;
    json_t *row;
    char key[24];
    json_array_foreach (rows, i, row) {
        struct resource res;
        op_row_resource(row, &res);
        if (res.doc)
            json_object_set(by, rid_key(key, res.parent_rid), res.doc);
    }
    return by;
}

/* A member of one level of a site's overview policy ("site", "<network_id>",
 * "<network_id>/<host_id>"). */
static json_t *level_member(const json_t *policy, const char *level, const char *member)
{
    return json_object_get(json_object_get(json_object_get(policy, "levels"), level), member);
}

/* The overview policy of one level: auto-mitigation profile (its own, ""
 * when it uses its parent's), custom and mitigation switches. */
static void add_level(json_t *e, const json_t *policy, const char *level)
{
    const char *profile = json_string_value(level_member(policy, level, "auto_profile"));
    json_object_set_new(e, "auto_profile", json_string(profile ? profile : ""));
    json_object_set_new(e, "is_customize",
                        json_integer(json_integer_value(level_member(policy, level, "is_customize"))));
    json_object_set_new(e, "mitigation_mode",
                        json_integer(json_integer_value(level_member(policy, level, "mitigation_mode"))));
}

static json_int_t switch_of(const json_t *setting)
{
    return json_integer_value(json_object_get(setting, "is_enabled"));
}

/* The site's switches: detection (overview, 0 off / 2 auto), the site
 * profile, the allow/block lists and the bogon filters (over the
 * catalogue's defaults). -1 after replying. */
static int add_site_switches(struct req *r, json_t *e, const json_t *policy, json_t *mitigation)
{
    json_object_set_new(e, "detection_mode",
                        json_integer(json_integer_value(level_member(policy, "site", "detection_mode"))));
    const char *profile = json_string_value(level_member(policy, "site", "auto_profile"));
    json_object_set_new(e, "auto_profile", json_string(profile ? profile : ""));
    struct resource mit = {.doc = mitigation};
    json_t *allow = op_setting_read(r, &mit, "allow_list");
    json_t *block = allow ? op_setting_read(r, &mit, "block_list") : NULL;
    json_t *bogons = block ? op_setting_read(r, &mit, "bogons") : NULL;
    if (bogons)
        json_object_set_new(e, "switches",
                            json_pack("{s:I,s:I,s:I,s:I}", "allow_list", switch_of(allow), "block_list",
                                      switch_of(block), "land_attack",
                                      switch_of(json_object_get(bogons, "land_attack")), "martian_address",
                                      switch_of(json_object_get(bogons, "martian_address"))));
    json_decref(allow);
    json_decref(block);
    json_decref(bogons);
    return bogons ? 0 : -1;
}

/* One read per kind (sites, networks, hosts, the sites' policy and
 * mitigation settings, the hosts' detection settings), joined here by
 * parent rid: the number of reads does not grow with the sites. */
int op_site_report(struct req *r)
{
    json_t *sites = all_of(r, OP_SITE.name, RES_TOP_LEVEL);
    json_t *nets = sites ? all_of(r, OP_NETWORK.name, 0) : NULL;
    json_t *hosts = nets ? all_of(r, OP_HOST.name, 0) : NULL;
    json_t *policies = hosts ? docs_by_parent(r, OP_SITE_POLICY.name) : NULL;
    json_t *mitigations = policies ? docs_by_parent(r, OP_SITE_MITIGATION.name) : NULL;
    json_t *detections = mitigations ? docs_by_parent(r, OP_HOST_DETECTION.name) : NULL;
    if (!detections)
        return 0;
    json_t *site_of = req_hold(r, json_object());   /* site or network rid -> the site's entry */
    json_t *net_of = req_hold(r, json_object());    /* network rid -> the network's entry */
    json_t *policy_of = req_hold(r, json_object()); /* site or network rid -> the site's policy */
    json_t *report = req_hold(r, json_array());
    size_t i;
    json_t *row;
    char key[24];
    json_array_foreach (sites, i, row) {
        struct resource site;
        op_row_resource(row, &site);
        json_t *e = json_pack("{s:s,s:s,s:O,s:O,s:[],s:i,s:i}", "site_id", site.id, "site_name", site.name,
                              "as_num", json_object_get(site.doc, "as_num"), "cidr",
                              json_object_get(site.doc, "cidr"), "networks", "hosts", 0, "host_addresses", 0);
        json_array_append_new(report, e);
        count_addresses(e, &site);
        json_t *deploy = deploy_report(r, site.rid);
        if (!deploy)
            return 0;
        json_object_set_new(e, "dataplane", deploy);
        rid_key(key, site.rid);
        json_t *policy = json_object_get(policies, key);
        if (add_site_switches(r, e, policy, json_object_get(mitigations, key)) != 0)
            return 0;
        json_object_set(site_of, key, e);
        if (policy)
            json_object_set(policy_of, key, policy);
    }
    json_array_foreach (nets, i, row) {
        struct resource net;
        op_row_resource(row, &net);
        json_t *e = json_object_get(site_of, rid_key(key, net.parent_rid));
        if (!e)
            continue;
        json_t *policy = json_object_get(policy_of, key);
        json_t *n = json_pack("{s:s,s:s,s:O,s:i,s:[]}", "network_id", net.id, "network_name", net.name,
                              "cidr", json_object_get(net.doc, "cidr"), "hosts", 0, "host_list");
        add_level(n, policy, net.id);
        json_array_append_new(json_object_get(e, "networks"), n);
        rid_key(key, net.rid);
        json_object_set(site_of, key, e);
        json_object_set(net_of, key, n);
        if (policy)
            json_object_set(policy_of, key, policy);
    }
    json_array_foreach (hosts, i, row) {
        struct resource host;
        op_row_resource(row, &host);
        json_t *e = json_object_get(site_of, rid_key(key, host.parent_rid));
        json_t *n = json_object_get(net_of, key);
        if (!e || !n)
            continue;
        json_t *policy = json_object_get(policy_of, key);
        add_int(e, "hosts", 1);
        add_int(e, "host_addresses", (json_int_t)json_array_size(json_object_get(host.doc, "cidr")));
        add_int(n, "hosts", 1);
        json_t *detection = json_object_get(detections, rid_key(key, host.rid));
        json_t *h = json_pack("{s:s,s:s,s:O,s:I}", "host_id", host.id, "host_name", host.name, "cidr",
                              json_object_get(host.doc, "cidr"), "model",
                              json_integer_value(json_object_get(detection, "model")));
        char level[2 * RES_ID_MAX + 2];
        snprintf(level, sizeof level, "%s/%s", json_string_value(json_object_get(n, "network_id")), host.id);
        add_level(h, policy, level);
        json_array_append_new(json_object_get(n, "host_list"), h);
    }
    return reply_result(r, json_pack("{s:O}", "sites", report));
}
