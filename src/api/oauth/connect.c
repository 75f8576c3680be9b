/* connect.c — GET /oauth/connect: the installed-app flow's first step. On
 * success the client is redirected (302) to redirect_uri with a single-use
 * code and the unchanged state. Every failure is answered with an envelope,
 * never a redirect: a redirect_uri that was not validated is never followed. */
#include <string.h>
#include <time.h>

#include "api/oauth/oauth.h"
#include "base/crypto.h"
#include "base/text.h"
#include "base/url.h"
#include "core/config.h"

/* The app must be installed for the customer, and xspe must be the value
 * the installation handed to the portal. One answer for every mismatch. */
static int check_installation(struct req *r, const struct app *app)
{
    struct installation inst;
    int rc = r->store->ops->install_find(r->store, app->id, field_str(r, "customer_id"), &inst);
    if (rc == STORE_ERROR)
        return reply_error(r, E_STORE, NULL), -1;
    char digest[DIGEST_LEN + 1];
    sha256_hex(field_str(r, "xspe"), digest);
    if (rc != STORE_OK || !ct_streq(digest, inst.xspe_digest)) {
        reply_error(r, E_GRANT_NOT_ALLOWED,
                    "customer_id, xspe: the app is not installed for this customer, or xspe does not match");
        return -1;
    }
    return 0;
}

int oauth_connect(struct req *r)
{
    struct app app;
    if (oauth_app(r, APP_INSTALLED, NULL, &app) != 0)
        return 0;
    const char *redirect = field_str(r, "redirect_uri");
    if (!url_redirect_allowed(app.host_url, redirect))
        return reply_error(r, E_REDIRECT_URI,
                           "redirect_uri: must be an absolute http(s) URL on the app's registered host (%s) "
                           "or a subdomain of it, without userinfo or fragment",
                           app.host_url);
    if (check_installation(r, &app) != 0)
        return 0;

    char code[2 * SECRET_BYTES + 1];
    struct auth_code c;
    memset(&c, 0, sizeof c);
    random_hex(code, SECRET_BYTES);
    sha256_hex(code, c.digest);
    copy_text(c.app_id, sizeof c.app_id, app.id);
    copy_text(c.customer_id, sizeof c.customer_id, field_str(r, "customer_id"));
    random_hex(c.grant_id, ID_BYTES);
    copy_text(c.scope, sizeof c.scope, field_str(r, "scope"));
    c.expires_at = (int64_t)time(NULL) + r->config->code_ttl_s;
    if (r->store->ops->code_create(r->store, &c) != STORE_OK)
        return reply_error(r, E_STORE, NULL);

    size_t size = strlen(redirect) + 3 * strlen(field_str(r, "state")) + sizeof code + 32;
    char *location = arena_alloc(&r->arena, size);
    strcpy(location, redirect);
    if (url_append_param(location, size, "code", code) < 0 ||
        url_append_param(location, size, "state", field_str(r, "state")) < 0)
        return reply_error(r, E_INTERNAL, NULL);
    return reply_redirect(r, location);
}
