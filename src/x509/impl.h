/* impl.h — what the files of src/x509/ share; not for other modules. */
#ifndef PARAPET_CERT_IMPL_H
#define PARAPET_CERT_IMPL_H

#include <gnutls/x509.h>
#include <stddef.h>

#include "x509/x509.h"

/* Writes the reason into err[CERT_ERR_MAX]; returns CERT_REFUSED. */
int cert_refuse(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "cert_file: internal error (what)"; returns CERT_INTERNAL. */
int cert_internal(char *err, const char *what);
/* A malloc'd copy of s[0..n) safe for JSON and logs (control characters,
 * and non-ASCII bytes of invalid UTF-8, become '?'). */
char *cert_clean_text(const char *s, size_t n);
/* n bytes as 2n lowercase hex digits and a NUL. */
void cert_hex(const unsigned char *in, size_t n, char *out);
/* b->key_type from the leaf's public key; refuses RSA under
 * CERT_RSA_MIN_BITS, curves other than P-256/384/521, DSA and others. */
int cert_key_type(struct cert_bundle *b, gnutls_x509_crt_t crt, char *err);
/* Every read field of b from the leaf (not chain_pem, key_pem, n_chain). */
int cert_read_leaf(struct cert_bundle *b, gnutls_x509_crt_t leaf, char *err);

#endif
