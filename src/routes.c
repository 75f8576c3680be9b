/* routes.c — expands routes.def into the route table. */
#include "core/route.h"

#include "api/ap/ap.h"
#include "api/ap/ap_policy.h"
#include "api/cp/cp.h"
#include "api/customers/customers.h"
#include "api/dns/dns.h"
#include "api/ingest/ingest.h"
#include "api/meta/meta.h"
#include "api/oauth/oauth.h"
#include "api/op/dashboard_flows.h"
#include "api/op/op.h"
#include "api/op/op_mitigation.h"
#include "api/webhooks/webhooks.h"
#include "webhook/events.h"
#include "core/rules.h"

#define GET    M_GET
#define POST   M_POST
#define PUT    M_PUT
#define DELETE M_DELETE

#define ROUTE(id_, method_, path_, enc_, access_, service_, flags_, handler_, ...)                           \
    {.id = (id_),                                                                                            \
     .method = (method_),                                                                                    \
     .path = (path_),                                                                                        \
     .encodings = (enc_),                                                                                    \
     .access = (access_),                                                                                    \
     .service = (service_),                                                                                  \
     .flags = (flags_),                                                                                      \
     .handler = handler_,                                                                                    \
     .fields = (const struct field_spec[]){__VA_ARGS__, F_END}},

/* in the handler's column: a route with a prepare step (core/route.h) */
#define PREPARED(prepare_, handler_) (handler_), .prepare = (prepare_)

const struct route routes[] = {
#include "routes.def"
};

const size_t routes_count = sizeof routes / sizeof routes[0];
