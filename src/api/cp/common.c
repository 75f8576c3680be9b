/* common.c — the CleanPipe kinds, loading resources named by the path, and
 * small document helpers (cp_common.h). */
#include <string.h>

#include "api/cp/cp_common.h"

const struct res_kind CP_SITE = {"cp.site", .name_scope = RES_NAME_IN_PARENT};
const struct res_kind CP_HOST = {"cp.host", .parent = "cp.site", .name_scope = RES_NAME_IN_PARENT,
                                 .restricts_parent = true};
/* template_id is an integer that is never handed out again (serial). */
const struct res_kind CP_TEMPLATE = {"cp.route_template", .parent = "cp.site", .serial_id = true,
                                     .name_scope = RES_NAME_IN_PARENT, .restricts_parent = true};

int cp_site_load(struct req *r, struct resource *site)
{
    return res_from_path(r, CP_SITE.name, "site_id", "site", NULL, site);
}

int cp_host_load(struct req *r, const struct resource *site, struct resource *host)
{
    return res_from_path(r, CP_HOST.name, "host_id", "host", site, host);
}

int cp_template_load(struct req *r, const struct resource *site, struct resource *t)
{
    return res_from_path(r, CP_TEMPLATE.name, "template_id", "route template", site, t);
}

int cp_path_host(struct req *r, struct resource *host)
{
    struct resource site;
    return cp_site_load(r, &site) != 0 || cp_host_load(r, &site, host) != 0 ? -1 : 0;
}

int cp_require_room(struct req *r, const char *kind, const struct resource *parent, long max,
                    const char *field, const char *what)
{
    struct res_query q = {
        .kind = kind,
        .customer_id = r->customer.id,
        .parent_rid = parent ? parent->rid : RES_TOP_LEVEL,
        .limit = 0,
    };
    json_t *rows = NULL;
    long total = 0;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    json_decref(rows);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    if (total >= max) {
        reply_error(r, E_LIMIT, "%s: at most %ld %s are allowed", field, max, what);
        return -1;
    }
    return 0;
}

/* What a taken name is already, for the 409 of a create or rename. */
static const char *taken_as(const char *kind)
{
    if (strcmp(kind, CP_SITE.name) == 0)
        return "a CleanPipe site of this customer";
    return strcmp(kind, CP_HOST.name) == 0 ? "a host of this site" : "a route template of this site";
}

static int reply_name_taken(struct req *r, const char *kind, const char *name_field, const char *name)
{
    return reply_error(r, E_CONFLICT, "%s: %s is already %s", name_field, name, taken_as(kind));
}

int cp_create(struct req *r, const struct res_kind *kind, const struct resource *parent,
              const char *name_field, json_t *doc, const struct cp_blocks *bl, struct resource *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->customer_id, sizeof out->customer_id, "%s", r->customer.id);
    snprintf(out->name, sizeof out->name, "%s", field_str(r, name_field));
    out->parent_rid = parent ? parent->rid : 0;
    out->doc = req_hold(r, doc);
    int rc = r->store->ops->res_create(r->store, kind, out);
    if (rc == STORE_CONFLICT)
        reply_name_taken(r, kind->name, name_field, out->name);
    else if (rc != STORE_OK)
        reply_store_error(r, rc);
    else if (cp_blocks_store(r, out->rid, bl) == 0)
        return 0;
    return -1;
}

int cp_save(struct req *r, struct resource *res, const char *name_field)
{
    int rc = r->store->ops->res_update(r->store, res);
    if (rc == STORE_OK)
        return 0;
    if (rc == STORE_CONFLICT && name_field)
        reply_name_taken(r, res->kind, name_field, res->name);
    else
        reply_store_error(r, rc);
    return -1;
}

const char *cp_doc_str(const json_t *doc, const char *key)
{
    const char *s = json_string_value(json_object_get(doc, key));
    return s ? s : "";
}

long long cp_doc_int(const json_t *doc, const char *key, long long fallback)
{
    json_t *v = json_object_get(doc, key);
    return json_is_integer(v) ? json_integer_value(v) : fallback;
}

json_t *cp_doc_obj(json_t *doc, const char *key)
{
    json_t *o = json_object_get(doc, key);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new(doc, key, o);
    }
    return o;
}

bool cp_take_field(struct req *r, json_t *doc, const char *field, const char *key)
{
    json_t *v = field_json(r, field);
    if (!v)
        return false;
    json_object_set(doc, key, v);
    return true;
}

int cp_site_family(const struct resource *site)
{
    return strcmp(cp_doc_str(site->doc, "ip_type"), "ipv6") == 0 ? NET_V6 : NET_V4;
}

void cp_row_resource(json_t *row, struct resource *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", cp_doc_str(row, "id"));
    snprintf(out->name, sizeof out->name, "%s", cp_doc_str(row, "name"));
    snprintf(out->customer_id, sizeof out->customer_id, "%s", cp_doc_str(row, "customer_id"));
    out->rid = cp_doc_int(row, "rid", 0);
    out->parent_rid = cp_doc_int(row, "parent_rid", 0);
    out->doc = json_object_get(row, "doc");
}

json_t *cp_list(struct req *r, const char *kind, int64_t parent_rid, long max)
{
    struct res_query q = {
        .kind = kind,
        .customer_id = r->customer.id,
        .parent_rid = parent_rid,
        .limit = max,
    };
    json_t *rows = NULL;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return NULL;
    }
    return req_hold(r, rows);
}

int cp_reply_list(struct req *r, const char *kind, const struct resource *parent, long max,
                  json_t *(*to_json)(const struct resource *))
{
    json_t *rows = cp_list(r, kind, parent ? parent->rid : RES_TOP_LEVEL, max);
    if (!rows)
        return 0;
    json_t *out = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct resource res;
        cp_row_resource(row, &res);
        json_array_append_new(out, to_json(&res));
    }
    return reply_result(r, out);
}

int cp_reply_read(struct req *r, json_t *entry, const char *id_key)
{
    json_object_del(entry, id_key);
    return reply_result(r, entry);
}
