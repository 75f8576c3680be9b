/* resource.c — see core/resource.h. */
#include "core/resource.h"

#include "core/audit.h"

#include <string.h>

json_t *req_hold(struct req *r, json_t *v)
{
    if (!v)
        return NULL;
    if (!r->held)
        r->held = json_array();
    json_array_append_new(r->held, v);
    return v;
}

/* res_by_id, with the document or without it (q.without_doc). */
static int load_by_id(struct req *r, const char *kind, const char *id, const char *field, const char *noun,
                      const struct resource *parent, bool with_doc, struct resource *out)
{
    struct res_query q = {
        .kind = kind,
        .customer_id = r->customer.id,
        .parent_rid = parent ? parent->rid : RES_TOP_LEVEL,
        .without_doc = !with_doc,
    };
    int rc = id && *id ? r->store->ops->res_get(r->store, &q, id, NULL, out) : STORE_NOT_FOUND;
    if (rc != STORE_OK) {
        if (rc == STORE_NOT_FOUND)
            reply_error(r, E_NOT_FOUND, "%s: no such %s", field, noun);
        else
            reply_store_error(r, rc);
        return -1;
    }
    if (with_doc) { /* a resource loaded without it cannot be written back */
        req_hold(r, out->doc);
        audit_note_before(r, out);
    }
    return 0;
}

int res_by_id(struct req *r, const char *kind, const char *id, const char *field, const char *noun,
              const struct resource *parent, struct resource *out)
{
    return load_by_id(r, kind, id, field, noun, parent, true, out);
}

int res_head_from_path(struct req *r, const char *kind, const char *param, const char *noun,
                       const struct resource *parent, struct resource *out)
{
    return load_by_id(r, kind, path_param(r, param), param, noun, parent, false, out);
}

int res_from_path(struct req *r, const char *kind, const char *param, const char *noun,
                  const struct resource *parent, struct resource *out)
{
    return res_by_id(r, kind, path_param(r, param), param, noun, parent, out);
}

int reply_res_error(struct req *r, int rc, const char *what, const char *conflict)
{
    switch (rc) {
    case STORE_NOT_FOUND: return reply_error(r, E_NOT_FOUND, "%s: no such resource", what);
    case STORE_CONFLICT: return reply_error(r, E_CONFLICT, "%s", conflict);
    default: return reply_store_error(r, rc);
    }
}

int reply_delete_blocked(struct req *r, const char *what, json_t *blocker)
{
    const char *kind = json_string_value(json_object_get(blocker, "kind"));
    const char *id = json_string_value(json_object_get(blocker, "id"));
    /* "op.network" -> "network" */
    const char *dot = kind ? strrchr(kind, '.') : NULL;
    reply_error(r, E_STATE, "%s: cannot be deleted while it has a %s (%s); delete that first", what,
                dot ? dot + 1 : (kind ? kind : "child"), id ? id : "?");
    json_decref(blocker);
    return 0;
}

long field_cidrs(struct req *r, const char *name, struct cidr *out, size_t max)
{
    json_t *list = field_json(r, name);
    if (!list)
        return 0;
    if (json_is_string(list)) { /* a single-valued field */
        return max >= 1 && cidr_parse(json_string_value(list), CIDR_ALLOW_BARE, &out[0]) == 0 ? 1 : -1;
    }
    if (json_array_size(list) > max)
        return -1;
    size_t i;
    json_t *v;
    json_array_foreach (list, i, v) {
        if (!json_is_string(v) || cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &out[i]) != 0)
            return -1;
    }
    return (long)json_array_size(list);
}
