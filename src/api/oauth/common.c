/* common.c — app authentication and token issuing for the token endpoints.
 * Secrets and tokens are stored only as SHA-256 digests; digests are
 * compared in constant time. */
#include <string.h>
#include <time.h>

#include "api/oauth/oauth.h"
#include "base/crypto.h"
#include "base/text.h"
#include "core/abuse.h"
#include "core/auth.h"
#include "core/config.h"

int oauth_app(struct req *r, enum app_kind kind, const char *secret, struct app *out)
{
    /* every token endpoint starts here, in its write transaction: what it
     * writes needs no exclusion from another token endpoint's (store.h) */
    r->store->ops->credential_writes(r->store);
    const char *app_id = field_str(r, "app_id");
    int rc = r->store->ops->app_get(r->store, app_id, out);
    if (rc == STORE_ERROR)
        return reply_error(r, E_STORE, NULL), -1;
    bool valid = rc == STORE_OK && !out->revoked;
    if (valid && secret) {
        char digest[DIGEST_LEN + 1];
        sha256_hex(secret, digest);
        valid = ct_streq(digest, out->secret_digest);
    }
    if (!valid) {
        reply_error(r, E_APP_CREDENTIALS, secret ? "app_id or secret: not valid" : "app_id: not valid");
        return -1;
    }
    if (out->kind != kind) {
        reply_error(r, E_GRANT_NOT_ALLOWED,
                    kind == APP_PORTAL
                        ? "grant_type: client_credential is for portal apps; this app is an installed app"
                        : "app_id: this flow is for installed apps; this app is a portal app");
        return -1;
    }
    if (auth_source_allowed(r, out->id, out->has_allow_list) != 0) {
        reply_error(r, E_SOURCE_ADDRESS, "app_id: this app may not be used from this source address");
        return -1;
    }
    return abuse_app_request(r, out->id);
}

int oauth_issue(struct req *r, enum token_type type, const struct app *app, const char *customer_id,
                const char *grant_id, const char *scope, char *out)
{
    struct token t;
    memset(&t, 0, sizeof t);
    random_hex(out, SECRET_BYTES);
    sha256_hex(out, t.digest);
    t.type = type;
    copy_text(t.app_id, sizeof t.app_id, app->id);
    copy_text(t.portal_id, sizeof t.portal_id, app->kind == APP_PORTAL ? app->portal_id : "");
    copy_text(t.customer_id, sizeof t.customer_id, customer_id ? customer_id : "");
    copy_text(t.grant_id, sizeof t.grant_id, grant_id ? grant_id : "");
    copy_text(t.scope, sizeof t.scope, scope ? scope : "");
    t.created_at = (int64_t)time(NULL);
    t.expires_at = t.created_at + (type == TOKEN_ACCESS ? r->config->access_ttl_s : r->config->refresh_ttl_s);
    if (r->store->ops->token_create(r->store, &t) != STORE_OK) {
        reply_error(r, E_STORE, NULL);
        return -1;
    }
    return 0;
}
