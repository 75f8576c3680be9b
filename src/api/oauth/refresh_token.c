/* refresh_token.c — POST /oauth/refresh_token (grant_type refresh_code):
 * a new access token and a new refresh token; the presented refresh token
 * is spent. Presenting a spent one again revokes the whole grant. */
#include <string.h>
#include <time.h>

#include "api/oauth/oauth.h"
#include "base/crypto.h"
#include "core/config.h"

int oauth_refresh_token(struct req *r)
{
    struct app app;
    if (oauth_app(r, APP_INSTALLED, NULL, &app) != 0)
        return 0;
    char digest[DIGEST_LEN + 1];
    sha256_hex(field_str(r, "refresh_token"), digest);
    struct token old;
    int rc = r->store->ops->token_get(r->store, digest, &old);
    if (rc == STORE_ERROR)
        return reply_error(r, E_STORE, NULL);
    bool valid = rc == STORE_OK && old.type == TOKEN_REFRESH && strcmp(old.app_id, app.id) == 0 &&
                 !old.revoked && old.expires_at > (int64_t)time(NULL);
    if (valid && old.used) {
        r->store->ops->token_revoke_grant(r->store, old.grant_id);
        r->keep_changes = true;
        valid = false;
    }
    /* spent meanwhile by a concurrent request with the same token (it read
     * the token before that one's commit): a replay too */
    if (valid && (rc = r->store->ops->token_mark_used(r->store, digest)) != STORE_OK) {
        if (rc == STORE_CONFLICT) {
            r->store->ops->token_revoke_grant(r->store, old.grant_id);
            r->keep_changes = true;
        }
        valid = false;
    }
    if (!valid)
        return reply_error(r, E_REFRESH_INVALID, "refresh_token: not valid, expired or already used");

    char access[2 * SECRET_BYTES + 1], refresh[2 * SECRET_BYTES + 1];
    if (oauth_issue(r, TOKEN_ACCESS, &app, old.customer_id, old.grant_id, old.scope, access) != 0 ||
        oauth_issue(r, TOKEN_REFRESH, &app, old.customer_id, old.grant_id, old.scope, refresh) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s,s:I,s:s,s:s}", "access_token", access, "expires_in",
                                     (json_int_t)r->config->access_ttl_s, "refresh_token", refresh, "scope",
                                     old.scope));
}
