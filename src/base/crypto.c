/* crypto.c — see crypto.h. GnuTLS is linked through libmicrohttpd anyway. */
#include "base/crypto.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void to_hex(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

void random_hex(char *out, size_t nbytes)
{
    unsigned char buf[64];
    if (nbytes > sizeof buf || gnutls_rnd(GNUTLS_RND_KEY, buf, nbytes) != 0)
        abort(); /* no randomness: never hand out a guessable secret */
    to_hex(buf, nbytes, out);
}

long long random_id53(void)
{
    uint64_t v = 0;
    while (v == 0) {
        if (gnutls_rnd(GNUTLS_RND_NONCE, &v, sizeof v) != 0)
            abort();
        v >>= 11;
    }
    return (long long)v;
}

void sha256_hex(const char *in, char out[65])
{
    unsigned char digest[32];
    if (gnutls_hash_fast(GNUTLS_DIG_SHA256, in, strlen(in), digest) != 0)
        abort();
    to_hex(digest, sizeof digest, out);
}

bool ct_streq(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la != lb)
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < la; i++)
        diff |= (unsigned char)a[i] ^ (unsigned char)b[i];
    return diff == 0;
}
