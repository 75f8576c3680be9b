/* ap_cert.c — certificates of sites and domains (on x509/x509.h).
 *
 * An upload is parsed and checked (key matches, chain in order, valid now,
 * and for a domain: covers its name); the site's certificate is the default
 * one of its domains (it serves a domain without its own that it covers).
 * The document keeps the chain and the read fields under "cert"; the
 * private key goes to DATA/ap-keys/<site|domain>-<id>-<upload>.key (0600), never to
 * the store, a log or a reply. A certificate can be revoked (DELETE) only
 * within the catalogue's ap_cert_revoke_window seconds (600, doc 002) of
 * its upload. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "api/ap/ap_common.h"
#include "base/crypto.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "core/catalogue.h"
#include "core/config.h"
#include "x509/x509.h"

#define AP_KEY_DIR "ap-keys"

int ap_cert_key_dir(const char *data_dir, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", data_dir, AP_KEY_DIR);
    return mkdir(out, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

json_t *ap_cert_doc(const struct cert_bundle *b, const char *file_name, const char *key_id, long long now)
{
    char *chain = cert_chain_pem(b);
    json_t *alt = json_array();
    for (size_t i = 0; i < b->n_alt_names; i++)
        json_array_append_new(alt, json_string(b->alt_names[i]));
    json_t *doc = json_pack("{s:s,s:I,s:s,s:s,s:o,s:s,s:s,s:s,s:b}", "file_name", file_name, "uploaded_at",
                            (json_int_t)now, "issued_to", b->issued_to, "issued_by", b->issued_by,
                            "alternate_domains", alt, "expires_time", b->expires_time, "chain",
                            chain ? chain : "", "key_id", key_id, "self_signed", b->self_signed);
    free(chain);
    return doc;
}

json_t *ap_cert_effective(const json_t *site_doc, const json_t *domain_doc, const char *name, int *is_default)
{
    json_t *own = json_object_get(domain_doc, "cert");
    *is_default = 0;
    if (own)
        return own;
    json_t *site = json_object_get(site_doc, "cert");
    const char *chain = json_string_value(json_object_get(site, "chain"));
    if (!chain)
        return NULL;
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    bool covers = cert_chain_read(chain, strlen(chain), &b, err) == CERT_OK && cert_covers_name(b, name);
    cert_bundle_free(b);
    if (!covers)
        return NULL;
    *is_default = 1;
    return site;
}

json_t *ap_cert_read(const json_t *cert, const char *domain_name, int is_default)
{
    if (!cert)
        return json_object();
    char updated[CERT_TIME_LEN];
    struct strbuf alt = {0}; /* every name: a certificate may list thousands of bytes of them */
    size_t i;
    json_t *n;
    json_array_foreach (json_object_get(cert, "alternate_domains"), i, n)
        sb_printf(&alt, "%s%s", i ? "," : "", json_string_value(n));
    cert_time_text(json_integer_value(json_object_get(cert, "uploaded_at")), updated);
    json_t *read = json_pack("{s:s,s:s,s:O,s:i,s:O,s:O,s:s,s:O}", "alternate_domains", sb_text(&alt),
                             "domain", domain_name, "expires_time", json_object_get(cert, "expires_time"),
                             "is_default_crt", is_default, "issued_by", json_object_get(cert, "issued_by"),
                             "issued_to", json_object_get(cert, "issued_to"), "last_update_time", updated,
                             "file_name", json_object_get(cert, "file_name"));
    sb_free(&alt);
    return read;
}

static void remove_key(struct req *r, const char *key_id)
{
    char dir[4096];
    if (ap_cert_key_dir(r->config->data_dir, dir, sizeof dir) == 0)
        cert_key_remove(dir, key_id); /* already gone is fine */
}

void ap_cert_forget(struct req *r, const json_t *cert)
{
    const char *id = json_string_value(json_object_get(cert, "key_id"));
    if (id) /* only once the certificate is gone from the store */
        req_on_end(r, true, remove_key, id);
}

int ap_cert_self_signed(const char *name, time_t now, struct cert_bundle **b, char err[CERT_ERR_MAX])
{
    char *pem_cert = NULL, *pem_key = NULL;
    *b = NULL;
    int rc = cert_self_signed(name, now, &pem_cert, &pem_key, err);
    if (rc == CERT_OK) {
        size_t lc = strlen(pem_cert), lk = strlen(pem_key);
        char *both = malloc(lc + lk + 2);
        if (both) {
            memcpy(both, pem_cert, lc);
            both[lc] = '\n';
            memcpy(both + lc + 1, pem_key, lk + 1);
            rc = cert_bundle_parse(both, lc + lk + 1, NULL, now, b, err);
            cert_secret_free(both);
        } else {
            rc = CERT_INTERNAL;
        }
    }
    free(pem_cert);
    cert_secret_free(pem_key);
    return rc;
}

/* The name a revoke names the certificate by: the base name of `name` (after
 * the last '/' or '\\', so a client's full path counts as its file name),
 * characters outside printable ASCII as '_' (gaps B.4.18). The revoke's
 * file_name goes through the same so that the name the client sent matches. */
static void file_base_name(const char *name, char out[129])
{
    const char *base = name ? name : "";
    for (const char *c = base; *c; c++)
        if (*c == '/' || *c == '\\')
            base = c + 1;
    size_t n = 0;
    for (; *base && n < 128; base++)
        out[n++] = (*base >= 0x20 && *base < 0x7F) ? *base : '_';
    out[n] = '\0';
    if (!n)
        copy_text(out, 129, "cert.pem");
}

/* Parses the upload (or makes a self-signed certificate for `self_name`);
 * replies and returns NULL when it is refused. */
static struct cert_bundle *upload_bundle(struct req *r, const char *self_name, char file_name[129])
{
    const struct upload_file *f = field_file(r, "cert_file");
    bool self_sign = field_int(r, "use_self_sign", 0) == 1;
    char err[CERT_ERR_MAX];
    struct cert_bundle *b = NULL;
    time_t now = time(NULL);
    int rc;
    if (f) { /* the documented upload: the file is what is served, whatever use_self_sign says */
        rc = cert_bundle_parse(f->data, f->len, field_str(r, "cert_pwd"), now, &b, err);
        file_base_name(f->filename, file_name);
    } else if (self_sign) { /* an extension: without a file, use_self_sign=1 makes one */
        rc = ap_cert_self_signed(self_name, now, &b, err);
        copy_text(file_name, 129, "self-signed.pem");
    } else {
        reply_error(r, E_FIELD_MISSING, "cert_file: is required (or use_self_sign=1)");
        return NULL;
    }
    if (rc == CERT_REFUSED)
        reply_error(r, E_FIELD_INVALID, "%s", err);
    else if (rc != CERT_OK)
        reply_error(r, E_INTERNAL, "the certificate could not be processed");
    return rc == CERT_OK ? b : NULL;
}

/* Checks and stores an upload on `res` (a site or a domain). */
static int upload(struct req *r, struct resource *res, const char *noun, const char *cover_name,
                  const char *self_name)
{
    char file_name[129];
    struct cert_bundle *b = upload_bundle(r, self_name, file_name);
    if (!b)
        return 0;
    if (cover_name && !cert_covers_name(b, cover_name)) {
        cert_bundle_free(b);
        return reply_error(r, E_RULE, "cert_file: the certificate does not cover the domain %s", cover_name);
    }
    /* Each upload's key has a file of its own: the one the stored
     * certificate names stays until the transaction that replaces it has
     * committed, and a new one goes again if that transaction rolls back. */
    char key_id[RES_ID_MAX + 32], suffix[9], dir[4096];
    random_hex(suffix, 4);
    snprintf(key_id, sizeof key_id, "%s-%s-%s", noun, res->id, suffix);
    json_t *old = json_object_get(res->doc, "cert");
    if (old)
        ap_cert_forget(r, old);
    json_object_set_new(res->doc, "cert", ap_cert_doc(b, file_name, key_id, (long long)time(NULL)));
    int rc = 0;
    if (ap_update(r, res) == 0) {
        if (ap_cert_key_dir(r->config->data_dir, dir, sizeof dir) != 0 ||
            cert_key_store(dir, key_id, b->key_pem) != 0) {
            rc = reply_error(r, E_INTERNAL, "the private key could not be stored");
        } else {
            req_on_end(r, false, remove_key, key_id);
            rc = reply_result(r, NULL);
        }
    }
    cert_bundle_free(b);
    return rc;
}

/* Removes res's certificate when it is recent enough. */
static int revoke(struct req *r, struct resource *res, const char *noun)
{
    json_t *cert = json_object_get(res->doc, "cert");
    const char *want = field_str(r, "file_name");
    if (!cert)
        return reply_error(r, E_NOT_FOUND, "cert: the %s has no certificate", noun);
    char want_base[129];
    file_base_name(want, want_base);
    if (want && strcmp(want_base, json_string_value(json_object_get(cert, "file_name"))) != 0)
        return reply_error(r, E_NOT_FOUND, "file_name: no such certificate on this %s", noun);
    json_t *window = catalogue_value(r, "ap_cert_revoke_window");
    if (!window)
        return 0;
    long long age = (long long)time(NULL) - json_integer_value(json_object_get(cert, "uploaded_at"));
    if (age > json_integer_value(window))
        return reply_error(r, E_STATE,
                           "cert: a certificate can be revoked only within %lld seconds of its upload (this "
                           "one is %lld seconds old)",
                           (long long)json_integer_value(window), age);
    json_t *gone = json_incref(cert);
    req_hold(r, gone);
    json_object_del(res->doc, "cert");
    if (ap_update(r, res) != 0)
        return 0;
    ap_cert_forget(r, gone);
    return reply_result(r, NULL);
}

/* A site's self-signed certificate names its CNAME record. */
static void site_cname(struct req *r, const struct resource *site, char *out, size_t size)
{
    json_t *domain = catalogue_value(r, "ap_cname_domain");
    snprintf(out, size, "%s.%s", site->id, json_string_value(domain) ? json_string_value(domain) : "");
}

int ap_site_cert_upload(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    char name[300];
    site_cname(r, &site, name, sizeof name);
    return upload(r, &site, "site", NULL, name);
}

int ap_site_cert_revoke(struct req *r)
{
    struct resource site;
    if (ap_site_from_path(r, &site) != 0)
        return 0;
    return revoke(r, &site, "site");
}

int ap_domain_cert_upload(struct req *r)
{
    struct resource site, d;
    if (ap_site_from_path(r, &site) != 0 || ap_domain_from_path(r, &site, &d) != 0)
        return 0;
    return upload(r, &d, "domain", d.name, d.name);
}

int ap_domain_cert_revoke(struct req *r)
{
    struct resource site, d;
    if (ap_site_from_path(r, &site) != 0 || ap_domain_from_path(r, &site, &d) != 0)
        return 0;
    return revoke(r, &d, "domain");
}
