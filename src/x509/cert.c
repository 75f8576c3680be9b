/* cert.c — see x509.h: parsing and checking an uploaded bundle, and the
 * read fields of its leaf. Name matching is in name.c, the self-signed
 * certificate and key files in file.c. */
#include "x509/x509.h"

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x509/impl.h"

/* One PEM block: the label between "BEGIN " and "-----", and the block's
 * whole text (BEGIN line to END line) for GnuTLS to decode. */
struct pem_block {
    char label[32];
    const char *text;
    size_t len;
};

enum { BLOCKS_MAX = CERT_CHAIN_MAX + 4 };

struct parse {
    gnutls_x509_crt_t crt[CERT_CHAIN_MAX];
    size_t n_crt;
    gnutls_x509_privkey_t key;
    gnutls_pubkey_t pub;
    struct cert_bundle *b;
    char *err;
};

/* ---- PEM framing ---------------------------------------------------- */

static const char *find_line(const char *p, const char *end, const char *prefix)
{
    size_t n = strlen(prefix);
    while (p && p < end) {
        if ((size_t)(end - p) >= n && memcmp(p, prefix, n) == 0)
            return p;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

/* Splits the upload into PEM blocks; text between blocks is ignored. */
static int split_pem(const char *pem, size_t len, struct pem_block *blocks, size_t *n, char *err)
{
    const char *p = pem, *end = pem + len;
    *n = 0;
    if (memchr(pem, '\0', len))
        return cert_refuse(err, "cert_file: must be a PEM text file (it holds NUL bytes)");
    while ((p = find_line(p, end, "-----BEGIN ")) != NULL) {
        const char *label = p + 11, *dash = label;
        while (dash < end && *dash != '-' && *dash != '\n' && dash - label < 31)
            dash++;
        if (dash + 5 > end || memcmp(dash, "-----", 5) != 0)
            return cert_refuse(err, "cert_file: has a broken -----BEGIN line");
        if (*n == BLOCKS_MAX)
            return cert_refuse(err,
                               "cert_file: has too many PEM blocks (at most %d certificates and one key)",
                               CERT_CHAIN_MAX);
        struct pem_block *blk = &blocks[(*n)++];
        memcpy(blk->label, label, (size_t)(dash - label));
        blk->label[dash - label] = '\0';
        char end_line[48];
        snprintf(end_line, sizeof end_line, "-----END %.31s-----", blk->label);
        const char *e = find_line(dash, end, end_line);
        if (!e)
            return cert_refuse(err, "cert_file: the PEM block \"%s\" has no END line", blk->label);
        e += strlen(end_line);
        blk->text = p;
        blk->len = (size_t)(e - p);
        p = e;
    }
    if (*n == 0)
        return cert_refuse(err, "cert_file: must be PEM (no -----BEGIN line found)");
    return CERT_OK;
}

/* ---- keys ----------------------------------------------------------- */

static int import_key(struct parse *ps, const struct pem_block *blk, const char *password)
{
    gnutls_datum_t d = {(unsigned char *)blk->text, (unsigned)blk->len};
    bool have_pwd = password && *password;
    int rc;
    if (gnutls_x509_privkey_init(&ps->key) < 0)
        return cert_internal(ps->err, "privkey_init");
    if (strcmp(blk->label, "PRIVATE KEY") == 0) {
        rc = gnutls_x509_privkey_import_pkcs8(ps->key, &d, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN);
    } else if (strcmp(blk->label, "ENCRYPTED PRIVATE KEY") == 0) {
        unsigned schema = 0, cipher = 0, iter = 0;
        if (gnutls_pkcs8_info(&d, GNUTLS_X509_FMT_PEM, &schema, &cipher, NULL, NULL, &iter, NULL) >= 0 &&
            iter > CERT_PBKDF2_ITER_MAX)
            return cert_refuse(ps->err,
                               "cert_file: the private key's encryption takes %u iterations; at most %d "
                               "are taken",
                               iter, CERT_PBKDF2_ITER_MAX);
        rc = gnutls_x509_privkey_import_pkcs8(ps->key, &d, GNUTLS_X509_FMT_PEM, have_pwd ? password : "", 0);
        if (rc == GNUTLS_E_DECRYPTION_FAILED)
            return have_pwd ? cert_refuse(ps->err, "cert_pwd: does not open the encrypted private key")
                            : cert_refuse(ps->err, "cert_pwd: is required: the private key is encrypted");
    } else if (memmem(blk->text, blk->len, "Proc-Type: 4,ENCRYPTED", 22)) {
        /* OpenSSL's legacy encryption of PKCS#1 and SEC 1 keys */
        if (!have_pwd)
            return cert_refuse(ps->err, "cert_pwd: is required: the private key is encrypted");
        rc = gnutls_x509_privkey_import_openssl(ps->key, &d, password);
        if (rc < 0)
            return cert_refuse(ps->err, "cert_pwd: does not open the encrypted private key");
    } else {
        rc = gnutls_x509_privkey_import(ps->key, &d, GNUTLS_X509_FMT_PEM);
    }
    if (rc < 0)
        return cert_refuse(ps->err, "cert_file: the private key (%s) cannot be read", blk->label);
    if (gnutls_x509_privkey_verify_params(ps->key) < 0)
        return cert_refuse(ps->err,
                           "cert_file: the private key is inconsistent (its parameters do not verify)");
    return CERT_OK;
}

/* The SHA-256 key id (a digest of the SubjectPublicKeyInfo). */
static bool crt_key_id(gnutls_x509_crt_t crt, unsigned char id[32])
{
    size_t n = 32;
    return gnutls_x509_crt_get_key_id(crt, GNUTLS_KEYID_USE_SHA256, id, &n) == 0 && n == 32;
}

/* ---- certificates --------------------------------------------------- */

/* A short name for certificate i of the chain, for messages. */
static const char *crt_label(gnutls_x509_crt_t crt, char *buf, size_t size)
{
    size_t n = size;
    if (gnutls_x509_crt_get_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, 0, buf, &n) == 0) {
        for (char *c = buf; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        return buf;
    }
    snprintf(buf, size, "no common name");
    return buf;
}

/* A leaf that lists extended key usages must allow TLS server use. */
static int check_server_use(struct parse *ps, gnutls_x509_crt_t crt)
{
    bool any = false;
    for (unsigned i = 0; i < 64; i++) {
        char oid[128];
        size_t n = sizeof oid;
        int rc = gnutls_x509_crt_get_key_purpose_oid(crt, i, oid, &n, NULL);
        if (rc == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE)
            break;
        if (rc < 0)
            continue;
        any = true;
        if (strcmp(oid, GNUTLS_KP_TLS_WWW_SERVER) == 0 || strcmp(oid, GNUTLS_KP_ANY) == 0)
            return CERT_OK;
    }
    if (any)
        return cert_refuse(ps->err,
                           "cert_file: the certificate's extended key usage does not allow TLS servers");
    return CERT_OK;
}

static int check_times(struct parse *ps, time_t now)
{
    for (size_t i = 0; i < ps->n_crt; i++) {
        time_t nb = gnutls_x509_crt_get_activation_time(ps->crt[i]);
        time_t na = gnutls_x509_crt_get_expiration_time(ps->crt[i]);
        char when[CERT_TIME_LEN], cn[128];
        if (nb == (time_t)-1 || na == (time_t)-1)
            return cert_refuse(ps->err, "cert_file: certificate %zu has an unreadable validity period",
                               i + 1);
        if (now < nb) {
            cert_time_text(nb, when);
            return i == 0
                       ? cert_refuse(ps->err,
                                     "cert_file: the certificate is not valid yet (valid from %s UTC)", when)
                       : cert_refuse(ps->err,
                                     "cert_file: certificate %zu of the chain (%s) is not valid yet (valid "
                                     "from %s UTC)",
                                     i + 1, crt_label(ps->crt[i], cn, sizeof cn), when);
        }
        if (now > na) {
            cert_time_text(na, when);
            return i == 0 ? cert_refuse(ps->err, "cert_file: the certificate expired on %s UTC", when)
                          : cert_refuse(ps->err,
                                        "cert_file: certificate %zu of the chain (%s) expired on %s UTC",
                                        i + 1, crt_label(ps->crt[i], cn, sizeof cn), when);
        }
    }
    return CERT_OK;
}

/* Each certificate must be issued by the next one: issuer name = the next
 * one's subject, and the next one's key verifies its signature as a CA. */
static int check_chain(struct parse *ps)
{
    for (size_t i = 0; i + 1 < ps->n_crt; i++) {
        char a[128], b[128];
        if (gnutls_x509_crt_check_issuer(ps->crt[i], ps->crt[i + 1]) != 1)
            return cert_refuse(
                ps->err,
                "cert_file: the chain is out of order or broken: certificate %zu (%s) was not issued by "
                "certificate %zu (%s); give the leaf first, then each issuer in turn",
                i + 1, crt_label(ps->crt[i], a, sizeof a), i + 2, crt_label(ps->crt[i + 1], b, sizeof b));
        unsigned status = 0;
        unsigned flags = GNUTLS_VERIFY_DISABLE_TIME_CHECKS | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS;
        if (gnutls_x509_crt_verify(ps->crt[i], &ps->crt[i + 1], 1, flags, &status) < 0)
            status = GNUTLS_CERT_INVALID;
        if (status == 0)
            continue;
        crt_label(ps->crt[i + 1], b, sizeof b);
        if (status & GNUTLS_CERT_SIGNER_NOT_CA)
            return cert_refuse(ps->err, "cert_file: certificate %zu of the chain (%s) is not a CA", i + 2, b);
        if (status & GNUTLS_CERT_INSECURE_ALGORITHM)
            return cert_refuse(ps->err, "cert_file: certificate %zu is signed with an insecure algorithm",
                               i + 1);
        if (status & GNUTLS_CERT_SIGNATURE_FAILURE)
            return cert_refuse(ps->err,
                               "cert_file: the signature of certificate %zu does not verify with the key of "
                               "certificate %zu (%s)",
                               i + 1, i + 2, b);
        return cert_refuse(
            ps->err, "cert_file: certificate %zu of the chain (%s) cannot be the issuer of certificate %zu",
            i + 2, b, i + 1);
    }
    return CERT_OK;
}

/* The leaf and its intermediates, re-encoded; a trailing self-signed root
 * is left out unless it is the leaf. */
static int build_chain_pem(struct parse *ps)
{
    size_t keep = ps->n_crt;
    if (keep > 1 && gnutls_x509_crt_check_issuer(ps->crt[keep - 1], ps->crt[keep - 1]) == 1)
        keep--;
    size_t total = 0;
    char *out = NULL;
    for (size_t i = 0; i < keep; i++) {
        gnutls_datum_t d = {NULL, 0};
        if (gnutls_x509_crt_export2(ps->crt[i], GNUTLS_X509_FMT_PEM, &d) < 0) {
            free(out);
            return cert_internal(ps->err, "export");
        }
        char *grown = realloc(out, total + d.size + 1);
        if (!grown) {
            gnutls_free(d.data);
            free(out);
            return cert_internal(ps->err, "out of memory");
        }
        out = grown;
        memcpy(out + total, d.data, d.size);
        total += d.size;
        out[total] = '\0';
        gnutls_free(d.data);
    }
    ps->b->chain_pem = out;
    ps->b->n_chain = keep;
    return CERT_OK;
}

static int export_key(struct parse *ps)
{
    gnutls_datum_t d = {NULL, 0};
    if (gnutls_x509_privkey_export2_pkcs8(ps->key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, &d) < 0)
        return cert_internal(ps->err, "key export");
    ps->b->key_pem = malloc(d.size + 1);
    if (ps->b->key_pem) {
        memcpy(ps->b->key_pem, d.data, d.size);
        ps->b->key_pem[d.size] = '\0';
    }
    gnutls_memset(d.data, 0, d.size);
    gnutls_free(d.data);
    return ps->b->key_pem ? CERT_OK : cert_internal(ps->err, "out of memory");
}

/* ---- the whole parse ------------------------------------------------ */

static int take_blocks(struct parse *ps, const struct pem_block *blocks, size_t n, const char *password,
                       bool upload)
{
    const struct pem_block *pub = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct pem_block *blk = &blocks[i];
        const char *l = blk->label;
        if (strcmp(l, "CERTIFICATE") == 0 || strcmp(l, "X509 CERTIFICATE") == 0) {
            if (ps->n_crt == CERT_CHAIN_MAX)
                return cert_refuse(ps->err, "cert_file: holds more than %d certificates", CERT_CHAIN_MAX);
            gnutls_datum_t d = {(unsigned char *)blk->text, (unsigned)blk->len};
            if (gnutls_x509_crt_init(&ps->crt[ps->n_crt]) < 0)
                return cert_internal(ps->err, "crt_init");
            ps->n_crt++;
            if (gnutls_x509_crt_import(ps->crt[ps->n_crt - 1], &d, GNUTLS_X509_FMT_PEM) < 0)
                return cert_refuse(ps->err, "cert_file: certificate %zu is not a valid X.509 certificate",
                                   ps->n_crt);
            unsigned bits = 0;
            int pk = gnutls_x509_crt_get_pk_algorithm(ps->crt[ps->n_crt - 1], &bits);
            if ((pk == GNUTLS_PK_RSA || pk == GNUTLS_PK_RSA_PSS) && bits > CERT_CHAIN_RSA_MAX_BITS)
                return cert_refuse(ps->err, "cert_file: certificate %zu has an RSA key of more than %d bits",
                                   ps->n_crt, CERT_CHAIN_RSA_MAX_BITS);
        } else if (upload && (strcmp(l, "PRIVATE KEY") == 0 || strcmp(l, "ENCRYPTED PRIVATE KEY") == 0 ||
                              strcmp(l, "RSA PRIVATE KEY") == 0 || strcmp(l, "EC PRIVATE KEY") == 0)) {
            if (ps->key)
                return cert_refuse(ps->err, "cert_file: holds more than one private key");
            int rc = import_key(ps, blk, password);
            if (rc != CERT_OK)
                return rc;
        } else if (upload && strcmp(l, "PUBLIC KEY") == 0) {
            if (pub)
                return cert_refuse(ps->err, "cert_file: holds more than one public key");
            pub = blk;
        } else if (strcmp(l, "EC PARAMETERS") != 0) {
            return cert_refuse(
                ps->err,
                "cert_file: holds an unexpected PEM block \"%s\" (only certificates, one private "
                "key and its public key are taken)",
                l);
        }
    }
    if (ps->n_crt == 0)
        return cert_refuse(ps->err, "cert_file: holds no certificate");
    if (!upload)
        return CERT_OK;
    if (!ps->key)
        return cert_refuse(ps->err,
                           "cert_file: holds no private key (the upload needs the certificate, its chain and "
                           "the private key)");
    unsigned char kid[32], cid[32];
    size_t kn = sizeof kid;
    if (gnutls_x509_privkey_get_key_id(ps->key, GNUTLS_KEYID_USE_SHA256, kid, &kn) < 0 || kn != 32)
        return cert_refuse(ps->err, "cert_file: the private key's public part cannot be computed");
    if (!crt_key_id(ps->crt[0], cid) || memcmp(kid, cid, 32) != 0) {
        for (size_t i = 1; i < ps->n_crt; i++)
            if (crt_key_id(ps->crt[i], cid) && memcmp(kid, cid, 32) == 0)
                return cert_refuse(ps->err,
                                   "cert_file: the certificate of the private key must come first, then its "
                                   "chain (leaf to root)");
        return cert_refuse(ps->err, "cert_file: the private key does not match the certificate");
    }
    if (pub) {
        gnutls_datum_t d = {(unsigned char *)pub->text, (unsigned)pub->len};
        size_t pn = sizeof cid;
        if (gnutls_pubkey_init(&ps->pub) < 0)
            return cert_internal(ps->err, "pubkey_init");
        if (gnutls_pubkey_import(ps->pub, &d, GNUTLS_X509_FMT_PEM) < 0)
            return cert_refuse(ps->err, "cert_file: the public key cannot be read");
        if (gnutls_pubkey_get_key_id(ps->pub, GNUTLS_KEYID_USE_SHA256, cid, &pn) < 0 || pn != 32 ||
            memcmp(kid, cid, 32) != 0)
            return cert_refuse(ps->err, "cert_file: the public key does not match the private key");
    }
    return CERT_OK;
}

static int parse(const char *pem, size_t len, const char *password, time_t now, bool upload,
                 struct cert_bundle **out, char err[CERT_ERR_MAX])
{
    struct pem_block blocks[BLOCKS_MAX];
    size_t n_blocks = 0;
    struct parse ps = {.err = err};
    int rc;
    *out = NULL;
    err[0] = '\0';
    if (!pem || len == 0)
        return cert_refuse(err, "cert_file: is empty");
    if (len > CERT_FILE_MAX)
        return cert_refuse(err, "cert_file: must be at most %d KiB", CERT_FILE_MAX / 1024);
    if ((rc = split_pem(pem, len, blocks, &n_blocks, err)) != CERT_OK)
        return rc;
    if (!(ps.b = calloc(1, sizeof *ps.b))) {
        rc = cert_internal(err, "out of memory");
        goto out;
    }
    if ((rc = take_blocks(&ps, blocks, n_blocks, password, upload)) != CERT_OK ||
        (rc = cert_key_type(ps.b, ps.crt[0], err)) != CERT_OK)
        goto out;
    if (upload && ((rc = check_server_use(&ps, ps.crt[0])) != CERT_OK || (rc = check_chain(&ps)) != CERT_OK ||
                   (rc = check_times(&ps, now)) != CERT_OK))
        goto out;
    if ((rc = cert_read_leaf(ps.b, ps.crt[0], err)) != CERT_OK || (rc = build_chain_pem(&ps)) != CERT_OK ||
        (upload && (rc = export_key(&ps)) != CERT_OK))
        goto out;
    *out = ps.b;
    ps.b = NULL;
out:
    for (size_t i = 0; i < ps.n_crt; i++)
        gnutls_x509_crt_deinit(ps.crt[i]);
    if (ps.key)
        gnutls_x509_privkey_deinit(ps.key);
    if (ps.pub)
        gnutls_pubkey_deinit(ps.pub);
    cert_bundle_free(ps.b);
    return rc;
}

int cert_bundle_parse(const char *pem, size_t len, const char *password, time_t now, struct cert_bundle **out,
                      char err[CERT_ERR_MAX])
{
    return parse(pem, len, password, now, true, out, err);
}

int cert_chain_read(const char *pem, size_t len, struct cert_bundle **out, char err[CERT_ERR_MAX])
{
    return parse(pem, len, NULL, 0, false, out, err);
}
