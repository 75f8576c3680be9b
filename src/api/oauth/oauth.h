/* oauth.h — the four token endpoints and what they share. */
#ifndef PARAPET_OAUTH_H
#define PARAPET_OAUTH_H

#include "core/req.h"

int oauth_connect(struct req *r);
int oauth_access_token(struct req *r);
int oauth_refresh_token(struct req *r);
int oauth_credit_token(struct req *r);

/* Loads the app named by the app_id field, checks that it is live, of the
 * wanted kind, used from an allowed address and (when secret is not NULL)
 * that the secret matches. Returns 0, or -1 after replying. */
int oauth_app(struct req *r, enum app_kind kind, const char *secret, struct app *out);

/* Issues a token of the given type for the app and stores its digest; the
 * token text goes to out (2*SECRET_BYTES+1 chars). Returns 0 or -1 after
 * replying. */
int oauth_issue(struct req *r, enum token_type type, const struct app *app, const char *customer_id,
                const char *grant_id, const char *scope, char *out);

#define OAUTH_SCOPE_INSTALL "install_login"

#endif
