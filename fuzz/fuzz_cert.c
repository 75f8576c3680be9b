/* fuzz_cert.c — cert_bundle_parse on an uploaded cert_file (password "pw",
 * judged at 2026-01-01 00:00:00 UTC), then cert_chain_read on the chain it
 * would store. Invariants: a refusal names its field; an accepted bundle has
 * every read field, text safe for JSON, a PKCS#8 key, and a stored chain
 * that reads back as the same leaf. fuzz/seeds/fuzz_cert.sh adds real
 * bundles made by certtool to the corpus at run time. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "fuzz_assert.h"
#include "x509/x509.h"

static void check_text(const char *s)
{
    FUZZ_ASSERT(s != NULL);
    size_t n = strlen(s);
    FUZZ_ASSERT(utf8_valid(s, n));
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT((unsigned char)s[i] >= 0x20 && s[i] != 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cert_bundle *b = (struct cert_bundle *)1;
    char err[CERT_ERR_MAX];
    int rc = cert_bundle_parse((const char *)data, size, "pw", 1767225600, &b, err);
    if (rc != CERT_OK) {
        FUZZ_ASSERT(b == NULL && (rc == CERT_REFUSED || rc == CERT_INTERNAL));
        FUZZ_ASSERT(strncmp(err, "cert_file: ", 11) == 0 || strncmp(err, "cert_pwd: ", 10) == 0);
        FUZZ_ASSERT(strlen(err) < CERT_ERR_MAX);
        return 0;
    }
    FUZZ_ASSERT(b != NULL);
    check_text(b->issued_to);
    check_text(b->issued_by);
    check_text(b->subject_dn);
    check_text(b->issuer_dn);
    for (size_t i = 0; i < b->n_alt_names; i++)
        check_text(b->alt_names[i]);
    FUZZ_ASSERT(strlen(b->expires_time) == CERT_TIME_LEN - 1 && strlen(b->sha256) == 64);
    FUZZ_ASSERT(b->not_before <= 1767225600 && 1767225600 <= b->not_after);
    FUZZ_ASSERT(b->n_chain >= 1 && b->n_chain <= CERT_CHAIN_MAX);
    FUZZ_ASSERT(b->key_pem && strncmp(b->key_pem, "-----BEGIN PRIVATE KEY-----\n", 28) == 0);
    (void)cert_covers_name(b, "a.example.com");
    (void)cert_covers_name(b, "*.example.com");
    char *chain = cert_chain_pem(b);
    FUZZ_ASSERT(chain != NULL);
    struct cert_bundle *again = NULL;
    FUZZ_ASSERT(cert_chain_read(chain, strlen(chain), &again, err) == CERT_OK);
    FUZZ_ASSERT(strcmp(again->sha256, b->sha256) == 0 && again->n_chain == b->n_chain);
    FUZZ_ASSERT(strcmp(again->issued_to, b->issued_to) == 0 && again->key_pem == NULL);
    cert_bundle_free(again);
    free(chain);
    cert_bundle_free(b);
    return 0;
}
