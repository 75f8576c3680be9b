/* route.h — the route table: one row per endpoint (src/routes.def). */
#ifndef PARAPET_ROUTE_H
#define PARAPET_ROUTE_H

#include "core/req.h"
#include "core/spec.h"

/* Body encodings a route accepts. The documents often say only "form": both
 * form kinds are accepted wherever a form is (gaps.md B.1.1). */
enum {
    ENC_NONE = 0,
    ENC_URLENCODED = 1 << 0,
    ENC_MULTIPART = 1 << 1,
    ENC_FORM = ENC_URLENCODED | ENC_MULTIPART,
    ENC_JSON = 1 << 2,
    ENC_NDJSON = 1 << 3, /* application/x-ndjson */
};

/* Who may call a route, and which tenant it acts on. */
enum access {
    ACCESS_PUBLIC,         /* token endpoints: no access_token */
    ACCESS_PORTAL,         /* a portal app's token; acts for the portal */
    ACCESS_CUSTOMER,       /* {customer_id} in the path: the portal's customer, or the installed app's one */
    ACCESS_BOUND_CUSTOMER, /* an installed app's token; acts for its customer */
    ACCESS_SITE,           /* {site_id} in a /specp path: the site's customer, checked as ACCESS_CUSTOMER;
                              the site (of the route's service: op.site, ap.site) is loaded into r->site */
    ACCESS_TOKEN,          /* any app's token, acting for what it may: a portal token for its portal's
                              customers (the handler scopes by r->caller.portal_id; no service check), an
                              installed app's token for its customer (loaded into r->customer, as
                              ACCESS_BOUND_CUSTOMER, service checked) */
    ACCESS_INGEST,         /* an operator's ingest token, as Authorization: Bearer (no access_token) */
    ACCESS_QUERY_CUSTOMER, /* as ACCESS_CUSTOMER, the customer named by the query's customer_id
                              (GET /spe/ap/dashboard/waf/event) */
};

/* The protection service a customer must have for the route. */
enum service { SVC_NONE, SVC_AP, SVC_OP, SVC_DNS, SVC_CDN };

enum {
    ROUTE_TOKEN_IN_FORM = 1 << 0, /* access_token may come in the form (doc 000 rule 2) */
    ROUTE_WRITES = 1 << 1,        /* a GET that changes stored data (runs in a write transaction) */
    ROUTE_GUARDED = 1 << 2,       /* takes app credentials: failed attempts are slowed (abuse.h) */
    ROUTE_RAW_BODY = 1 << 3,      /* the handler reads r->body_raw (a JSON array or NDJSON) itself */
    ROUTE_CACHED = 1 << 4,        /* a GET whose answer depends only on the stored data, the path, the query
                                     and the caller (no clock, no files): kept in core/reply_cache.h */
};

typedef int route_handler(struct req *r);

struct route {
    const char *id; /* the endpoint id of shared/spec/endpoints.json */
    enum http_method method;
    const char *path; /* as the documents give it; /api is prefixed unless it starts with /oauth */
    unsigned encodings;
    enum access access;
    enum service service;
    unsigned flags;
    route_handler *handler;
    /* NULL, or the checks of the request that need no stored data, run
     * before the handler's transaction (a write's, under the one writer):
     * replies and returns -1 to refuse; may leave r->prepared for the
     * handler. Only for the costly ones (compiling a WAF rule). routes.def
     * gives it with PREPARED(prepare, handler) in the handler's column. */
    route_handler *prepare;
    const struct field_spec *fields;
};

extern const struct route routes[];
extern const size_t routes_count;

#endif
