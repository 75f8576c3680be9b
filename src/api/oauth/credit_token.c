/* credit_token.c — POST /oauth/credit/token (grant_type client_credential):
 * a portal app's access token, acting for the portal. No refresh token. */
#include "api/oauth/oauth.h"
#include "base/crypto.h"
#include "core/config.h"

int oauth_credit_token(struct req *r)
{
    struct app app;
    if (oauth_app(r, APP_PORTAL, field_str(r, "secret"), &app) != 0)
        return 0;
    char access[2 * SECRET_BYTES + 1];
    if (oauth_issue(r, TOKEN_ACCESS, &app, NULL, NULL, NULL, access) != 0)
        return 0;
    return reply_result(
        r, json_pack("{s:s,s:I}", "access_token", access, "expires_in", (json_int_t)r->config->access_ttl_s));
}
