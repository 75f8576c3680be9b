/* ap_port.c — a domain's HTTP ports, its HTTP → HTTPS redirects and its
 * HTTP/2 switch ({SAP}/domain/{domain_id}/http-port..., http2-switch).
 *
 * Ports are ap.domain_port children named by number, so a number is in at
 * most one of the two lists. Removing an HTTP port removes its redirect.
 * Redirects and HTTP/2 need HTTPS on (a certificate serves the domain). */
#include <string.h>

#include "api/ap/ap_common.h"

/* The domain's port row with this number, or NULL. */
static json_t *port_row(json_t *ports, long long number)
{
    size_t i;
    json_t *p;
    json_array_foreach (ports, i, p) {
        if (json_integer_value(json_object_get(json_object_get(p, "doc"), "port")) == number)
            return p;
    }
    return NULL;
}

static bool is_scheme(json_t *row, const char *scheme)
{
    const char *s = json_string_value(json_object_get(json_object_get(row, "doc"), "scheme"));
    return row && s && !strcmp(s, scheme);
}

/* Loads site, domain and its ports for a port handler. */
static int load(struct req *r, struct resource *site, struct resource *d, json_t **ports)
{
    if (ap_site_from_path(r, site) != 0 || ap_domain_from_path(r, site, d) != 0)
        return -1;
    *ports = ap_domain_ports(r, d);
    return *ports ? 0 : -1;
}

static bool https_on(const struct resource *site, const struct resource *d, json_t *ports)
{
    int is_default;
    return ap_domain_https(ports, ap_cert_effective(site->doc, d->doc, d->name, &is_default));
}

int ap_http_port_add(struct req *r)
{
    struct resource site, d;
    json_t *ports;
    if (load(r, &site, &d, &ports) != 0)
        return 0;
    json_t *want = field_json(r, "http_port");
    size_t http = 0, i, j;
    json_t *p, *v;
    json_array_foreach (ports, i, p)
        http += is_scheme(p, "http");
    json_array_foreach (want, i, v) {
        long long port = json_integer_value(v);
        json_t *have = port_row(ports, port);
        if (is_scheme(have, "https"))
            return reply_error(r, E_RULE, "http_port[%zu]: %lld is an HTTPS port of the domain", i, port);
        bool again = false;
        for (j = 0; j < i; j++)
            again |= json_integer_value(json_array_get(want, j)) == port;
        if (have || again) /* already there: nothing to do */
            continue;
        if (++http > AP_MAX_HTTP_PORTS)
            return reply_error(r, E_LIMIT, "http_port: a domain may have at most %d HTTP ports",
                               AP_MAX_HTTP_PORTS);
        if (ap_port_create(r, &d, "http", port) != 0)
            return 0;
    }
    return reply_result(r, NULL);
}

/* Drops the redirect of HTTP port `port`; true when there was one. */
static bool drop_redirect(json_t *doc, long long port)
{
    json_t *list = json_object_get(doc, "redirects");
    size_t i;
    json_t *e;
    json_array_foreach (list, i, e) {
        if (json_integer_value(json_object_get(e, "http_port")) == port) {
            json_array_remove(list, i);
            return true;
        }
    }
    return false;
}

int ap_http_port_delete(struct req *r)
{
    struct resource site, d;
    json_t *ports;
    if (load(r, &site, &d, &ports) != 0)
        return 0;
    bool redirects_changed = false;
    size_t i;
    json_t *v;
    json_array_foreach (field_json(r, "http_port"), i, v) {
        json_t *row = port_row(ports, json_integer_value(v));
        if (!is_scheme(row, "http")) /* not an HTTP port of the domain: ignored (doc 002) */
            continue;
        json_t *blocker = NULL;
        int rc =
            r->store->ops->res_delete(r->store, json_integer_value(json_object_get(row, "rid")), &blocker);
        if (rc == STORE_CONFLICT && blocker)
            return reply_delete_blocked(r, "http_port", blocker);
        if (rc != STORE_OK && rc != STORE_NOT_FOUND) /* NOT_FOUND: the same port twice */
            return reply_store_error(r, rc);
        redirects_changed |= drop_redirect(d.doc, json_integer_value(v));
    }
    if (redirects_changed && ap_update(r, &d) != 0)
        return 0;
    return reply_result(r, NULL);
}

int ap_redirect_switch_set(struct req *r)
{
    struct resource site, d;
    json_t *ports;
    if (load(r, &site, &d, &ports) != 0)
        return 0;
    long long http = field_int(r, "http_port", 0), https = field_int(r, "https_port", 0);
    if (!is_scheme(port_row(ports, http), "http"))
        return reply_error(r, E_RULE, "http_port: %lld is not an HTTP port of the domain", http);
    drop_redirect(d.doc, http);
    if (field_int(r, "is_enable", 0) == 1) {
        /* enabling names the HTTPS port; the latest value applies (doc 002) */
        if (!is_scheme(port_row(ports, https), "https"))
            return reply_error(r, E_RULE, "https_port: %lld is not an HTTPS port of the domain", https);
        if (!https_on(&site, &d, ports))
            return reply_error(r, E_STATE,
                               "is_enable: HTTPS is off for this domain (no certificate serves it)");
        json_array_append_new(
            json_object_get(d.doc, "redirects"),
            json_pack("{s:I,s:I}", "http_port", (json_int_t)http, "https_port", (json_int_t)https));
    }
    return ap_update(r, &d) == 0 ? reply_result(r, NULL) : 0;
}

int ap_http2_switch_set(struct req *r)
{
    struct resource site, d;
    json_t *ports;
    if (load(r, &site, &d, &ports) != 0)
        return 0;
    long long on = field_int(r, "switch_http2", 0);
    if (on == 1 && !https_on(&site, &d, ports))
        return reply_error(r, E_STATE,
                           "switch_http2: HTTP/2 can be enabled only while HTTPS is on (switch_https 1)");
    json_object_set_new(d.doc, "http2", json_integer(on));
    return ap_update(r, &d) == 0 ? reply_result(r, NULL) : 0;
}
