/* name.c — see x509.h: does a certificate cover a host name
 * (RFC 6125 section 6.4, with the wildcard rules of 6.4.3 narrowed). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/dnsname.h"
#include "x509/x509.h"

/* An identifier the certificate presents, compared with the canonical
 * reference name `ref` (lowercase A-labels, no trailing dot). `ref_wild`:
 * ref itself is a wildcard name, which only the same wildcard covers. */
static bool id_matches(const char *id, const char *ref, bool ref_wild)
{
    size_t n = strlen(id);
    if (n > 0 && id[n - 1] == '.')
        n--; /* "example.com." presents the same name */
    if (n == 0 || n > DNS_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)id[i] <= 0x20 || (unsigned char)id[i] >= 0x7f)
            return false;
    const char *star = memchr(id, '*', n);
    if (!star || ref_wild)
        return strlen(ref) == n && strncasecmp(id, ref, n) == 0;
    /* The only wildcard taken: "*" as the whole left-most label, followed
     * by at least two labels, and no other "*" anywhere. */
    if (star != id || n < 2 || id[1] != '.' || memchr(id + 1, '*', n - 1))
        return false;
    const char *rest = id + 2;
    size_t rest_n = n - 2;
    const char *dot = memchr(rest, '.', rest_n);
    if (rest_n == 0 || !dot || dot == rest || dot + 1 == rest + rest_n || memmem(rest, rest_n, "..", 2))
        return false;
    /* the wildcard stands for exactly one non-empty label of ref */
    const char *ref_dot = strchr(ref, '.');
    if (!ref_dot || ref_dot == ref)
        return false;
    return strlen(ref_dot + 1) == rest_n && strncasecmp(ref_dot + 1, rest, rest_n) == 0;
}

bool cert_covers_name(const struct cert_bundle *b, const char *dns_name)
{
    if (!b || !dns_name)
        return false;
    char canon[DNS_NAME_MAX + 1], why[DNS_WHY_MAX], ref[DNS_NAME_MAX + 3];
    bool ref_wild = strncmp(dns_name, "*.", 2) == 0;
    if (zone_name_normalise(dns_name + (ref_wild ? 2 : 0), canon, why) != 0)
        return false;
    snprintf(ref, sizeof ref, "%s%s", ref_wild ? "*." : "", canon);
    if (b->n_alt_names > 0) {
        for (size_t i = 0; i < b->n_alt_names; i++)
            if (id_matches(b->alt_names[i], ref, ref_wild))
                return true;
        return false;
    }
    /* the CN counts only when the certificate presents no SAN dNSName */
    return b->subject_cn && id_matches(b->subject_cn, ref, ref_wild);
}
