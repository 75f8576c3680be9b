/* x509.h — the whole interface of src/x509/: TLS certificates that clients upload for Application Protection
 * sites and domains (`cert_file`, `cert_pwd`, `use_self_sign`), with GnuTLS:
 * parsing and checking a PEM bundle (leaf, chain, private key), the read
 * fields of `cert_info`/`crt_info`, host name coverage (RFC 6125), a
 * self-signed certificate, and the private key file. Pure functions apart
 * from the cert_key_* file helpers; no HTTP and no store here.
 *
 * Ownership: every char * handed out is malloc'd and the caller's; a bundle
 * is freed with cert_bundle_free, a key PEM with cert_secret_free (which
 * wipes it first). Private keys are never logged, and error messages never
 * quote key material. */
#ifndef PARAPET_CERT_H
#define PARAPET_CERT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

enum {
    CERT_FILE_MAX = 64 * 1024, /* bytes of an uploaded cert_file */
    CERT_CHAIN_MAX = 8,        /* certificates in one upload, leaf included */
    CERT_ERR_MAX = 256,        /* room for the reason a bundle is refused */
    CERT_TIME_LEN = 20,        /* "YYYY-MM-DD HH:MM:SS" and its NUL */
    CERT_RSA_MIN_BITS = 2048,  /* the leaf's RSA key: 2048 to 8192 bits */
    CERT_RSA_MAX_BITS = 8192,
    CERT_CHAIN_RSA_MAX_BITS = 16384, /* any RSA key of the chain (verification cost) */
    CERT_PBKDF2_ITER_MAX = 1000000,  /* encrypted PKCS#8: certtool uses 600000, OpenSSL 2048 */
    CERT_SELF_SIGNED_DAYS = 90,
};

/* Results: CERT_REFUSED is the client's fault (400, err says why, starting
 * with the field name: "cert_file: ..." or "cert_pwd: ..."); CERT_INTERNAL
 * is ours (out of memory, GnuTLS failing on data it produced: 500). */
enum { CERT_OK = 0, CERT_REFUSED = -1, CERT_INTERNAL = -2 };

/* A parsed, checked upload. All strings are valid UTF-8 without control
 * characters (safe for JSON and logs); alt_names are lowercase ASCII. */
struct cert_bundle {
    char *issued_to;  /* leaf subject CN; else the first SAN dNSName; else the subject DN */
    char *issued_by;  /* leaf issuer CN; else the issuer DN */
    char *subject_dn; /* RFC 4514 text */
    char *issuer_dn;
    char *subject_cn; /* NULL when the subject has no CN */
    char **alt_names; /* every SAN dNSName of the leaf, in certificate order */
    size_t n_alt_names;
    long long not_before, not_after;  /* unix seconds */
    char expires_time[CERT_TIME_LEN]; /* not_after as cert_time_text writes it */
    char serial[2 * 32 + 1];          /* leaf serial number, lowercase hex */
    char sha256[2 * 32 + 1];          /* SHA-256 of the leaf's DER, lowercase hex */
    char key_type[32];                /* "RSA 2048", "ECDSA P-256", "Ed25519", ... */
    bool self_signed;                 /* the leaf issued itself */
    size_t n_chain;                   /* certificates in chain_pem, leaf first */
    char *chain_pem;                  /* canonical chain, see cert_chain_pem */
    char *key_pem;                    /* PKCS#8 unencrypted PEM; NULL after cert_chain_read */
};

/* Parses an upload: PEM blocks of the leaf certificate, then its chain in
 * order leaf → root (the root may be left out), and exactly one private key
 * (PKCS#8 "PRIVATE KEY", encrypted PKCS#8 "ENCRYPTED PRIVATE KEY" opened
 * with `password`, PKCS#1 "RSA PRIVATE KEY" or SEC 1 "EC PRIVATE KEY", the
 * last two also in OpenSSL's encrypted form). An optional "PUBLIC KEY" block
 * must match the key; "EC PARAMETERS" blocks are skipped; text outside the
 * blocks is ignored. `password` NULL or "" means none. Checks: size limits,
 * the key matches the leaf's public key, each certificate is issued and
 * signed by the next (a CA), the leaf and the chain are valid at `now`,
 * the leaf's key is RSA (CERT_RSA_MIN_BITS to CERT_RSA_MAX_BITS), ECDSA
 * (P-256, P-384, P-521) or EdDSA, a leaf with an extended key usage allows
 * TLS server use, an encrypted key takes at most CERT_PBKDF2_ITER_MAX
 * iterations to open. On CERT_OK *out is the bundle; otherwise
 * *out is NULL and err holds the reason. */
int cert_bundle_parse(const char *pem, size_t len, const char *password, time_t now, struct cert_bundle **out,
                      char err[CERT_ERR_MAX]);

/* Reads back a chain that cert_chain_pem produced (no key, no time check)
 * to compute its read fields again. Same results as cert_bundle_parse. */
int cert_chain_read(const char *pem, size_t len, struct cert_bundle **out, char err[CERT_ERR_MAX]);

void cert_bundle_free(struct cert_bundle *b);

/* The PEM to store for the chain: the leaf, then its intermediates as
 * uploaded, each re-encoded by GnuTLS; a trailing self-signed root is left
 * out (clients have it) unless it is the leaf. No key. A copy the caller
 * frees; NULL when out of memory. */
char *cert_chain_pem(const struct cert_bundle *b);

/* Whether the leaf is valid for dns_name (UTF-8 or A-labels, any case, one
 * optional trailing dot). Identifiers are the SAN dNSNames, or the subject
 * CN when the certificate has no SAN dNSName. A wildcard is only a whole
 * left-most label "*" followed by at least two labels ("*.example.com");
 * it stands for exactly one label. A dns_name that is itself a wildcard
 * ("*.example.com") is covered only by that same wildcard. */
bool cert_covers_name(const struct cert_bundle *b, const char *dns_name);

/* t as "YYYY-MM-DD HH:MM:SS" in UTC: the documents' date-time format. */
void cert_time_text(long long t, char out[CERT_TIME_LEN]);

/* A self-signed certificate for dns_name (the same name rules as
 * cert_covers_name, no wildcard): ECDSA P-256, subject CN and one SAN
 * dNSName = the name in A-labels, valid from now - 1 h for
 * CERT_SELF_SIGNED_DAYS, CA:false, key usage digitalSignature, EKU
 * serverAuth, SHA-256. *pem_cert gets the certificate, *pem_key the key as
 * PKCS#8 PEM (free it with cert_secret_free). */
int cert_self_signed(const char *dns_name, time_t now, char **pem_cert, char **pem_key,
                     char err[CERT_ERR_MAX]);

/* Private key files: DIR/ID.key, mode 0600. id: 1 to 64 of [A-Za-z0-9_-].
 * store writes a temporary file (O_CREAT|O_EXCL, 0600), fsyncs it, renames
 * it over the old one and fsyncs the directory. load reads it into a
 * malloc'd NUL-terminated buffer (free with cert_secret_free). remove
 * unlinks it and fsyncs the directory. Each returns 0, or -1 with errno set
 * (EINVAL for a bad id, ENOENT when there is no such key, EFBIG when the
 * file is over CERT_FILE_MAX). */
int cert_key_store(const char *dir, const char *id, const char *pem);
int cert_key_load(const char *dir, const char *id, char **pem);
int cert_key_remove(const char *dir, const char *id);

/* Wipes and frees a buffer holding a private key (NULL is fine). */
void cert_secret_free(char *pem);

#endif
