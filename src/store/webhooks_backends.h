/* webhooks_backends.h — the webhook operations of each backend
 * (sqlite/webhooks.c, pgsql/webhooks.c), put in the ops tables by
 * sqlite/ops.c and pgsql/ops.c. */
#ifndef PARAPET_WEBHOOKS_BACKENDS_H
#define PARAPET_WEBHOOKS_BACKENDS_H

#include "store/store.h"

#define WEBHOOK_OPS(p)                                                                                       \
    int p##_webhook_create(struct store *s, const struct webhook *w);                                       \
    int p##_webhook_get(struct store *s, const char *customer_id, const char *id, struct webhook *out);     \
    int p##_webhook_list(struct store *s, const char *customer_id, json_t **out);                           \
    int p##_webhook_update(struct store *s, const struct webhook *w);                                       \
    int p##_webhook_delete(struct store *s, const char *customer_id, const char *id);                       \
    int p##_webhook_deliveries(struct store *s, const char *endpoint_id,                                    \
                               const struct webhook_delivery_query *q, json_t **out, long *total);          \
    int p##_webhook_delivery_get(struct store *s, const char *endpoint_id, const char *delivery_id,         \
                                 json_t **out);                                                             \
    int p##_webhook_replay(struct store *s, const char *endpoint_id, const char *delivery_id,               \
                           const char *new_id);                                                             \
    int p##_webhook_enqueue_one(struct store *s, const char *endpoint_id, const char *event_id,             \
                                const char *type, const char *payload, const char *new_id);                 \
    int p##_webhook_next_due(struct store *s, int64_t *next_ms);                                            \
    int p##_webhook_claim(struct store *s, int64_t now_ms, int64_t lease_ms, long limit, json_t **out);     \
    int p##_webhook_attempt_record(struct store *s, const struct webhook_attempt *a);                       \
    int p##_webhook_purge(struct store *s, int64_t before, long limit, long *removed);

WEBHOOK_OPS(sq)
WEBHOOK_OPS(pg)

/* The ops table entries of backend prefix p. */
#define WEBHOOK_OPS_TABLE(p)                                                                                 \
    .webhook_create = p##_webhook_create, .webhook_get = p##_webhook_get, .webhook_list = p##_webhook_list, \
    .webhook_update = p##_webhook_update, .webhook_delete = p##_webhook_delete,                             \
    .webhook_deliveries = p##_webhook_deliveries, .webhook_delivery_get = p##_webhook_delivery_get,         \
    .webhook_replay = p##_webhook_replay, .webhook_enqueue_one = p##_webhook_enqueue_one,                   \
    .webhook_next_due = p##_webhook_next_due, .webhook_claim = p##_webhook_claim,                           \
    .webhook_attempt_record = p##_webhook_attempt_record, .webhook_purge = p##_webhook_purge

#endif
