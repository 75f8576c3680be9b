/* sign.c — see sign.h. */
#include "webhook/sign.h"

#include <gnutls/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int webhook_sign(const char *secret, int64_t t, const char *body, size_t len, char out[WEBHOOK_SIGNATURE_MAX])
{
    char stamp[24];
    int n = snprintf(stamp, sizeof stamp, "%lld.", (long long)t);
    gnutls_hmac_hd_t h;
    unsigned char mac[32];
    if (gnutls_hmac_init(&h, GNUTLS_MAC_SHA256, secret, strlen(secret)) != 0)
        return -1;
    int rc = gnutls_hmac(h, stamp, (size_t)n) | gnutls_hmac(h, body, len);
    gnutls_hmac_deinit(h, mac);
    if (rc != 0)
        return -1;
    int at = snprintf(out, WEBHOOK_SIGNATURE_MAX, "t=%lld,v1=", (long long)t);
    for (size_t i = 0; i < sizeof mac; i++)
        at += snprintf(out + at, WEBHOOK_SIGNATURE_MAX - (size_t)at, "%02x", mac[i]);
    return 0;
}
