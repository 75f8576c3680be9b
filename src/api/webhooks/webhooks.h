/* webhooks.h — the webhook endpoints of a customer (beyond the documents;
 * docs/decisions.md "Webhooks"): register, read, change and remove
 * endpoints, read their delivery log, replay a delivery, send a ping. The
 * dispatcher has checked the token and the customer (ACCESS_CUSTOMER). */
#ifndef PARAPET_API_WEBHOOKS_H
#define PARAPET_API_WEBHOOKS_H

#include "core/req.h"

enum { WEBHOOKS_PER_CUSTOMER = 16 };

int webhook_create(struct req *r);
int webhook_list(struct req *r);
int webhook_get(struct req *r);
int webhook_update(struct req *r);
int webhook_delete(struct req *r);
int webhook_deliveries_list(struct req *r);
int webhook_delivery_get(struct req *r);
int webhook_delivery_replay(struct req *r);
int webhook_ping(struct req *r);

/* The endpoint {webhook_id} of the path, the customer's (0), or a 404 reply
 * (-1: the handler returns). */
int webhook_from_path(struct req *r, struct webhook *out);

#endif
