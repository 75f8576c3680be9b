/* dnsname.c — see dnsname.h. */
#include "base/dnsname.h"

#include <idn2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int refuse(char why[DNS_WHY_MAX], const char *rule)
{
    snprintf(why, DNS_WHY_MAX, "%s", rule);
    return -1;
}

/* Copies `in` without its one optional trailing dot; refuses empty names,
 * empty labels and over-long input before anything else looks at it. */
static int strip_root_dot(const char *in, char *out, size_t size, char why[DNS_WHY_MAX])
{
    size_t n = strlen(in);
    if (n > 0 && in[n - 1] == '.')
        n--;
    if (n == 0)
        return refuse(why, "must be a domain name, not empty or the root");
    if (n >= size)
        return refuse(why, "must be at most 253 characters");
    memcpy(out, in, n);
    out[n] = '\0';
    if (out[0] == '.' || strstr(out, ".."))
        return refuse(why, "must not have an empty label");
    return 0;
}

/* The LDH rules on an ASCII name (after any Punycode conversion). */
static int check_labels(const char *name, const char *extra_chars, int min_labels, char why[DNS_WHY_MAX])
{
    if (strlen(name) > DNS_NAME_MAX)
        return refuse(why, "must be at most 253 characters");
    int labels = 0;
    const char *label = name;
    for (;;) {
        size_t len = strcspn(label, ".");
        if (len == 0)
            return refuse(why, "must not have an empty label");
        if (len > DNS_LABEL_MAX)
            return refuse(why, "must have labels of at most 63 characters");
        for (size_t i = 0; i < len; i++) {
            char c = label[i];
            bool ok =
                (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || (c && strchr(extra_chars, c));
            if (!ok) {
                snprintf(why, DNS_WHY_MAX, "must have labels of letters, digits%s only",
                         *extra_chars ? ", hyphens and underscores" : " and hyphens");
                return -1;
            }
        }
        if (label[0] == '-' || label[len - 1] == '-')
            return refuse(why, "must not have a label that starts or ends with a hyphen");
        labels++;
        if (!label[len])
            break;
        label += len + 1;
    }
    if (labels < min_labels)
        return refuse(why, "must have at least two labels (a zone below a top-level domain)");
    return 0;
}

static void lowercase(char *s)
{
    for (; *s; s++)
        if (*s >= 'A' && *s <= 'Z')
            *s = (char)(*s - 'A' + 'a');
}

/* The reason libidn2 refused a name, in the API's words. */
static void idn_refusal(int rc, char why[DNS_WHY_MAX])
{
    switch (rc) {
    case IDN2_2HYPHEN:
        refuse(why, "must not have '--' as the third and fourth characters of a label (kept for Punycode)");
        break;
    case IDN2_HYPHEN_STARTEND: refuse(why, "must not have a label that starts or ends with a hyphen"); break;
    case IDN2_TOO_BIG_LABEL: refuse(why, "must have labels of at most 63 characters"); break;
    case IDN2_TOO_BIG_DOMAIN: refuse(why, "must be at most 253 characters"); break;
    case IDN2_PUNYCODE_BAD_INPUT:
    case IDN2_PUNYCODE_BIG_OUTPUT:
    case IDN2_PUNYCODE_OVERFLOW:
    case IDN2_INVALID_NONTRANSITIONAL:
    case IDN2_ALABEL_ROUNDTRIP_FAILED:
        refuse(why, "must not have an xn-- label that is not valid Punycode");
        break;
    default:
        snprintf(why, DNS_WHY_MAX, "must be a valid internationalised domain name (IDNA2008: %s)",
                 idn2_strerror(rc));
        break;
    }
}

int zone_name_normalise(const char *in, char out[DNS_NAME_MAX + 1], char why[DNS_WHY_MAX])
{
    /* Unicode input may take up to 4 bytes a character before conversion. */
    char bare[4 * DNS_NAME_MAX + 1];
    if (strip_root_dot(in, bare, sizeof bare, why) != 0)
        return -1;
    char *ascii = NULL;
    int rc = idn2_to_ascii_8z(bare, &ascii, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
    if (rc != IDN2_OK) {
        idn_refusal(rc, why);
        return -1;
    }
    lowercase(ascii); /* idn2 maps case in Unicode labels; ASCII ones may pass through */
    rc = check_labels(ascii, "", 2, why);
    const char *tld = strrchr(ascii, '.');
    if (rc == 0 && tld && strspn(tld + 1, "0123456789") == strlen(tld + 1))
        rc = refuse(why, "must not end in an all-numeric label (it would read as an address)");
    if (rc == 0)
        snprintf(out, DNS_NAME_MAX + 1, "%s", ascii);
    free(ascii);
    return rc;
}

int key_name_normalise(const char *in, char out[DNS_NAME_MAX + 1], char why[DNS_WHY_MAX])
{
    char bare[DNS_NAME_MAX + 1];
    if (strip_root_dot(in, bare, sizeof bare, why) != 0)
        return -1;
    lowercase(bare);
    if (check_labels(bare, "_", 1, why) != 0)
        return -1;
    memcpy(out, bare, strlen(bare) + 1);
    return 0;
}

static int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

long base64_decoded_length(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n % 4 != 0)
        return -1;
    size_t pad = s[n - 1] == '=' ? (s[n - 2] == '=' ? 2 : 1) : 0;
    for (size_t i = 0; i < n - pad; i++)
        if (base64_value(s[i]) < 0)
            return -1;
    /* The bits the padding leaves unused must be zero (canonical form). */
    int last = base64_value(s[n - pad - 1]);
    if ((pad == 1 && (last & 0x3)) || (pad == 2 && (last & 0xF)))
        return -1;
    return (long)(n / 4 * 3 - pad);
}
