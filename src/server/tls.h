/* tls.h — the server's certificate and key: read from PEM files, or, when
 * the data directory has none, a self-signed pair created on first start. */
#ifndef PARAPET_TLS_H
#define PARAPET_TLS_H

#include <stddef.h>

/* Reads cert_path and key_path into *cert and *key (malloc'd PEM text). When both
 * files are missing and create_if_missing is set, makes a self-signed ECDSA
 * P-256 certificate for localhost, 127.0.0.1, ::1 (and extra_host, if any)
 * first. Returns 0 or -1 with a message on stderr. */
int tls_load_or_create(const char *cert_path, const char *key_path, int create_if_missing,
                       const char *extra_host, char **cert, char **key);

/* Is this a GnuTLS priority string GnuTLS accepts? 0, or -1 with a message. */
int tls_priority_check(const char *priorities);

/* Reads a whole file; NULL on failure. */
char *read_file(const char *path, size_t *len);

#endif
