/* info.c — see x509.h: the read fields of a leaf certificate, and the
 * small helpers the parser shares (impl.h). */
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "x509/impl.h"
#include "x509/x509.h"

int cert_refuse(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, CERT_ERR_MAX, fmt, ap);
    va_end(ap);
    return CERT_REFUSED;
}

int cert_internal(char *err, const char *what)
{
    snprintf(err, CERT_ERR_MAX, "cert_file: internal error (%s)", what);
    return CERT_INTERNAL;
}

/* A copy of s[0..n) that is safe for JSON and logs: control characters
 * become '?', and so does every non-ASCII byte when s is not valid UTF-8. */
char *cert_clean_text(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    bool utf8 = utf8_valid(s, n);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8)) ? '?' : (char)c;
    }
    out[n] = '\0';
    return out;
}

void cert_hex(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

int cert_key_type(struct cert_bundle *b, gnutls_x509_crt_t crt, char *err)
{
    unsigned bits = 0;
    int pk = gnutls_x509_crt_get_pk_algorithm(crt, &bits);
    char *out = b->key_type;
    size_t size = sizeof b->key_type;
    switch (pk) {
    case GNUTLS_PK_RSA:
    case GNUTLS_PK_RSA_PSS:
        if (bits < CERT_RSA_MIN_BITS || bits > CERT_RSA_MAX_BITS)
            return cert_refuse(err, "cert_file: the RSA key has %u bits; %d to %d are taken", bits,
                               CERT_RSA_MIN_BITS, CERT_RSA_MAX_BITS);
        snprintf(out, size, "%s %u", pk == GNUTLS_PK_RSA ? "RSA" : "RSA-PSS", bits);
        return CERT_OK;
    case GNUTLS_PK_ECDSA: {
        gnutls_ecc_curve_t curve;
        gnutls_datum_t x = {NULL, 0}, y = {NULL, 0};
        if (gnutls_x509_crt_get_pk_ecc_raw(crt, &curve, &x, &y) < 0)
            return cert_refuse(err, "cert_file: the certificate's ECDSA key cannot be read");
        gnutls_free(x.data);
        gnutls_free(y.data);
        const char *name = curve == GNUTLS_ECC_CURVE_SECP256R1   ? "P-256"
                           : curve == GNUTLS_ECC_CURVE_SECP384R1 ? "P-384"
                           : curve == GNUTLS_ECC_CURVE_SECP521R1 ? "P-521"
                                                                 : NULL;
        if (!name)
            return cert_refuse(err, "cert_file: the ECDSA curve must be P-256, P-384 or P-521");
        snprintf(out, size, "ECDSA %s", name);
        return CERT_OK;
    }
    case GNUTLS_PK_EDDSA_ED25519: snprintf(out, size, "Ed25519"); return CERT_OK;
    case GNUTLS_PK_EDDSA_ED448: snprintf(out, size, "Ed448"); return CERT_OK;
    default: return cert_refuse(err, "cert_file: the certificate's key must be RSA, ECDSA or EdDSA");
    }
}

static char *dn_text(gnutls_x509_crt_t crt, bool issuer)
{
    gnutls_datum_t d = {NULL, 0};
    int rc = issuer ? gnutls_x509_crt_get_issuer_dn3(crt, &d, 0) : gnutls_x509_crt_get_dn3(crt, &d, 0);
    char *out = rc == 0 ? cert_clean_text((const char *)d.data, d.size) : strdup("");
    gnutls_free(d.data);
    return out;
}

/* The first CN of the subject or issuer, NULL when there is none (or it
 * cannot be read); *oom tells an allocation failure apart. */
static char *cn_text(gnutls_x509_crt_t crt, bool issuer, bool *oom)
{
    size_t n = 0;
    int rc = issuer ? gnutls_x509_crt_get_issuer_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, 0, NULL, &n)
                    : gnutls_x509_crt_get_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, 0, NULL, &n);
    if (rc != GNUTLS_E_SHORT_MEMORY_BUFFER || n == 0 || n > 4096)
        return NULL;
    char *buf = malloc(n + 1);
    if (!buf) {
        *oom = true;
        return NULL;
    }
    rc = issuer ? gnutls_x509_crt_get_issuer_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, 0, buf, &n)
                : gnutls_x509_crt_get_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, 0, buf, &n);
    char *out = NULL;
    if (rc == 0 && n > 0) {
        out = cert_clean_text(buf, strnlen(buf, n));
        if (!out)
            *oom = true;
    }
    free(buf);
    return out;
}

/* Every SAN dNSName that is a plausible host name (printable ASCII, at
 * most 253 characters), lowercased; others never match and are not shown. */
static int read_alt_names(struct cert_bundle *b, gnutls_x509_crt_t crt)
{
    for (unsigned seq = 0; seq < 4096; seq++) {
        char buf[256];
        size_t n = sizeof buf;
        int type = gnutls_x509_crt_get_subject_alt_name(crt, seq, buf, &n, NULL);
        if (type == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE)
            break;
        if (type != GNUTLS_SAN_DNSNAME || n == 0 || n > 253 || strlen(buf) != n)
            continue;
        bool ok = true;
        for (size_t i = 0; i < n; i++) {
            if (buf[i] <= 0x20 || buf[i] >= 0x7f)
                ok = false;
            else if (buf[i] >= 'A' && buf[i] <= 'Z')
                buf[i] = (char)(buf[i] - 'A' + 'a');
        }
        if (!ok)
            continue;
        char **grown = realloc(b->alt_names, (b->n_alt_names + 1) * sizeof *grown);
        if (!grown)
            return -1;
        b->alt_names = grown;
        if (!(b->alt_names[b->n_alt_names] = strdup(buf)))
            return -1;
        b->n_alt_names++;
    }
    return 0;
}

int cert_read_leaf(struct cert_bundle *b, gnutls_x509_crt_t leaf, char *err)
{
    bool oom = false;
    unsigned char buf[64];
    size_t n = sizeof buf;
    if (gnutls_x509_crt_get_serial(leaf, buf, &n) < 0 || n == 0 || n > 32)
        return cert_refuse(err,
                           "cert_file: the certificate's serial number is missing or longer than 32 bytes");
    cert_hex(buf, n, b->serial);
    n = sizeof buf;
    if (gnutls_x509_crt_get_fingerprint(leaf, GNUTLS_DIG_SHA256, buf, &n) < 0 || n != 32)
        return cert_internal(err, "fingerprint");
    cert_hex(buf, n, b->sha256);
    b->not_before = (long long)gnutls_x509_crt_get_activation_time(leaf);
    b->not_after = (long long)gnutls_x509_crt_get_expiration_time(leaf);
    cert_time_text(b->not_after, b->expires_time);
    b->self_signed = gnutls_x509_crt_check_issuer(leaf, leaf) == 1;
    b->subject_dn = dn_text(leaf, false);
    b->issuer_dn = dn_text(leaf, true);
    b->subject_cn = cn_text(leaf, false, &oom);
    char *issuer_cn = cn_text(leaf, true, &oom);
    if (oom || !b->subject_dn || !b->issuer_dn || read_alt_names(b, leaf) != 0) {
        free(issuer_cn);
        return cert_internal(err, "out of memory");
    }
    const char *to = b->subject_cn ? b->subject_cn : b->n_alt_names ? b->alt_names[0] : b->subject_dn;
    b->issued_to = strdup(to);
    b->issued_by = issuer_cn ? issuer_cn : strdup(b->issuer_dn);
    if (!b->issued_to || !b->issued_by)
        return cert_internal(err, "out of memory");
    return CERT_OK;
}

void cert_bundle_free(struct cert_bundle *b)
{
    if (!b)
        return;
    free(b->issued_to);
    free(b->issued_by);
    free(b->subject_dn);
    free(b->issuer_dn);
    free(b->subject_cn);
    for (size_t i = 0; i < b->n_alt_names; i++)
        free(b->alt_names[i]);
    free(b->alt_names);
    free(b->chain_pem);
    cert_secret_free(b->key_pem);
    free(b);
}

char *cert_chain_pem(const struct cert_bundle *b)
{
    return b && b->chain_pem ? strdup(b->chain_pem) : NULL;
}

void cert_secret_free(char *pem)
{
    if (!pem)
        return;
    gnutls_memset(pem, 0, strlen(pem));
    free(pem);
}

void cert_time_text(long long t, char out[CERT_TIME_LEN])
{
    /* four-digit years only: times outside them are clamped */
    const long long min = -30610224000LL, max = 253402300799LL; /* 1000-01-01, 9999-12-31 23:59:59 */
    time_t tt = (time_t)(t < min ? min : t > max ? max : t);
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || strftime(out, CERT_TIME_LEN, "%Y-%m-%d %H:%M:%S", &tm) != CERT_TIME_LEN - 1)
        snprintf(out, CERT_TIME_LEN, "9999-12-31 23:59:59");
}
