/* auth.c — see auth.h. A request for another tenant's customer is answered
 * exactly like one for a customer that does not exist. */
#include "core/auth.h"

#include <string.h>
#include <time.h>

#include "base/crypto.h"
#include "base/text.h"
#include "core/audit.h"
#include "core/auth_cache.h"
#include "core/resource.h"
#include "core/route.h"

static bool looks_like_secret(const char *s)
{
    return strlen(s) == 2 * SECRET_BYTES && strspn(s, "0123456789abcdef") == 2 * SECRET_BYTES;
}

int auth_source_allowed(struct req *r, const char *app_id, bool has_allow_list)
{
    if (!has_allow_list)
        return 0;
    json_t *list = NULL;
    if (r->store->ops->app_allow_list(r->store, app_id, &list) != STORE_OK)
        return -1;
    int rc = -1;
    size_t i;
    json_t *v;
    json_array_foreach (list, i, v) {
        struct cidr c;
        if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) == 0 && cidr_contains_ip(&c, &r->client)) {
            rc = 0;
            break;
        }
    }
    json_decref(list);
    return rc;
}

int auth_resolve_token(struct req *r, const char *token)
{
    if (!token || !*token) {
        reply_error(r, E_TOKEN_MISSING, "access_token: is required");
        return -1;
    }
    struct token t;
    char digest[DIGEST_LEN + 1];
    int rc = STORE_NOT_FOUND;
    /* Read before this transaction's first read: see store_ops.data_version. */
    const struct store_ops *ops = r->store->ops;
    r->data_version = ops->data_version(r->store);
    r->accounts_version = ops->accounts_version(r->store);
    if (looks_like_secret(token)) {
        sha256_hex(token, digest);
        if (auth_cache_get_token(r->accounts_version, digest, &t))
            rc = STORE_OK;
        else if ((rc = ops->token_get(r->store, digest, &t)) == STORE_OK)
            auth_cache_put_token(r->accounts_version, &t);
    }
    if (rc == STORE_ERROR) {
        reply_error(r, E_STORE, NULL);
        return -1;
    }
    if (rc != STORE_OK || !ct_streq(t.digest, digest) || t.type != TOKEN_ACCESS || t.revoked ||
        t.app_revoked) {
        reply_error(r, E_TOKEN_INVALID, "access_token: is not valid");
        return -1;
    }
    if (t.expires_at <= (int64_t)time(NULL)) {
        reply_error(r, E_TOKEN_EXPIRED, "access_token: has expired; get a new one");
        return -1;
    }
    if (auth_source_allowed(r, t.app_id, t.app_has_allow_list) != 0) {
        reply_error(r, E_SOURCE_ADDRESS, "access_token: not usable from this source address");
        return -1;
    }
    r->caller.kind = t.app_kind == APP_PORTAL ? TOKEN_PORTAL : TOKEN_INSTALLED;
    copy_text(r->caller.app_id, sizeof r->caller.app_id, t.app_id);
    copy_text(r->caller.portal_id, sizeof r->caller.portal_id, t.portal_id);
    copy_text(r->caller.customer_id, sizeof r->caller.customer_id, t.customer_id);
    return 0;
}

/* Loads the customer into r->customer when the caller may act for it:
 * 0; -1 when it may not (nothing replied), -2 on a store error (replied). */
static int load_customer_quiet(struct req *r, const char *id)
{
    int rc = STORE_NOT_FOUND;
    if (id && auth_cache_get_customer(r->accounts_version, id, &r->customer))
        rc = STORE_OK;
    else if (id && (rc = r->store->ops->customer_get(r->store, id, &r->customer)) == STORE_OK)
        auth_cache_put_customer(r->accounts_version, &r->customer);
    if (rc == STORE_ERROR) {
        reply_error(r, E_STORE, NULL);
        return -2;
    }
    bool mine =
        rc == STORE_OK &&
        ((r->caller.kind == TOKEN_PORTAL && strcmp(r->customer.portal_id, r->caller.portal_id) == 0) ||
         (r->caller.kind == TOKEN_INSTALLED && strcmp(r->customer.id, r->caller.customer_id) == 0));
    if (!mine) {
        memset(&r->customer, 0, sizeof r->customer);
        return -1;
    }
    return 0;
}

/* load_customer_quiet, answering 404 for a customer the caller may not see. */
static int load_customer(struct req *r, const char *id)
{
    int rc = load_customer_quiet(r, id);
    if (rc == -1)
        reply_error(r, E_NOT_FOUND, "customer_id: no such customer");
    return rc == 0 ? 0 : -1;
}

static bool has_service(const struct customer *c, enum service s)
{
    switch (s) {
    case SVC_AP: return c->svc_ap;
    case SVC_OP: return c->svc_op;
    case SVC_DNS: return c->svc_dns;
    case SVC_CDN: return c->svc_cdn;
    default: return true;
    }
}

static const char *service_name(enum service s)
{
    switch (s) {
    case SVC_AP: return "application_protection";
    case SVC_OP: return "origin_protection";
    case SVC_DNS: return "dns_protection";
    case SVC_CDN: return "cdn_federation";
    default: return "";
    }
}

/* The site kind a /specp/<family>/site/{site_id} path names. */
static const char *site_kind(enum service s)
{
    switch (s) {
    case SVC_OP: return "op.site";
    case SVC_AP: return "ap.site";
    default: return NULL;
    }
}

/* Loads the path's site into r->site and its customer, when the caller may
 * act for that customer; an unknown site and another tenant's site get the
 * same answer. */
static int load_site(struct req *r)
{
    struct res_query q = {.kind = site_kind(r->route->service), .parent_rid = RES_TOP_LEVEL};
    const char *id = path_param(r, "site_id");
    int rc = q.kind && id ? r->store->ops->res_get(r->store, &q, id, NULL, &r->site) : STORE_NOT_FOUND;
    if (rc == STORE_ERROR) {
        reply_error(r, E_STORE, NULL);
        return -1;
    }
    req_hold(r, r->site.doc); /* released with the request */
    int mine = rc == STORE_OK ? load_customer_quiet(r, r->site.customer_id) : -1;
    if (mine != 0) {
        memset(&r->site, 0, sizeof r->site);
        if (mine == -1)
            reply_error(r, E_NOT_FOUND, "site_id: no such site");
        return -1;
    }
    audit_note_before(r, &r->site); /* a write's before -> after (core/audit.h) */
    return 0;
}

int auth_check_access(struct req *r)
{
    const struct route *rt = r->route;
    switch (rt->access) {
    case ACCESS_PUBLIC:
    case ACCESS_INGEST: return 0;
    case ACCESS_PORTAL:
        if (r->caller.kind != TOKEN_PORTAL) {
            reply_error(r, E_TOKEN_KIND,
                        "access_token: this endpoint needs a portal app's token (grant client_credential)");
            return -1;
        }
        return 0;
    case ACCESS_CUSTOMER:
        if (load_customer(r, path_param(r, "customer_id")) != 0)
            return -1;
        break;
    case ACCESS_BOUND_CUSTOMER:
        if (r->caller.kind != TOKEN_INSTALLED) {
            reply_error(r, E_TOKEN_KIND,
                        "access_token: this endpoint needs a customer-bound token (an installed app's, grant "
                        "authorization_code)");
            return -1;
        }
        if (load_customer(r, r->caller.customer_id) != 0)
            return -1;
        break;
    case ACCESS_QUERY_CUSTOMER: {
        const char *id = json_string_value(json_object_get(r->query_fields, "customer_id"));
        if (!id) {
            reply_error(r, E_FIELD_MISSING, "customer_id: is required (in the query)");
            return -1;
        }
        if (load_customer(r, id) != 0)
            return -1;
        break;
    }
    case ACCESS_SITE:
        if (load_site(r) != 0)
            return -1;
        break;
    case ACCESS_TOKEN:
        if (r->caller.kind == TOKEN_PORTAL)
            return 0;
        if (load_customer(r, r->caller.customer_id) != 0)
            return -1;
        break;
    }
    if (!has_service(&r->customer, rt->service)) {
        reply_error(r, E_SERVICE_DISABLED, "customer %s does not have %s", r->customer.id,
                    service_name(rt->service));
        return -1;
    }
    return 0;
}

int auth_check_ingest(struct req *r)
{
    if (!r->bearer || !*r->bearer) {
        reply_error(r, E_TOKEN_MISSING, "Authorization: an ingest token is required (Authorization: Bearer ...)");
        return -1;
    }
    char digest[DIGEST_LEN + 1];
    sha256_hex(r->bearer, digest);
    int rc = r->store->ops->ingest_token_check(r->store, digest);
    if (rc == STORE_ERROR) {
        reply_error(r, E_STORE, NULL);
        return -1;
    }
    if (rc != STORE_OK) {
        reply_error(r, E_TOKEN_INVALID, "Authorization: the ingest token is not valid");
        return -1;
    }
    return 0;
}
