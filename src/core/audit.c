/* audit.c — see audit.h. */
#include "core/audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/net.h"
#include "core/route.h"
#include "store/store.h"

enum { TEXT_KEPT = 512 };

static bool secret_name(const char *name)
{
    static const char *const words[] = {"secret", "password", "token", "private", "cert_file", "key_file", NULL};
    for (const char *const *w = words; *w; w++)
        if (strcasestr(name, *w))
            return true;
    return strcasecmp(name, "key") == 0 || strcasecmp(name, "code") == 0; /* an authorization code */
}

static json_t *redact_value(const char *name, const json_t *v)
{
    if (name && secret_name(name))
        return json_string("[redacted]");
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (strstr(s, "PRIVATE KEY"))
            return json_string("[redacted]");
        if (strlen(s) > TEXT_KEPT) {
            char cut[TEXT_KEPT + 8];
            snprintf(cut, sizeof cut, "%.*s…", TEXT_KEPT, s);
            return json_string(cut);
        }
        return json_incref((json_t *)v);
    }
    if (json_is_object(v))
        return audit_redact(v);
    if (json_is_array(v)) {
        json_t *out = json_array();
        size_t i;
        json_t *x;
        json_array_foreach ((json_t *)v, i, x)
            json_array_append_new(out, redact_value(name, x));
        return out;
    }
    return json_incref((json_t *)v);
}

json_t *audit_redact(const json_t *fields)
{
    json_t *out = json_object();
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)fields, key, v)
        json_object_set_new(out, key, redact_value(key, v));
    return out;
}

/* The path's ids, and the ids of what the answer names (a created
 * resource's id: the result's string members ending in "id"). */
static json_t *target_of(const struct req *r)
{
    json_t *t = r->path_params ? json_deep_copy(r->path_params) : json_object();
    json_t *reply = r->reply_body ? json_loadb(r->reply_body, r->reply_len, 0, NULL) : NULL;
    json_t *result = json_object_get(reply, "result");
    const char *key;
    json_t *v;
    if (json_is_object(result))
        json_object_foreach (result, key, v) {
            size_t n = strlen(key);
            if (n >= 2 && strcmp(key + n - 2, "id") == 0 && (json_is_string(v) || json_is_integer(v)) &&
                !secret_name(key))
                json_object_set(t, key, v);
        }
    json_decref(reply);
    return t;
}

json_t *audit_doc_diff(const json_t *before, const json_t *after)
{
    json_t *out = json_object();
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)before, key, v) {
        json_t *a = json_object_get(after, key);
        if (!json_equal(v, a))
            json_object_set_new(out, key,
                                json_pack("{s:o,s:o}", "before", redact_value(key, v), "after",
                                          a ? redact_value(key, a) : json_null()));
    }
    json_object_foreach ((json_t *)after, key, v)
        if (!json_object_get(before, key))
            json_object_set_new(out, key, json_pack("{s:n,s:o}", "before", "after", redact_value(key, v)));
    return out;
}

static bool writes(const struct req *r)
{
    return (r->method != M_GET && r->method != M_HEAD) || (r->route && (r->route->flags & ROUTE_WRITES));
}

void audit_note_before(struct req *r, const struct resource *res)
{
    if (!r->route || !writes(r) || (r->route->flags & ROUTE_GUARDED) || res->rid <= 0)
        return;
    if (!r->audit_before)
        r->audit_before = json_array();
    size_t i;
    json_t *seen;
    json_array_foreach (r->audit_before, i, seen)
        if (json_integer_value(json_object_get(seen, "rid")) == res->rid)
            return;
    json_array_append_new(r->audit_before,
                          json_pack("{s:I,s:I,s:s,s:s,s:s,s:o}", "rid", (json_int_t)res->rid, "version",
                                    (json_int_t)res->version, "kind", res->kind, "id", res->id, "name", res->name,
                                    "doc", res->doc ? json_deep_copy(res->doc) : json_object()));
}

/* {"<kind> <id>": changed members} of the resources the request loaded,
 * read again in its transaction ({"deleted": true} when gone); one whose
 * version did not move is unchanged and not read (a write loads the chain
 * of its parents, and changes one of them at most). */
static json_t *diff_of(struct req *r)
{
    json_t *out = json_object();
    size_t i;
    json_t *b;
    json_array_foreach (r->audit_before, i, b) {
        struct resource now = {0};
        char label[RES_KIND_MAX + RES_ID_MAX + 2];
        snprintf(label, sizeof label, "%s %s", json_string_value(json_object_get(b, "kind")),
                 json_string_value(json_object_get(b, "id")));
        int64_t rid = json_integer_value(json_object_get(b, "rid")), version = 0;
        int rc = r->store->ops->res_version(r->store, rid, &version);
        if (rc == STORE_OK && version == json_integer_value(json_object_get(b, "version")))
            continue;
        if (rc == STORE_OK)
            rc = r->store->ops->res_get_rid(r->store, rid, &now);
        if (rc == STORE_NOT_FOUND) {
            json_object_set_new(out, label, json_pack("{s:b}", "deleted", 1));
            continue;
        }
        if (rc != STORE_OK)
            continue;
        json_t *d = audit_doc_diff(json_object_get(b, "doc"), now.doc);
        const char *was = json_string_value(json_object_get(b, "name"));
        if (was && strcmp(was, now.name) != 0)
            json_object_set_new(d, "name", json_pack("{s:s,s:s}", "before", was, "after", now.name));
        if (json_object_size(d))
            json_object_set_new(out, label, d);
        else
            json_decref(d);
        resource_clear(&now);
    }
    return out;
}

/* The fields sent (the checked ones, or for a write refused by its field
 * checks what was sent), redacted, as text; NULL when out of memory. */
static char *changes_text_of(const struct req *r)
{
    const json_t *sent = r->fields ? r->fields : r->body_fields;
    json_t *changes = sent ? audit_redact(sent) : json_object();
    char *text = json_dumps(changes, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(changes);
    return text;
}

void audit_prepare(struct req *r)
{
    if (!r->route || !writes(r) || (r->route->flags & ROUTE_GUARDED))
        return;
    char *text = changes_text_of(r);
    if (text)
        r->audit_changes = arena_strdup(&r->arena, text);
    free(text);
}

int audit_record_refused(struct req *r)
{
    if (!r->route || !writes(r) || (r->route->flags & ROUTE_GUARDED) || !r->store)
        return 0;
    struct store *s = r->store;
    if (s->ops->begin(s, true) != STORE_OK)
        return -1;
    if (audit_record(r) != 0) {
        s->ops->rollback(s);
        return -1;
    }
    return s->ops->commit(s) == STORE_OK ? 0 : -1;
}

int audit_record(struct req *r)
{
    /* the credential endpoints (tokens, codes) are their own record: the
     * tokens table keeps who got what when, and the abuse guard the failures */
    if (r->route->flags & ROUTE_GUARDED)
        return 0;
    char client[NET_TEXT_MAX] = "";
    if (r->client.family)
        ip_format(&r->client, client);
    json_t *target = target_of(r);
    json_t *diff = r->status < 400 ? diff_of(r) : json_object();
    char *target_text = json_dumps(target, JSON_COMPACT | JSON_SORT_KEYS);
    char *changes_text = r->audit_changes ? NULL : changes_text_of(r);
    const char *changes = r->audit_changes ? r->audit_changes : changes_text;
    char *diff_text = diff ? json_dumps(diff, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    /* a public endpoint names its app in the body */
    const char *app = r->caller.app_id[0] ? r->caller.app_id
                                          : json_string_value(json_object_get(r->fields, "app_id"));
    struct audit_entry e = {
        .ts = (int64_t)time(NULL),
        .request_id = r->request_id ? r->request_id : "",
        .route = r->route->id,
        .method = method_name(r->method),
        .path = r->path ? r->path : "",
        .status = r->status,
        .app_id = app ? app : "",
        .portal_id = r->caller.portal_id,
        .customer_id = r->customer.id[0] ? r->customer.id : r->caller.customer_id,
        .client = client,
        .target = target_text ? target_text : "{}",
        .changes = changes ? changes : "{}",
        .diff = diff_text ? diff_text : "{}",
    };
    int rc = r->store->ops->audit_append(r->store, &e);
    free(target_text);
    free(changes_text);
    free(diff_text);
    json_decref(target);
    json_decref(diff);
    return rc == STORE_OK ? 0 : -1;
}
