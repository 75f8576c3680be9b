/* crypto.h — randomness, digests and constant-time comparison (GnuTLS). */
#ifndef PARAPET_CRYPTO_H
#define PARAPET_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>

/* Random bytes from the CSPRNG as lowercase hex: out gets 2*nbytes chars + NUL. */
void random_hex(char *out, size_t nbytes);
/* A random integer from 1 to 2^53 - 1 (exact in a JSON double): resource ids
 * the documents type as integers, which must not be guessable either. */
long long random_id53(void);
/* SHA-256 of a NUL-terminated string, as 64 lowercase hex chars + NUL. */
void sha256_hex(const char *in, char out[65]);
/* Compares two NUL-terminated strings in time that depends only on their lengths. */
bool ct_streq(const char *a, const char *b);

/* Lengths of the secrets we hand out, in random bytes (hex doubles them). */
enum {
    SECRET_BYTES = 32, /* app secrets, access and refresh tokens, codes, xspe */
    ID_BYTES = 8,      /* resource ids: 16 hex characters */
};

#endif
