/* flex_filters.c — flex (advanced payload) filters of a host: list, create,
 * read, update, delete. The same handlers serve three doors:
 *   {OPH}/mitigation/advanced-payload-filtering        kind op.flex_filter, child of the host
 *   {SOPH}/mitigation/advanced-payload-filtering       the same data
 *   {OPH}/auto-mitigation/advanced-payload-filtering   kind op.auto_flex_filter, child of the
 *       profile named by profile_id (so it goes with the profile), for one host (doc member host_id)
 * Filter ids are 16 hex digits, never "filter" (gaps B.4.7). */
#include <string.h>

#include "api/op/op_mitigation.h"
#include "base/text.h"
#include "core/resource.h"
#include "core/route.h"

struct flex_ctx {
    struct op_path p;
    bool autom;              /* an auto-mitigation profile's filters */
    struct resource profile; /* autom: the profile (rid 0: a template of the catalogue) */
    const struct res_kind *kind;
    const struct resource *parent;
};

static int ctx_load(struct req *r, struct flex_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->autom = strstr(r->route->path, "/auto-mitigation/") != NULL;
    if (op_path_load(r, false, &c->p) != 0)
        return -1;
    if (!c->autom) {
        c->kind = &OP_FLEX_FILTER;
        c->parent = &c->p.host;
        return 0;
    }
    if (op_profile_find(r, &c->p.site, field_str(r, "profile_id"), "profile_id", &c->profile) != 0)
        return -1;
    c->kind = &OP_AUTO_FLEX_FILTER;
    c->parent = &c->profile;
    return 0;
}

/* A template has no filters of this site: reads find none, writes are refused. */
static bool is_template(const struct flex_ctx *c)
{
    return c->autom && c->profile.rid == 0;
}

static bool of_host(const struct flex_ctx *c, const json_t *doc)
{
    return !c->autom || strcmp(json_string_value(json_object_get(doc, "host_id")) ?: "", c->p.host.id) == 0;
}

/* The read shape in the document's member order (filter_id first when
 * given), without the stored document's internal host_id (the store hands
 * documents back with sorted keys). */
static json_t *read_shape(const json_t *doc, const char *filter_id)
{
    static const char *const members[] = {"filter_name",    "action", "bps_limit", "pps_limit",
                                          "payload_string", "port",   "protocol"};
    json_t *out = json_object();
    if (filter_id)
        json_object_set_new(out, "filter_id", json_string(filter_id));
    for (size_t i = 0; i < sizeof members / sizeof *members; i++) {
        json_t *v = json_object_get(doc, members[i]);
        if (v)
            json_object_set_new(out, members[i], json_deep_copy(v));
    }
    return out;
}

/* The filters of the context's host (rows of res_list, held by the request). */
static json_t *filters_of_host(struct req *r, const struct flex_ctx *c)
{
    json_t *mine = req_hold(r, json_array());
    if (is_template(c))
        return mine;
    struct res_query q = {.kind = c->kind->name,
                          .customer_id = c->p.site.customer_id,
                          .parent_rid = c->parent->rid,
                          .limit = 100000};
    json_t *rows;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return NULL;
    }
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        if (of_host(c, json_object_get(row, "doc")))
            json_array_append(mine, row);
    json_decref(rows);
    return mine;
}

static int load_filter(struct req *r, const struct flex_ctx *c, struct resource *f)
{
    if (is_template(c))
        return reply_error(r, E_NOT_FOUND, "filter_id: no such filter"), -1;
    if (res_from_path(r, c->kind->name, "filter_id", "filter", c->parent, f) != 0)
        return -1;
    if (!of_host(c, f->doc))
        return reply_error(r, E_NOT_FOUND, "filter_id: no such filter"), -1;
    return 0;
}

/* The document a POST or PUT asks for, or NULL after replying. */
static json_t *doc_of_request(struct req *r, const struct flex_ctx *c)
{
    if (is_template(c)) {
        reply_error(r, E_STATE, "profile_id: %s is a template of the catalogue; clone it to give it filters",
                    c->profile.name);
        return NULL;
    }
    struct op_refusal why;
    json_t *doc = op_flex_doc(r->fields, r->route->access == ACCESS_CUSTOMER, &why);
    if (!doc) {
        reply_refusal(r, &why);
        return NULL;
    }
    if (c->autom)
        json_object_set_new(doc, "host_id", json_string(c->p.host.id));
    return req_hold(r, doc);
}

int op_flex_list(struct req *r)
{
    struct flex_ctx c;
    if (ctx_load(r, &c) != 0)
        return 0;
    json_t *rows = filters_of_host(r, &c);
    if (!rows)
        return 0;
    json_t *out = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        json_array_append_new(
            out, read_shape(json_object_get(row, "doc"), json_string_value(json_object_get(row, "id"))));
    return reply_result(r, out);
}

int op_flex_create(struct req *r)
{
    struct flex_ctx c;
    if (ctx_load(r, &c) != 0)
        return 0;
    json_t *doc = doc_of_request(r, &c);
    json_t *existing = doc ? filters_of_host(r, &c) : NULL;
    if (!existing)
        return 0;
    if (json_array_size(existing) >= OP_FLEX_MAX_PER_HOST)
        return reply_error(r, E_LIMIT, "filter_name: a host may have at most %d flex filters%s",
                           OP_FLEX_MAX_PER_HOST, c.autom ? " in one profile" : "");
    struct resource f = {.doc = doc, .parent_rid = c.parent->rid};
    copy_text(f.kind, sizeof f.kind, c.kind->name);
    copy_text(f.customer_id, sizeof f.customer_id, c.p.site.customer_id);
    int rc = r->store->ops->res_create(r->store, c.kind, &f);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "filter", "filter: could not be created");
    return reply_result(r, json_pack("{s:s}", "filter_id", f.id));
}

int op_flex_get(struct req *r)
{
    struct flex_ctx c;
    struct resource f;
    if (ctx_load(r, &c) != 0 || load_filter(r, &c, &f) != 0)
        return 0;
    return reply_result(r, read_shape(f.doc, NULL));
}

int op_flex_update(struct req *r)
{
    struct flex_ctx c;
    struct resource f;
    if (ctx_load(r, &c) != 0 || load_filter(r, &c, &f) != 0)
        return 0;
    json_t *doc = doc_of_request(r, &c);
    if (!doc)
        return 0;
    f.doc = doc;
    int rc = r->store->ops->res_update(r->store, &f);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "filter_id", "filter_id: the filter changed meanwhile; try again");
    return reply_result(r, NULL);
}

int op_flex_delete(struct req *r)
{
    struct flex_ctx c;
    struct resource f;
    if (ctx_load(r, &c) != 0 || load_filter(r, &c, &f) != 0)
        return 0;
    int rc = r->store->ops->res_delete(r->store, f.rid, NULL);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "filter_id", "filter_id: could not be deleted");
    return reply_result(r, NULL);
}
