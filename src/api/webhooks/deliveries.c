/* deliveries.c — an endpoint's delivery log (newest first, with each
 * attempt's status and the start of its response), replaying a delivery,
 * and the ping that tries a receiver (webhooks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/webhooks/webhooks.h"
#include "base/crypto.h"
#include "webhook/events.h"
#include "webhook/send.h"
#include "webhook/worker.h"

/* A log row as answered: ms times become seconds, the next attempt is null
 * unless the delivery is pending. */
static json_t *delivery_json(const json_t *row)
{
    const char *state = json_string_value(json_object_get(row, "state"));
    bool pending = state && strcmp(state, "pending") == 0;
    json_t *next =
        pending ? json_integer(json_integer_value(json_object_get(row, "next_at")) / 1000) : json_null();
    json_t *done = json_object_get(row, "done_at");
    return json_pack("{s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:o,s:O,s:O,s:O}", "delivery_id",
                     json_object_get(row, "id"), "event_id", json_object_get(row, "event_id"), "event_type",
                     json_object_get(row, "type"), "state", json_object_get(row, "state"), "attempts",
                     json_object_get(row, "attempts"), "last_status", json_object_get(row, "last_status"),
                     "last_error", json_object_get(row, "last_error"), "next_attempt_at", next, "created_at",
                     json_object_get(row, "created_at"), "done_at", done ? done : json_null(), "replay_of",
                     json_object_get(row, "replay_of"));
}

int webhook_deliveries_list(struct req *r)
{
    struct webhook w;
    if (webhook_from_path(r, &w) != 0)
        return 0;
    long long page = field_int(r, "page", 1), size = field_int(r, "page_size", 20);
    struct webhook_delivery_query q = {
        .state = field_str(r, "state"), .offset = (long)((page - 1) * size), .limit = (long)size};
    json_t *rows;
    long total;
    int rc = r->store->ops->webhook_deliveries(r->store, w.id, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *list = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row)
        json_array_append_new(list, delivery_json(row));
    json_decref(rows);
    return reply_result(r, json_pack("{s:I,s:I,s:o}", "total", (json_int_t)total, "page", (json_int_t)page,
                                     "deliveries", list));
}

int webhook_delivery_get(struct req *r)
{
    struct webhook w;
    if (webhook_from_path(r, &w) != 0)
        return 0;
    json_t *row;
    int rc = r->store->ops->webhook_delivery_get(r->store, w.id, path_param(r, "delivery_id"), &row);
    if (rc == STORE_NOT_FOUND)
        return reply_error(r, E_NOT_FOUND, "delivery_id: no such delivery");
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *out = delivery_json(row);
    /* the body as it is sent (the signature differs with each attempt's time) */
    json_object_set_new(row, "customer_id", json_string(w.customer_id));
    char *body = webhook_body(row);
    json_object_set_new(out, "body", body ? json_loads(body, 0, NULL) : json_object());
    free(body);
    json_t *log = json_array();
    size_t i;
    json_t *a;
    json_array_foreach (json_object_get(row, "attempts_log"), i, a)
        json_array_append_new(
            log, json_pack("{s:O,s:I,s:O,s:O,s:O,s:O}", "attempt", json_object_get(a, "n"), "at",
                           (json_int_t)(json_integer_value(json_object_get(a, "at")) / 1000), "duration_ms",
                           json_object_get(a, "duration_ms"), "status", json_object_get(a, "status"), "error",
                           json_object_get(a, "error"), "response", json_object_get(a, "response")));
    json_object_set_new(out, "attempts_log", log);
    json_decref(row);
    return reply_result(r, out);
}

int webhook_delivery_replay(struct req *r)
{
    struct webhook w;
    if (webhook_from_path(r, &w) != 0)
        return 0;
    char id[ID_LEN + 1];
    random_hex(id, ID_BYTES);
    int rc = r->store->ops->webhook_replay(r->store, w.id, path_param(r, "delivery_id"), id);
    if (rc == STORE_NOT_FOUND)
        return reply_error(r, E_NOT_FOUND, "delivery_id: no such delivery");
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    r->after_commit = webhook_worker_wake;
    return reply_result(r, json_pack("{s:s}", "delivery_id", id));
}

int webhook_ping(struct req *r)
{
    struct webhook w;
    if (webhook_from_path(r, &w) != 0)
        return 0;
    if (!w.enabled)
        return reply_error(r, E_STATE, "webhook_id: the webhook is disabled");
    char event_id[ID_LEN + 1], id[ID_LEN + 1], payload[64];
    random_hex(event_id, ID_BYTES);
    random_hex(id, ID_BYTES);
    snprintf(payload, sizeof payload, "{\"webhook_id\":\"%s\"}", w.id);
    int rc = r->store->ops->webhook_enqueue_one(r->store, w.id, event_id, WEBHOOK_PING, payload, id);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    r->after_commit = webhook_worker_wake;
    return reply_result(r, json_pack("{s:s,s:s}", "delivery_id", id, "event_id", event_id));
}
