/* access_token.c — POST /oauth/access_token: exchanges a code from connect
 * for an access token and a refresh token. A code works once; presenting it
 * again revokes every token it yielded (it may have been stolen). */
#include <string.h>
#include <time.h>

#include "api/oauth/oauth.h"
#include "base/crypto.h"
#include "core/config.h"

int oauth_access_token(struct req *r)
{
    struct app app;
    if (oauth_app(r, APP_INSTALLED, field_str(r, "secret"), &app) != 0)
        return 0;
    char digest[DIGEST_LEN + 1];
    sha256_hex(field_str(r, "code"), digest);
    struct auth_code c;
    int rc = r->store->ops->code_consume(r->store, digest, &c);
    if (rc == STORE_CONFLICT) {
        r->store->ops->token_revoke_grant(r->store, c.grant_id);
        r->keep_changes = true;
    }
    if (rc == STORE_ERROR)
        return reply_error(r, E_STORE, NULL);
    if (rc != STORE_OK || strcmp(c.app_id, app.id) != 0 || c.expires_at <= (int64_t)time(NULL))
        return reply_error(r, E_CODE_INVALID, "code: not valid, expired or already used");

    char access[2 * SECRET_BYTES + 1], refresh[2 * SECRET_BYTES + 1];
    if (oauth_issue(r, TOKEN_ACCESS, &app, c.customer_id, c.grant_id, c.scope, access) != 0 ||
        oauth_issue(r, TOKEN_REFRESH, &app, c.customer_id, c.grant_id, c.scope, refresh) != 0)
        return 0;
    json_t *res = json_pack("{s:s,s:I,s:s,s:s}", "access_token", access, "expires_in",
                            (json_int_t)r->config->access_ttl_s, "refresh_token", refresh, "scope", c.scope);
    json_object_set_new(res, r->config->account_field, json_string(c.customer_id));
    return reply_result(r, res);
}
