/* dnsname.h — DNS names as the API takes them: zone names (which may be
 * internationalised, converted to Punycode with libidn2 per IDNA2008 and
 * UTS #46) and TSIG key names, both brought to one canonical form so that
 * lookups and uniqueness ignore letter case and a trailing dot. Also the
 * base64 check for TSIG secrets. Pure functions. */
#ifndef PARAPET_DNSNAME_H
#define PARAPET_DNSNAME_H

#include <stdbool.h>
#include <stddef.h>

enum {
    DNS_NAME_MAX = 253, /* characters of a name in text form, without the trailing dot */
    DNS_LABEL_MAX = 63,
    DNS_WHY_MAX = 160, /* room for the reason a name is refused */
};

/* Canonical zone name: lowercase ASCII (A-labels for internationalised
 * labels), no trailing dot, at least two labels of letters, digits and
 * hyphens, no label starting or ending with a hyphen, a top-level label
 * that is not all digits. `in` is UTF-8 as the client sent it (one trailing
 * dot allowed). Returns 0, or -1 with `why` holding the broken rule, phrased
 * to follow the field name ("must ..."). */
int zone_name_normalise(const char *in, char out[DNS_NAME_MAX + 1], char why[DNS_WHY_MAX]);

/* Canonical TSIG key name: a DNS name of ASCII letters, digits, hyphens and
 * underscores (one label is enough), lowercased, without the trailing dot. */
int key_name_normalise(const char *in, char out[DNS_NAME_MAX + 1], char why[DNS_WHY_MAX]);

/* Standard base64 (RFC 4648 section 4) with its padding: the number of bytes
 * it encodes, or -1 when it is not base64. */
long base64_decoded_length(const char *s);

#endif
