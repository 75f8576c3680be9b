/* accounts.c — see accounts.h. */
#include "cli/accounts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/crypto.h"
#include "base/net.h"
#include "base/text.h"
#include "base/url.h"

static json_t *fail(struct account_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static json_t *fail(struct account_error *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return NULL;
}

/* A text option: valid UTF-8 (args guarantee it), within max characters. */
static bool text_ok(const char *what, const char *v, size_t min, size_t max, struct account_error *e)
{
    size_t n = v ? utf8_length(v) : 0;
    if (n < min || n > max) {
        fail(e, "--%s must be %zu to %zu characters", what, min, max);
        return false;
    }
    return true;
}

/* Starts the write transaction that finish() ends. */
static int in_transaction(struct store *s, struct account_error *e)
{
    if (s->ops->begin(s, true) != STORE_OK) {
        fail(e, "the store is not available");
        return -1;
    }
    return 0;
}

static json_t *finish(struct store *s, json_t *result, struct account_error *e)
{
    if (!result) {
        s->ops->rollback(s);
        return NULL;
    }
    if (s->ops->commit(s) != STORE_OK) {
        s->ops->rollback(s);
        json_decref(result);
        return fail(e, "the change could not be saved");
    }
    return result;
}

json_t *account_portal_create(struct store *s, const char *name, struct account_error *e)
{
    if (!text_ok("name", name, 1, NAME_LEN, e) || in_transaction(s, e))
        return NULL;
    struct portal p;
    random_hex(p.id, ID_BYTES);
    copy_text(p.name, sizeof p.name, name);
    json_t *res = s->ops->portal_create(s, &p) == STORE_OK ? json_pack("{s:s}", "portal_id", p.id)
                                                           : fail(e, "the portal could not be created");
    return finish(s, res, e);
}

static json_t *create_app(struct store *s, const struct app_request *a, struct account_error *e)
{
    struct app app;
    memset(&app, 0, sizeof app);
    if (strcmp(a->kind, "portal") == 0) {
        struct portal p;
        if (!a->portal_id || s->ops->portal_get(s, a->portal_id, &p) != STORE_OK)
            return fail(e, "--portal must name an existing portal");
        if (a->host_url)
            return fail(e, "--host-url is for installed apps");
        app.kind = APP_PORTAL;
        copy_text(app.portal_id, sizeof app.portal_id, a->portal_id);
    } else if (strcmp(a->kind, "installed") == 0) {
        struct url_parts u;
        if (a->portal_id)
            return fail(e, "--portal is for portal apps (an installed app is installed per customer)");
        if (!a->host_url || strlen(a->host_url) > URL_LEN || url_parse(a->host_url, &u) != 0)
            return fail(e, "--host-url must be an absolute http(s) URL (the app's registered host)");
        app.kind = APP_INSTALLED;
        copy_text(app.host_url, sizeof app.host_url, a->host_url);
    } else {
        return fail(e, "--kind must be portal or installed");
    }
    random_hex(app.id, ID_BYTES);
    copy_text(app.name, sizeof app.name, a->name);
    char secret[2 * SECRET_BYTES + 1];
    random_hex(secret, SECRET_BYTES);
    sha256_hex(secret, app.secret_digest);
    if (s->ops->app_create(s, &app) != STORE_OK)
        return fail(e, "the app could not be created");
    size_t i;
    json_t *v;
    json_array_foreach (a->allow_ips, i, v) {
        struct cidr c;
        char canon[NET_TEXT_MAX];
        if (cidr_parse(json_string_value(v), CIDR_ALLOW_BARE, &c) != 0)
            return fail(e, "--allow-ip '%s' is not an address or CIDR block", json_string_value(v));
        cidr_format(&c, canon);
        if (s->ops->app_allow_add(s, app.id, canon) != STORE_OK)
            return fail(e, "the allow list could not be saved");
    }
    return json_pack("{s:s,s:s}", "app_id", app.id, "secret", secret);
}

json_t *account_app_create(struct store *s, const struct app_request *a, struct account_error *e)
{
    if (!a->kind)
        return fail(e, "--kind is required (portal or installed)");
    if (!text_ok("name", a->name, 1, NAME_LEN, e) || in_transaction(s, e))
        return NULL;
    return finish(s, create_app(s, a, e), e);
}

/* "op,ap,dns,cdn" (any subset, any order) into the customer's flags. */
static bool parse_services(const char *list, struct customer *c)
{
    c->svc_ap = c->svc_op = c->svc_dns = c->svc_cdn = list == NULL;
    if (!list)
        return true;
    char buf[64];
    if (!copy_text(buf, sizeof buf, list))
        return false;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "ap"))
            c->svc_ap = true;
        else if (!strcmp(t, "op"))
            c->svc_op = true;
        else if (!strcmp(t, "dns"))
            c->svc_dns = true;
        else if (!strcmp(t, "cdn"))
            c->svc_cdn = true;
        else if (*t)
            return false;
    }
    return true;
}

json_t *account_customer_create(struct store *s, const struct customer_request *r, struct account_error *e)
{
    struct customer c;
    memset(&c, 0, sizeof c);
    const struct {
        const char *opt, *value;
        char *dst;
        size_t size;
    } texts[] = {
        {"email", r->email, c.email, sizeof c.email},
        {"company", r->company, c.company, sizeof c.company},
        {"phone", r->phone, c.phone, sizeof c.phone},
        {"address", r->address, c.address, sizeof c.address},
        {"website", r->website, c.website, sizeof c.website},
    };
    if (!text_ok("name", r->name, 1, NAME_LEN, e))
        return NULL;
    copy_text(c.name, sizeof c.name, r->name);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (texts[i].value && !text_ok(texts[i].opt, texts[i].value, 0, TEXT_LEN, e))
            return NULL;
        copy_text(texts[i].dst, texts[i].size, texts[i].value ? texts[i].value : "");
    }
    if (!parse_services(r->services, &c))
        return fail(e, "--services must be a comma-separated subset of op,ap,dns,cdn");
    if (in_transaction(s, e))
        return NULL;
    struct portal p;
    json_t *res = NULL;
    if (!r->portal_id || s->ops->portal_get(s, r->portal_id, &p) != STORE_OK) {
        fail(e, "--portal must name an existing portal");
    } else {
        copy_text(c.portal_id, sizeof c.portal_id, r->portal_id);
        random_hex(c.id, ID_BYTES);
        res = s->ops->customer_create(s, &c) == STORE_OK ? json_pack("{s:s}", "customer_id", c.id)
                                                         : fail(e, "the customer could not be created");
    }
    return finish(s, res, e);
}

json_t *account_install(struct store *s, const char *app_id, const char *customer_id, struct account_error *e)
{
    if (in_transaction(s, e))
        return NULL;
    struct app app;
    struct customer c;
    json_t *res = NULL;
    if (!app_id || s->ops->app_get(s, app_id, &app) != STORE_OK || app.revoked) {
        fail(e, "--app must name an existing, live app");
    } else if (app.kind != APP_INSTALLED) {
        fail(e, "--app must be an installed app (portal apps act for their portal's customers)");
    } else if (!customer_id || s->ops->customer_get(s, customer_id, &c) != STORE_OK) {
        fail(e, "--customer must name an existing customer");
    } else {
        struct installation in;
        char xspe[2 * SECRET_BYTES + 1];
        random_hex(in.id, ID_BYTES);
        copy_text(in.app_id, sizeof in.app_id, app_id);
        copy_text(in.customer_id, sizeof in.customer_id, customer_id);
        random_hex(xspe, SECRET_BYTES);
        sha256_hex(xspe, in.xspe_digest);
        int rc = s->ops->install_create(s, &in);
        res = rc == STORE_OK         ? json_pack("{s:s}", "xspe", xspe)
              : rc == STORE_CONFLICT ? fail(e, "the app is already installed for this customer")
                                     : fail(e, "the installation could not be saved");
    }
    return finish(s, res, e);
}

long long account_parse_asn(const char *text)
{
    if (!text)
        return -1;
    if (strncasecmp(text, "AS", 2) == 0)
        text += 2;
    if (!*text || strspn(text, "0123456789") != strlen(text) || strlen(text) > 10)
        return -1;
    errno = 0;
    long long v = strtoll(text, NULL, 10);
    return errno || v < 0 || v > 4294967295LL ? -1 : v;
}

int account_asn_add(struct store *s, long long asn, const char *prefix, int max_length, const char *source,
                    struct account_error *e)
{
    struct cidr c;
    if (cidr_parse(prefix, CIDR_REJECT_HOST_BITS, &c) != 0) {
        fail(e, "prefix '%s' is not a CIDR block (without host bits)", prefix);
        return -1;
    }
    int top = c.addr.family == NET_V4 ? 32 : 128;
    if (max_length < 0)
        max_length = c.prefix;
    if (max_length < c.prefix || max_length > top) {
        fail(e, "max length %d of %s must be from %d to %d", max_length, prefix, c.prefix, top);
        return -1;
    }
    char canon[NET_TEXT_MAX];
    cidr_format(&c, canon);
    if (s->ops->asn_prefix_add(s, asn, canon, max_length, source ? source : "") != STORE_OK) {
        fail(e, "the prefix could not be saved");
        return -1;
    }
    return 0;
}
