/* auth.h — who is calling (the access token) and whether they may act on
 * the tenant a route names (the route's access rule). The dispatcher calls
 * these before any handler runs. */
#ifndef PARAPET_AUTH_H
#define PARAPET_AUTH_H

#include "core/req.h"

/* Resolves r->caller from an access token. Returns 0, or -1 after replying. */
int auth_resolve_token(struct req *r, const char *token);

/* Applies the route's access rule: token kind, tenancy (r->customer), and
 * the customer's protection services. Returns 0, or -1 after replying. */
int auth_check_access(struct req *r);
/* Operator routes: r->bearer must be an ingest token that is not revoked
 * (401 otherwise); 0 or -1 with the reply set. */
int auth_check_ingest(struct req *r);

/* Is the request's source address on the app's allow list (or has the app
 * none)? Used by the token endpoints too. Returns 0 when allowed. */
int auth_source_allowed(struct req *r, const char *app_id, bool has_allow_list);

#endif
