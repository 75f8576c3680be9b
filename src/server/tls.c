/* tls.c — see tls.h. */
#include "server/tls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static int write_private(const char *path, const void *data, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, data, len);
    close(fd);
    return w == (ssize_t)len ? 0 : -1;
}

static void add_san(gnutls_x509_crt_t crt, const char *host)
{
    unsigned char ip[16];
    if (inet_pton(AF_INET, host, ip) == 1)
        gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_IPADDRESS, ip, 4, GNUTLS_FSAN_APPEND);
    else if (inet_pton(AF_INET6, host, ip) == 1)
        gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_IPADDRESS, ip, 16, GNUTLS_FSAN_APPEND);
    else
        gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, host, (unsigned)strlen(host),
                                             GNUTLS_FSAN_APPEND);
}

static int create_pair(const char *cert_path, const char *key_path, const char *extra_host)
{
    gnutls_x509_privkey_t key = NULL;
    gnutls_x509_crt_t crt = NULL;
    gnutls_datum_t kpem = {NULL, 0}, cpem = {NULL, 0};
    int rc = -1;
    unsigned char serial[16];
    time_t now = time(NULL);
    if (gnutls_x509_privkey_init(&key) < 0 ||
        gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1),
                                     0) < 0 ||
        gnutls_x509_crt_init(&crt) < 0 || gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof serial) < 0)
        goto out;
    serial[0] &= 0x7f; /* a positive serial number */
    gnutls_x509_crt_set_version(crt, 3);
    gnutls_x509_crt_set_serial(crt, serial, sizeof serial);
    gnutls_x509_crt_set_activation_time(crt, now - 3600);
    gnutls_x509_crt_set_expiration_time(crt, now - 3600 + 825L * 24 * 3600); /* the CA/B Forum's old cap */
    gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, "parapet (self-signed)", 21);
    add_san(crt, "localhost");
    add_san(crt, "127.0.0.1");
    add_san(crt, "::1");
    if (extra_host && *extra_host && strcmp(extra_host, "0.0.0.0") && strcmp(extra_host, "::"))
        add_san(crt, extra_host);
    gnutls_x509_crt_set_basic_constraints(crt, 0, -1);
    gnutls_x509_crt_set_key_usage(crt, GNUTLS_KEY_DIGITAL_SIGNATURE);
    gnutls_x509_crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 0);
    if (gnutls_x509_crt_set_key(crt, key) < 0 ||
        gnutls_x509_crt_sign2(crt, crt, key, GNUTLS_DIG_SHA256, 0) < 0 ||
        gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &kpem) < 0 ||
        gnutls_x509_crt_export2(crt, GNUTLS_X509_FMT_PEM, &cpem) < 0)
        goto out;
    if (write_private(key_path, kpem.data, kpem.size, 0600) != 0 ||
        write_private(cert_path, cpem.data, cpem.size, 0644) != 0) {
        fprintf(stderr, "parapet: cannot write %s / %s: %s\n", key_path, cert_path, strerror(errno));
        goto out;
    }
    fprintf(stderr, "parapet: created a self-signed certificate: %s\n", cert_path);
    rc = 0;
out:
    if (rc != 0)
        fprintf(stderr, "parapet: could not create a self-signed certificate\n");
    gnutls_free(kpem.data);
    gnutls_free(cpem.data);
    if (crt)
        gnutls_x509_crt_deinit(crt);
    if (key)
        gnutls_x509_privkey_deinit(key);
    return rc;
}

int tls_load_or_create(const char *cert_path, const char *key_path, int create_if_missing,
                       const char *extra_host, char **cert, char **key)
{
    if (create_if_missing && access(cert_path, F_OK) != 0 && access(key_path, F_OK) != 0 &&
        create_pair(cert_path, key_path, extra_host) != 0)
        return -1;
    *cert = read_file(cert_path, NULL);
    *key = read_file(key_path, NULL);
    if (!*cert || !*key) {
        fprintf(stderr, "parapet: cannot read the TLS certificate %s or key %s: %s\n", cert_path, key_path,
                strerror(errno));
        free(*cert);
        free(*key);
        return -1;
    }
    return 0;
}

int tls_priority_check(const char *priorities)
{
    gnutls_priority_t p;
    const char *err = NULL;
    int rc = gnutls_priority_init(&p, priorities, &err);
    if (rc != GNUTLS_E_SUCCESS) {
        fprintf(stderr, "parapet: --tls-priority: not a GnuTLS priority string GnuTLS accepts, at \"%s\" (%s)\n",
                err ? err : "", gnutls_strerror(rc));
        return -1;
    }
    gnutls_priority_deinit(p);
    return 0;
}
