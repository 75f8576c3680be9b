/* test_cert.c — x509/x509.h against certificates and keys that certtool
 * (gnutls-bin) makes at run time in a temporary directory: a chain root →
 * intermediate → leaf, expired and not-yet-valid leaves, RSA PKCS#1 and
 * encrypted PKCS#8 keys; then the self-signed certificate and key files. */
#include "x509/x509.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

static char dir[] = "/tmp/parapet-test-cert-XXXXXX";
static bool ready;

/* Runs a shell command in dir; output goes to dir/log. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[2048], full[2400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "cd %s && (%s) </dev/null >>log 2>&1", dir, cmd);
    int rc = system(full);
    if (rc != 0)
        fprintf(stderr, "  command failed (%d): %s\n", rc, cmd);
    return rc;
}

/* A whole file of dir, NUL-terminated; *len gets its length. */
static char *slurp(const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* The named files of dir, concatenated (NULL-terminated list). */
static char *bundle_of(size_t *len, ...)
{
    va_list ap;
    va_start(ap, len);
    char *out = calloc(1, 1 << 20);
    size_t total = 0;
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;) {
        size_t n = 0;
        char *part = slurp(name, &n);
        if (!part) {
            fprintf(stderr, "  missing %s\n", name);
            continue;
        }
        memcpy(out + total, part, n);
        total += n;
        free(part);
    }
    va_end(ap);
    *len = total;
    return out;
}

static int tmpl(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

#define CA_DATES    "activation_date = \"2024-01-01 00:00:00\"\nexpiration_date = \"2040-01-01 00:00:00\"\n"
#define LEAF_DATES  "activation_date = \"2024-01-01 00:00:00\"\nexpiration_date = \"2035-06-15 12:34:56\"\n"
#define SERVER      "tls_www_server\nsigning_key\nencryption_key\n"
#define SIGN_BY_INT "--load-ca-certificate int.crt --load-ca-privkey int.key"
#define GEN_EC      "certtool --generate-privkey --key-type=ecdsa --no-text --outfile"

static bool setup(void)
{
    if (ready)
        return true;
    if (!mkdtemp(dir))
        return false;
    int rc = 0;
    rc |= tmpl("root.tmpl", "cn = Test Root CA\nca\ncert_signing_key\n" CA_DATES);
    rc |= tmpl("int.tmpl", "cn = Test Intermediate CA\no = Parapet Tests\nca\ncert_signing_key\n" CA_DATES);
    rc |= tmpl("leaf.tmpl", "cn = cn-only.example.net\nserial = 0x0a1b2c3d\ndns_name = shop.example.org\n"
                            "dns_name = *.Example.COM\n" SERVER LEAF_DATES);
    rc |= tmpl("expired.tmpl",
               "cn = old.example.org\ndns_name = old.example.org\n" SERVER
               "activation_date = \"2020-01-01 00:00:00\"\nexpiration_date = \"2021-01-01 00:00:00\"\n");
    rc |= tmpl("future.tmpl",
               "cn = new.example.org\ndns_name = new.example.org\n" SERVER
               "activation_date = \"2099-01-01 00:00:00\"\nexpiration_date = \"2100-01-01 00:00:00\"\n");
    rc |= tmpl("rsa.tmpl", "cn = rsa.example.org\ndns_name = rsa.example.org\n" SERVER LEAF_DATES);
    rc |= tmpl("legacy.tmpl", "cn = legacy.example.net\n" SERVER LEAF_DATES);
    rc |= tmpl("client.tmpl", "cn = client.example.org\ndns_name = client.example.org\ntls_www_client\n"
                              "signing_key\n" LEAF_DATES);
    rc |= tmpl("notca.tmpl", "cn = Not A CA\nsigning_key\n" SERVER CA_DATES);
    rc |= tmpl("under.tmpl", "cn = under.example.org\ndns_name = under.example.org\n" SERVER LEAF_DATES);
    if (rc != 0)
        return false;
    rc |= sh(GEN_EC " root.key");
    rc |=
        sh("certtool --generate-self-signed --load-privkey root.key --template root.tmpl --outfile root.crt");
    rc |= sh(GEN_EC " int.key");
    rc |= sh("certtool --generate-certificate --load-privkey int.key --template int.tmpl --outfile int.crt "
             "--load-ca-certificate root.crt --load-ca-privkey root.key");
    /* leaf key as plain PKCS#8 ("PRIVATE KEY"); an empty password means plain */
    rc |= sh(GEN_EC " leaf.sec1.key");
    rc |= sh("certtool --to-p8 --load-privkey leaf.sec1.key --outfile leaf.key");
    rc |= sh("certtool --to-p8 --load-privkey leaf.sec1.key --password=s3cret --outfile leaf.enc.key");
    rc |= sh("certtool --generate-certificate --load-privkey leaf.key --template leaf.tmpl --outfile "
             "leaf.crt " SIGN_BY_INT);
    rc |= sh("certtool --fingerprint --hash=sha256 --infile leaf.crt --outfile leaf.sha256");
    rc |= sh(GEN_EC " other.key");
    rc |= sh("certtool --generate-certificate --load-privkey other.key --template expired.tmpl --outfile "
             "expired.crt " SIGN_BY_INT);
    rc |= sh("certtool --generate-certificate --load-privkey other.key --template future.tmpl --outfile "
             "future.crt " SIGN_BY_INT);
    rc |= sh("certtool --generate-certificate --load-privkey other.key --template client.tmpl --outfile "
             "client.crt " SIGN_BY_INT);
    rc |= sh("certtool --generate-privkey --key-type=rsa --bits=2048 --no-text --outfile rsa.key");
    rc |= sh("certtool --generate-certificate --load-privkey rsa.key --template rsa.tmpl --outfile "
             "rsa.crt " SIGN_BY_INT);
    rc |= sh("certtool --generate-self-signed --load-privkey other.key --template legacy.tmpl --outfile "
             "legacy.crt");
    rc |= sh("certtool --generate-privkey --key-type=rsa --bits=1024 --no-text --outfile small.key");
    rc |= sh("certtool --generate-certificate --load-privkey small.key --template rsa.tmpl --outfile "
             "small.crt " SIGN_BY_INT);
    ready = rc == 0;
    return ready;
}

static void teardown(void)
{
    if (strncmp(dir, "/tmp/parapet-test-cert-", 23) == 0 && !strstr(dir, "XXXXXX"))
        sh("rm -rf %s", dir);
}

/* Parses the named files as one upload; returns the result and err. */
static int parse_files(const char *password, time_t now, struct cert_bundle **b, char err[CERT_ERR_MAX], ...)
{
    va_list ap;
    va_start(ap, err);
    char *out = calloc(1, 1 << 20);
    size_t total = 0;
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;) {
        size_t n = 0;
        char *part = slurp(name, &n);
        if (!part)
            continue;
        memcpy(out + total, part, n);
        total += n;
        free(part);
    }
    va_end(ap);
    int rc = cert_bundle_parse(out, total, password, now, b, err);
    free(out);
    return rc;
}

#define CHECK_REFUSED(rc, b, err, text)                                                                      \
    do {                                                                                                     \
        CHECK_INT(rc, CERT_REFUSED);                                                                         \
        CHECK(b == NULL);                                                                                    \
        if (!strstr(err, text)) {                                                                            \
            fprintf(stderr, "  %s:%d: err \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, err, text);            \
            unit_failed_checks++;                                                                            \
        }                                                                                                    \
    } while (0)

TEST(valid_chain_and_read_fields)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    time_t now = time(NULL);
    int rc = parse_files(NULL, now, &b, err, "leaf.crt", "int.crt", "root.crt", "leaf.key", NULL);
    CHECK_INT(rc, CERT_OK);
    if (!b) {
        fprintf(stderr, "  err: %s\n", err);
        return;
    }
    CHECK_STR(b->issued_to, "cn-only.example.net");
    CHECK_STR(b->issued_by, "Test Intermediate CA");
    CHECK(strstr(b->issuer_dn, "O=Parapet Tests") != NULL);
    CHECK_STR(b->subject_cn, "cn-only.example.net");
    CHECK_INT(b->n_alt_names, 2);
    if (b->n_alt_names == 2) {
        CHECK_STR(b->alt_names[0], "shop.example.org");
        CHECK_STR(b->alt_names[1], "*.example.com");
    }
    CHECK_STR(b->expires_time, "2035-06-15 12:34:56");
    CHECK_INT(b->not_after, 2065523696LL);
    CHECK_INT(b->not_before, 1704067200LL);
    CHECK_STR(b->serial, "0a1b2c3d");
    CHECK_STR(b->key_type, "ECDSA P-256");
    CHECK(!b->self_signed);
    char *fp = slurp("leaf.sha256", NULL);
    CHECK(fp && strncmp(fp, b->sha256, 64) == 0 && strlen(b->sha256) == 64);
    free(fp);
    /* stored form: leaf and intermediate (the root left out), and the key as PKCS#8 */
    CHECK_INT(b->n_chain, 2);
    char *chain = cert_chain_pem(b);
    CHECK(chain && strncmp(chain, "-----BEGIN CERTIFICATE-----\n", 28) == 0);
    CHECK(chain && !strstr(chain, "PRIVATE KEY"));
    CHECK(b->key_pem && strncmp(b->key_pem, "-----BEGIN PRIVATE KEY-----\n", 28) == 0);
    /* read back: the same leaf */
    struct cert_bundle *again = NULL;
    CHECK_INT(cert_chain_read(chain, chain ? strlen(chain) : 0, &again, err), CERT_OK);
    if (again) {
        CHECK_STR(again->sha256, b->sha256);
        CHECK_STR(again->expires_time, "2035-06-15 12:34:56");
        CHECK_INT(again->n_chain, 2);
        CHECK(again->key_pem == NULL);
        cert_bundle_free(again);
    }
    free(chain);
    cert_bundle_free(b);

    /* without the root, and with the key first, is the same upload */
    rc = parse_files(NULL, now, &b, err, "leaf.key", "leaf.crt", "int.crt", NULL);
    CHECK_INT(rc, CERT_OK);
    cert_bundle_free(b);
}

TEST(names_covered)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    CHECK_INT(parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.key", NULL), CERT_OK);
    if (!b)
        return;
    CHECK(cert_covers_name(b, "shop.example.org"));
    CHECK(cert_covers_name(b, "SHOP.Example.Org."));
    CHECK(!cert_covers_name(b, "example.org"));
    CHECK(!cert_covers_name(b, "www.shop.example.org"));
    CHECK(!cert_covers_name(b, "other.example.org"));
    /* the CN does not count when SAN dNSNames exist */
    CHECK(!cert_covers_name(b, "cn-only.example.net"));
    /* *.example.com: exactly one whole label */
    CHECK(cert_covers_name(b, "a.example.com"));
    CHECK(cert_covers_name(b, "WWW.example.com"));
    CHECK(cert_covers_name(b, "bücher.example.com")); /* compared as xn--bcher-kva */
    CHECK(cert_covers_name(b, "xn--bcher-kva.example.com"));
    CHECK(!cert_covers_name(b, "a.b.example.com"));
    CHECK(!cert_covers_name(b, "example.com"));
    CHECK(!cert_covers_name(b, "a.example.co"));
    CHECK(cert_covers_name(b, "*.example.com"));
    CHECK(!cert_covers_name(b, "*.shop.example.org"));
    CHECK(!cert_covers_name(b, ""));
    CHECK(!cert_covers_name(b, "exa mple.com"));
    cert_bundle_free(b);

    /* a certificate without SAN: its CN counts */
    CHECK_INT(parse_files(NULL, time(NULL), &b, err, "legacy.crt", "other.key", NULL), CERT_OK);
    if (b) {
        CHECK(b->self_signed);
        CHECK_INT(b->n_alt_names, 0);
        CHECK(cert_covers_name(b, "legacy.example.net"));
        CHECK(!cert_covers_name(b, "x.legacy.example.net"));
        cert_bundle_free(b);
    }
}

/* Hand-made identifiers, for the wildcard forms certtool would not refuse
 * either but that cert_covers_name must. */
TEST(wildcard_forms)
{
    char *names[1];
    struct cert_bundle b = {.alt_names = names, .n_alt_names = 1};
    static const struct {
        const char *id, *name;
        bool covered;
    } cases[] = {
        {"*.example.com", "a.example.com", true},
        {"*.example.com", "a.b.example.com", false},
        {"*.example.com", "example.com", false},
        {"*.com", "example.com", false},
        {"*", "com", false},
        {"f*.example.com", "foo.example.com", false},
        {"*oo.example.com", "foo.example.com", false},
        {"a.*.example.com", "a.b.example.com", false},
        {"*.*.example.com", "a.b.example.com", false},
        {"**.example.com", "a.example.com", false},
        {"*.example.com.", "a.example.com", true},
        {"*..example.com", "a.example.com", false},
        {"xn--*.example.com", "xn--bcher-kva.example.com", false},
        {"*.xn--bcher-kva.example", "www.bücher.example", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        names[0] = (char *)cases[i].id;
        if (cert_covers_name(&b, cases[i].name) != cases[i].covered) {
            fprintf(stderr, "  %s covers %s: want %d\n", cases[i].id, cases[i].name, cases[i].covered);
            unit_failed_checks++;
        }
    }
}

TEST(wrong_key_refused)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    int rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", "other.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_file: the private key does not match the certificate");
    rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.key", "other.key", NULL);
    CHECK_REFUSED(rc, b, err, "more than one private key");
    rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", NULL);
    CHECK_REFUSED(rc, b, err, "cert_file: holds no private key");
    rc = parse_files(NULL, time(NULL), &b, err, "leaf.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_file: holds no certificate");
}

TEST(validity_period)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    int rc = parse_files(NULL, time(NULL), &b, err, "expired.crt", "int.crt", "other.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_file: the certificate expired on 2021-01-01 00:00:00 UTC");
    rc = parse_files(NULL, time(NULL), &b, err, "future.crt", "int.crt", "other.key", NULL);
    CHECK_REFUSED(rc, b, err,
                  "cert_file: the certificate is not valid yet (valid from 2099-01-01 00:00:00 UTC)");
    /* the same chain is judged at `now`: the good leaf past its end, and
     * the expired one while it was valid */
    rc = parse_files(NULL, 2065523697, &b, err, "leaf.crt", "int.crt", "leaf.key", NULL);
    CHECK_REFUSED(rc, b, err, "expired on 2035-06-15 12:34:56 UTC");
    rc = parse_files(NULL, 1600000000, &b, err, "expired.crt", "int.crt", "other.key", NULL);
    CHECK_REFUSED(rc, b, err, "certificate 2 of the chain (Test Intermediate CA) is not valid yet");
    rc = parse_files(NULL, 1704067200, &b, err, "leaf.crt", "int.crt", "leaf.key", NULL);
    CHECK_INT(rc, CERT_OK);
    cert_bundle_free(b);
}

TEST(encrypted_pkcs8_key)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    int rc = parse_files("s3cret", time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.enc.key", NULL);
    CHECK_INT(rc, CERT_OK);
    if (b) {
        /* stored decrypted, as PKCS#8 */
        CHECK(b->key_pem && strncmp(b->key_pem, "-----BEGIN PRIVATE KEY-----\n", 28) == 0);
        cert_bundle_free(b);
    } else {
        fprintf(stderr, "  err: %s\n", err);
    }
    rc = parse_files("wrong", time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.enc.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_pwd: does not open the encrypted private key");
    rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.enc.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_pwd: is required");
    rc = parse_files("", time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.enc.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_pwd: is required");
}

TEST(pkcs1_and_sec1_keys)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    char *key = slurp("rsa.key", NULL);
    CHECK(key && strstr(key, "-----BEGIN RSA PRIVATE KEY-----")); /* PKCS#1 really */
    free(key);
    int rc = parse_files(NULL, time(NULL), &b, err, "rsa.crt", "int.crt", "rsa.key", NULL);
    CHECK_INT(rc, CERT_OK);
    if (b) {
        CHECK_STR(b->key_type, "RSA 2048");
        CHECK(cert_covers_name(b, "rsa.example.org"));
        CHECK(b->key_pem && strncmp(b->key_pem, "-----BEGIN PRIVATE KEY-----\n", 28) == 0);
        cert_bundle_free(b);
    }
    key = slurp("leaf.sec1.key", NULL);
    CHECK(key && strstr(key, "-----BEGIN EC PRIVATE KEY-----"));
    free(key);
    rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.sec1.key", NULL);
    CHECK_INT(rc, CERT_OK);
    cert_bundle_free(b);
    CHECK(sh("certtool --generate-privkey --key-type=ed25519 --no-text --outfile ed.key") == 0);
    CHECK(sh("certtool --generate-certificate --load-privkey ed.key --template rsa.tmpl --outfile "
             "ed.crt " SIGN_BY_INT) == 0);
    rc = parse_files(NULL, time(NULL), &b, err, "ed.crt", "int.crt", "ed.key", NULL);
    CHECK_INT(rc, CERT_OK);
    if (b) {
        CHECK_STR(b->key_type, "Ed25519");
        cert_bundle_free(b);
    }
    rc = parse_files(NULL, time(NULL), &b, err, "small.crt", "int.crt", "small.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_file: the RSA key has 1024 bits; 2048 to 8192 are taken");
}

TEST(chain_order)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    int rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "root.crt", "int.crt", "leaf.key", NULL);
    CHECK_REFUSED(rc, b, err,
                  "cert_file: the chain is out of order or broken: certificate 1 (cn-only.example.net) "
                  "was not issued by certificate 2 (Test Root CA)");
    rc = parse_files(NULL, time(NULL), &b, err, "root.crt", "int.crt", "leaf.crt", "leaf.key", NULL);
    CHECK_REFUSED(rc, b, err, "the certificate of the private key must come first");
    /* an intermediate that is not the leaf's issuer */
    rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "legacy.crt", "leaf.key", NULL);
    CHECK_REFUSED(rc, b, err, "out of order or broken");
    /* a client certificate is not for a TLS server */
    rc = parse_files(NULL, time(NULL), &b, err, "client.crt", "int.crt", "other.key", NULL);
    CHECK_REFUSED(rc, b, err, "extended key usage does not allow TLS servers");
}

TEST(forged_signature_refused)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    /* An intermediate with the same name but another key: GnuTLS tells it
     * apart by its key identifier already. */
    CHECK(sh(GEN_EC " fake.key") == 0);
    CHECK(sh("certtool --generate-self-signed --load-privkey fake.key --template int.tmpl --outfile "
             "fake.crt") == 0);
    int rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "fake.crt", "leaf.key", NULL);
    CHECK_REFUSED(rc, b, err,
                  "out of order or broken: certificate 1 (cn-only.example.net) was not issued by");
    /* The leaf's signature altered: names and key ids match, the signature
     * does not verify. */
    size_t len = 0;
    char *pem = bundle_of(&len, "leaf.crt", NULL);
    char *end = strstr(pem, "\n-----END CERTIFICATE-----");
    CHECK(end != NULL);
    if (end) {
        char *c = end - 8; /* inside the signature value, before any padding */
        *c = *c == 'A' ? 'B' : 'A';
        FILE *f = NULL;
        char path[256];
        snprintf(path, sizeof path, "%s/altered.crt", dir);
        if ((f = fopen(path, "w")) != NULL) {
            fwrite(pem, 1, len, f);
            fclose(f);
        }
        rc = parse_files(NULL, time(NULL), &b, err, "altered.crt", "int.crt", "leaf.key", NULL);
        CHECK_REFUSED(rc, b, err,
                      "cert_file: the signature of certificate 1 does not verify with the key of "
                      "certificate 2 (Test Intermediate CA)");
    }
    free(pem);
    /* Issued by a certificate that is not a CA. */
    CHECK(sh("certtool --generate-self-signed --load-privkey other.key --template notca.tmpl --outfile "
             "notca.crt") == 0);
    CHECK(sh("certtool --generate-certificate --load-privkey leaf.key --template under.tmpl --outfile "
             "under.crt "
             "--load-ca-certificate notca.crt --load-ca-privkey other.key") == 0);
    rc = parse_files(NULL, time(NULL), &b, err, "under.crt", "notca.crt", "leaf.key", NULL);
    CHECK_REFUSED(rc, b, err, "cert_file: certificate 2 of the chain (Not A CA) is not a CA");
}

TEST(garbled_and_oversize)
{
    CHECK(setup());
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    static const char *cases[][2] = {
        {"hello, world\n", "cert_file: must be PEM"},
        {"-----BEGIN CERTIFICATE-----\nMIIBIjAN\n-----END CERTIFICATE-----\n",
         "certificate 1 is not a valid"},
        {"-----BEGIN CERTIFICATE-----\nMIIB\n", "has no END line"},
        {"-----BEGIN CERTIFICATE\n", "broken -----BEGIN line"},
        {"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
         "unexpected PEM block"},
        {"-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n",
         "the private key (PRIVATE KEY) cannot"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = cert_bundle_parse(cases[i][0], strlen(cases[i][0]), NULL, time(NULL), &b, err);
        CHECK_REFUSED(rc, b, err, cases[i][1]);
    }
    int rc = cert_bundle_parse("", 0, NULL, time(NULL), &b, err);
    CHECK_REFUSED(rc, b, err, "cert_file: is empty");
    rc = cert_chain_read("junk", 4, &b, err);
    CHECK_REFUSED(rc, b, err, "cert_file: must be PEM");
    rc = cert_bundle_parse("a\0b", 3, NULL, time(NULL), &b, err);
    CHECK_REFUSED(rc, b, err, "NUL bytes");

    size_t len = 0;
    char *big = bundle_of(&len, "leaf.crt", "int.crt", "leaf.key", NULL);
    memset(big + len, '\n', CERT_FILE_MAX + 1 - len);
    rc = cert_bundle_parse(big, CERT_FILE_MAX, NULL, time(NULL), &b, err);
    CHECK_INT(rc, CERT_OK); /* exactly the limit */
    cert_bundle_free(b);
    rc = cert_bundle_parse(big, CERT_FILE_MAX + 1, NULL, time(NULL), &b, err);
    CHECK_REFUSED(rc, b, err, "cert_file: must be at most 64 KiB");
    free(big);

    char *nine = bundle_of(&len, "leaf.crt", "int.crt", "int.crt", "int.crt", "int.crt", "int.crt", "int.crt",
                           "int.crt", "int.crt", "leaf.key", NULL);
    rc = cert_bundle_parse(nine, len, NULL, time(NULL), &b, err);
    CHECK_REFUSED(rc, b, err, "cert_file: holds more than 8 certificates");
    free(nine);
}

TEST(public_key_block)
{
    CHECK(setup());
    CHECK(sh("certtool --pubkey-info --load-privkey leaf.key --outfile leaf.pub") == 0);
    CHECK(sh("certtool --pubkey-info --load-privkey other.key --outfile other.pub") == 0);
    struct cert_bundle *b = NULL;
    char err[CERT_ERR_MAX];
    int rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.key", "leaf.pub", NULL);
    CHECK_INT(rc, CERT_OK);
    cert_bundle_free(b);
    rc = parse_files(NULL, time(NULL), &b, err, "leaf.crt", "int.crt", "leaf.key", "other.pub", NULL);
    CHECK_REFUSED(rc, b, err, "cert_file: the public key does not match the private key");
}

TEST(self_signed_round_trip)
{
    char *crt = NULL, *key = NULL, err[CERT_ERR_MAX];
    time_t now = time(NULL);
    CHECK_INT(cert_self_signed("Bücher.Example", now, &crt, &key, err), CERT_OK);
    if (!crt || !key)
        return;
    CHECK(strncmp(key, "-----BEGIN PRIVATE KEY-----\n", 28) == 0);
    size_t n1 = strlen(crt), n2 = strlen(key);
    char *both = malloc(n1 + n2 + 1);
    memcpy(both, crt, n1);
    memcpy(both + n1, key, n2 + 1);
    struct cert_bundle *b = NULL;
    CHECK_INT(cert_bundle_parse(both, n1 + n2, NULL, now, &b, err), CERT_OK);
    if (b) {
        CHECK(b->self_signed);
        CHECK_STR(b->issued_to, "xn--bcher-kva.example");
        CHECK_STR(b->issued_by, "xn--bcher-kva.example");
        CHECK_INT(b->n_alt_names, 1);
        CHECK(cert_covers_name(b, "bücher.example"));
        CHECK(cert_covers_name(b, "xn--bcher-kva.example"));
        CHECK(!cert_covers_name(b, "www.xn--bcher-kva.example"));
        CHECK_INT(b->not_after - b->not_before, 90LL * 86400 + 3600);
        CHECK_INT(b->not_before, now - 3600);
        CHECK_STR(b->key_type, "ECDSA P-256");
        CHECK_INT(strlen(b->serial), 32);
        cert_bundle_free(b);
    }
    /* certtool reads it as a server certificate that is not a CA */
    if (setup()) {
        char path[256];
        snprintf(path, sizeof path, "%s/self.crt", dir);
        FILE *w = fopen(path, "w");
        if (w) {
            fputs(crt, w);
            fclose(w);
        }
        CHECK(sh("certtool -i --infile self.crt > self.txt") == 0);
        char *info = slurp("self.txt", NULL);
        CHECK(info && strstr(info, "Certificate Authority (CA): FALSE"));
        CHECK(info && strstr(info, "TLS WWW Server"));
        CHECK(info && strstr(info, "DNSname: xn--bcher-kva.example"));
        free(info);
    }
    free(both);
    free(crt);
    cert_secret_free(key);
    CHECK_INT(cert_self_signed("not a name", now, &crt, &key, err), CERT_REFUSED);
    CHECK(crt == NULL && key == NULL && strncmp(err, "domain: ", 8) == 0);
}

TEST(key_files)
{
    CHECK(setup());
    char kdir[300];
    snprintf(kdir, sizeof kdir, "%s/keys", dir);
    CHECK(mkdir(kdir, 0700) == 0);
    mode_t old = umask(0);
    CHECK_INT(cert_key_store(kdir, "0123abcd", "-----BEGIN PRIVATE KEY-----\none\n"), 0);
    umask(old);
    char path[400];
    snprintf(path, sizeof path, "%s/0123abcd.key", kdir);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    char *pem = NULL;
    CHECK_INT(cert_key_load(kdir, "0123abcd", &pem), 0);
    CHECK_STR(pem, "-----BEGIN PRIVATE KEY-----\none\n");
    cert_secret_free(pem);
    /* replaced whole; no temporary file stays */
    CHECK_INT(cert_key_store(kdir, "0123abcd", "two\n"), 0);
    CHECK_INT(cert_key_load(kdir, "0123abcd", &pem), 0);
    CHECK_STR(pem, "two\n");
    cert_secret_free(pem);
    snprintf(path, sizeof path, "%s/0123abcd.key.tmp", kdir);
    CHECK(access(path, F_OK) != 0);
    CHECK_INT(cert_key_remove(kdir, "0123abcd"), 0);
    errno = 0;
    CHECK_INT(cert_key_load(kdir, "0123abcd", &pem), -1);
    CHECK_INT(errno, ENOENT);
    CHECK(pem == NULL);
    CHECK_INT(cert_key_remove(kdir, "0123abcd"), -1);
    errno = 0;
    CHECK_INT(cert_key_store(kdir, "../escape", "x"), -1);
    CHECK_INT(errno, EINVAL);
    CHECK_INT(cert_key_store(kdir, "", "x"), -1);
    CHECK_INT(cert_key_load(kdir, "a/b", &pem), -1);
}

TEST(time_text)
{
    char t[CERT_TIME_LEN];
    cert_time_text(0, t);
    CHECK_STR(t, "1970-01-01 00:00:00");
    cert_time_text(2065523696LL, t);
    CHECK_STR(t, "2035-06-15 12:34:56");
    cert_time_text(253402300799LL + 10, t);
    CHECK_STR(t, "9999-12-31 23:59:59");
    cert_time_text(-40000000000LL, t);
    CHECK_STR(t, "1000-01-01 00:00:00");
}

TEST(cleanup)
{
    teardown();
}

UNIT_MAIN(UNIT_CASE(valid_chain_and_read_fields), UNIT_CASE(names_covered), UNIT_CASE(wildcard_forms),
          UNIT_CASE(wrong_key_refused), UNIT_CASE(validity_period), UNIT_CASE(encrypted_pkcs8_key),
          UNIT_CASE(pkcs1_and_sec1_keys), UNIT_CASE(chain_order), UNIT_CASE(forged_signature_refused),
          UNIT_CASE(garbled_and_oversize), UNIT_CASE(public_key_block), UNIT_CASE(self_signed_round_trip),
          UNIT_CASE(key_files), UNIT_CASE(time_text), UNIT_CASE(cleanup))
