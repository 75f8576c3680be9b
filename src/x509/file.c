/* file.c — see x509.h: the self-signed certificate and the private
 * key files. */
#include <errno.h>
#include <fcntl.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dnsname.h"
#include "x509/x509.h"

static char *dup_datum(const gnutls_datum_t *d)
{
    char *s = malloc(d->size + 1);
    if (s) {
        memcpy(s, d->data, d->size);
        s[d->size] = '\0';
    }
    return s;
}

int cert_self_signed(const char *dns_name, time_t now, char **pem_cert, char **pem_key,
                     char err[CERT_ERR_MAX])
{
    char name[DNS_NAME_MAX + 1], why[DNS_WHY_MAX];
    gnutls_x509_privkey_t key = NULL;
    gnutls_x509_crt_t crt = NULL;
    gnutls_datum_t kpem = {NULL, 0}, cpem = {NULL, 0};
    unsigned char serial[16], kid[64];
    size_t kid_len = sizeof kid;
    int rc = CERT_INTERNAL;
    *pem_cert = *pem_key = NULL;
    err[0] = '\0';
    if (!dns_name || zone_name_normalise(dns_name, name, why) != 0) {
        snprintf(err, CERT_ERR_MAX, "domain: %s", dns_name ? why : "is required");
        return CERT_REFUSED;
    }
    if (gnutls_x509_privkey_init(&key) < 0 ||
        gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1),
                                     0) < 0 ||
        gnutls_x509_crt_init(&crt) < 0 || gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof serial) < 0)
        goto out;
    serial[0] = (unsigned char)((serial[0] & 0x7f) | 0x40); /* positive, and 16 bytes long */
    if (gnutls_x509_crt_set_version(crt, 3) < 0 ||
        gnutls_x509_crt_set_serial(crt, serial, sizeof serial) < 0 ||
        gnutls_x509_crt_set_activation_time(crt, now - 3600) < 0 ||
        gnutls_x509_crt_set_expiration_time(crt, now + (time_t)CERT_SELF_SIGNED_DAYS * 24 * 3600) < 0 ||
        gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, name, (unsigned)strlen(name)) <
            0 ||
        gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, name, (unsigned)strlen(name),
                                             GNUTLS_FSAN_SET) < 0 ||
        gnutls_x509_crt_set_basic_constraints(crt, 0, -1) < 0 ||
        gnutls_x509_crt_set_key_usage(crt, GNUTLS_KEY_DIGITAL_SIGNATURE) < 0 ||
        gnutls_x509_crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 1) < 0 ||
        gnutls_x509_crt_set_key(crt, key) < 0 || gnutls_x509_crt_get_key_id(crt, 0, kid, &kid_len) < 0 ||
        gnutls_x509_crt_set_subject_key_id(crt, kid, kid_len) < 0 ||
        gnutls_x509_crt_sign2(crt, crt, key, GNUTLS_DIG_SHA256, 0) < 0 ||
        gnutls_x509_privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, &kpem) < 0 ||
        gnutls_x509_crt_export2(crt, GNUTLS_X509_FMT_PEM, &cpem) < 0)
        goto out;
    *pem_cert = dup_datum(&cpem);
    *pem_key = dup_datum(&kpem);
    if (*pem_cert && *pem_key) {
        rc = CERT_OK;
    } else {
        free(*pem_cert);
        cert_secret_free(*pem_key);
        *pem_cert = *pem_key = NULL;
    }
out:
    if (rc != CERT_OK && !err[0])
        snprintf(err, CERT_ERR_MAX, "use_self_sign: the self-signed certificate could not be made");
    if (kpem.data)
        gnutls_memset(kpem.data, 0, kpem.size);
    gnutls_free(kpem.data);
    gnutls_free(cpem.data);
    if (crt)
        gnutls_x509_crt_deinit(crt);
    if (key)
        gnutls_x509_privkey_deinit(key);
    return rc;
}

/* ---- key files ------------------------------------------------------ */

static bool id_ok(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n > 64)
        return false;
    return strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

static int fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

static int key_path(char *out, size_t size, const char *dir, const char *id, const char *suffix)
{
    if (!dir || !id_ok(id)) {
        errno = EINVAL;
        return -1;
    }
    int n = snprintf(out, size, "%s/%s%s", dir, id, suffix);
    if (n < 0 || (size_t)n >= size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

int cert_key_store(const char *dir, const char *id, const char *pem)
{
    char path[4096], tmp[4096 + 32];
    if (!pem || key_path(path, sizeof path, dir, id, ".key") != 0 ||
        key_path(tmp, sizeof tmp, dir, id, ".key.tmp") != 0) {
        if (!pem)
            errno = EINVAL;
        return -1;
    }
    size_t len = strlen(pem);
    if (len > CERT_FILE_MAX) {
        errno = EFBIG;
        return -1;
    }
    /* A temporary file left by a crash is ours to replace. */
    if (unlink(tmp) != 0 && errno != ENOENT)
        return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int rc = fchmod(fd, 0600); /* whatever the umask */
    for (size_t done = 0; rc == 0 && done < len;) {
        ssize_t w = write(fd, pem + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        done += (size_t)w;
    }
    if (rc == 0)
        rc = fsync(fd);
    int saved = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        unlink(tmp);
        errno = saved;
        return -1;
    }
    return fsync_dir(dir);
}

int cert_key_load(const char *dir, const char *id, char **pem)
{
    char path[4096];
    *pem = NULL;
    if (key_path(path, sizeof path, dir, id, ".key") != 0)
        return -1;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char *buf = malloc(CERT_FILE_MAX + 1);
    size_t len = 0;
    int rc = buf ? 0 : -1, saved = ENOMEM;
    while (rc == 0) {
        ssize_t r = read(fd, buf + len, CERT_FILE_MAX + 1 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = -1;
            saved = errno;
        } else if (r == 0) {
            break;
        } else if ((len += (size_t)r) > CERT_FILE_MAX) {
            rc = -1;
            saved = EFBIG;
        }
    }
    close(fd);
    if (rc != 0) {
        if (buf) {
            gnutls_memset(buf, 0, len);
            free(buf);
        }
        errno = saved;
        return -1;
    }
    buf[len] = '\0';
    *pem = buf;
    return 0;
}

int cert_key_remove(const char *dir, const char *id)
{
    char path[4096];
    if (key_path(path, sizeof path, dir, id, ".key") != 0 || unlink(path) != 0)
        return -1;
    return fsync_dir(dir);
}
