/* endpoints.c — a customer's webhook endpoints: create, list, read, change,
 * remove (webhooks.h). Secrets are taken (or made) and never answered
 * again; URLs are checked against the destination policy (webhook/dest.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api/webhooks/webhooks.h"
#include "base/crypto.h"
#include "webhook/dest.h"
#include "webhook/events.h"
#include "webhook/worker.h"

static json_t *webhook_json(const struct webhook *w)
{
    return json_pack("{s:s,s:s,s:o,s:s,s:b,s:I,s:I}", "webhook_id", w->id, "url", w->url, "event_types",
                     webhook_events_names(w->events), "description", w->description, "enabled", w->enabled,
                     "created_at", (json_int_t)w->created_at, "updated_at", (json_int_t)w->updated_at);
}

int webhook_from_path(struct req *r, struct webhook *out)
{
    int rc = r->store->ops->webhook_get(r->store, r->customer.id, path_param(r, "webhook_id"), out);
    if (rc == STORE_OK)
        return 0;
    if (rc == STORE_NOT_FOUND)
        reply_error(r, E_NOT_FOUND, "webhook_id: no such webhook");
    else
        reply_store_error(r, rc);
    return -1;
}

/* Takes the request's members into w; -1 after an error reply. */
static int apply_fields(struct req *r, struct webhook *w)
{
    const char *url = field_str(r, "url");
    if (url) {
        const char *why = webhook_url_check(&webhook_settings()->dest, url);
        if (why) {
            reply_error(r, E_FIELD_INVALID, "url: %s", why);
            return -1;
        }
        snprintf(w->url, sizeof w->url, "%s", url);
    }
    const char *secret = field_str(r, "secret");
    if (secret)
        snprintf(w->secret, sizeof w->secret, "%s", secret);
    if (field_json(r, "event_types"))
        w->events = webhook_events_parse(field_json(r, "event_types"));
    const char *desc = field_str(r, "description");
    if (desc)
        snprintf(w->description, sizeof w->description, "%s", desc);
    w->enabled = field_bool(r, "enabled", w->enabled);
    return 0;
}

int webhook_create(struct req *r)
{
    json_t *existing;
    int rc = r->store->ops->webhook_list(r->store, r->customer.id, &existing);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    size_t count = json_array_size(existing);
    json_decref(existing);
    if (count >= WEBHOOKS_PER_CUSTOMER)
        return reply_error(r, E_LIMIT, "a customer may have at most %d webhooks", WEBHOOKS_PER_CUSTOMER);
    struct webhook w = {.enabled = true};
    random_hex(w.id, ID_BYTES);
    snprintf(w.customer_id, sizeof w.customer_id, "%s", r->customer.id);
    random_hex(w.secret, SECRET_BYTES); /* unless the caller gives one */
    if (apply_fields(r, &w) != 0)
        return 0;
    w.created_at = w.updated_at = (int64_t)time(NULL);
    if ((rc = r->store->ops->webhook_create(r->store, &w)) != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, json_pack("{s:s,s:s}", "webhook_id", w.id, "secret", w.secret));
}

int webhook_list(struct req *r)
{
    json_t *rows;
    int rc = r->store->ops->webhook_list(r->store, r->customer.id, &rows);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *list = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct webhook w = {
            .events = (unsigned)json_integer_value(json_object_get(row, "events")),
            .enabled = json_integer_value(json_object_get(row, "enabled")) != 0,
            .created_at = json_integer_value(json_object_get(row, "created_at")),
            .updated_at = json_integer_value(json_object_get(row, "updated_at")),
        };
        snprintf(w.id, sizeof w.id, "%s", json_string_value(json_object_get(row, "id")));
        snprintf(w.url, sizeof w.url, "%s", json_string_value(json_object_get(row, "url")));
        snprintf(w.description, sizeof w.description, "%s",
                 json_string_value(json_object_get(row, "description")));
        json_array_append_new(list, webhook_json(&w));
    }
    json_decref(rows);
    return reply_result(r, list);
}

int webhook_get(struct req *r)
{
    struct webhook w;
    if (webhook_from_path(r, &w) != 0)
        return 0;
    return reply_result(r, webhook_json(&w));
}

int webhook_update(struct req *r)
{
    struct webhook w;
    if (webhook_from_path(r, &w) != 0)
        return 0;
    if (apply_fields(r, &w) != 0)
        return 0;
    w.updated_at = (int64_t)time(NULL);
    int rc = r->store->ops->webhook_update(r->store, &w);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    r->after_commit = webhook_worker_wake; /* an endpoint enabled again has deliveries waiting */
    return reply_result(r, webhook_json(&w));
}

int webhook_delete(struct req *r)
{
    struct webhook w;
    if (webhook_from_path(r, &w) != 0)
        return 0;
    int rc = r->store->ops->webhook_delete(r->store, r->customer.id, w.id);
    return rc == STORE_OK ? reply_result(r, NULL) : reply_store_error(r, rc);
}
