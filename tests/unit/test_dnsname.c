/* test_dnsname.c — zone and TSIG key names, base64 (base/dnsname.h). */
#include "base/dnsname.h"
#include "unit/unit.h"

static const char *zone(const char *in)
{
    static char out[DNS_NAME_MAX + 1], why[DNS_WHY_MAX];
    return zone_name_normalise(in, out, why) == 0 ? out : NULL;
}

static const char *zone_why(const char *in)
{
    static char out[DNS_NAME_MAX + 1], why[DNS_WHY_MAX];
    return zone_name_normalise(in, out, why) == 0 ? "(accepted)" : why;
}

TEST(canonical_form)
{
    CHECK_STR(zone("example.com"), "example.com");
    CHECK_STR(zone("Example.COM."), "example.com");
    CHECK_STR(zone("Bücher.example"), "xn--bcher-kva.example");
    CHECK_STR(zone("XN--BCHER-KVA.example"), "xn--bcher-kva.example");
    CHECK_STR(zone("例え.テスト"), "xn--r8jz45g.xn--zckzah");
    CHECK_STR(zone("ｅｘａｍｐｌｅ.com"), "example.com");                /* UTS #46 width mapping */
    CHECK_STR(zone("straße.de"), "xn--strae-oqa.de");                    /* non-transitional */
    CHECK_STR(zone("1.168.192.in-addr.arpa"), "1.168.192.in-addr.arpa"); /* digits fine below the top */
    CHECK_STR(zone("a-b.c-d.example"), "a-b.c-d.example");
}

TEST(refused_names)
{
    CHECK_STR(zone_why(""), "must be a domain name, not empty or the root");
    CHECK_STR(zone_why("."), "must be a domain name, not empty or the root");
    CHECK_STR(zone_why("com"), "must have at least two labels (a zone below a top-level domain)");
    CHECK_STR(zone_why("a..b"), "must not have an empty label");
    CHECK_STR(zone_why(".a.b"), "must not have an empty label");
    CHECK_STR(zone_why("a.b.."), "must not have an empty label");
    CHECK_STR(zone_why("-a.example"), "must not have a label that starts or ends with a hyphen");
    CHECK_STR(zone_why("a-.example"), "must not have a label that starts or ends with a hyphen");
    CHECK_STR(zone_why("a_b.example"), "must have labels of letters, digits and hyphens only");
    CHECK_STR(zone_why("a b.example"), "must have labels of letters, digits and hyphens only");
    CHECK_STR(zone_why("192.0.2.1"), "must not end in an all-numeric label (it would read as an address)");
    CHECK_STR(zone_why("xn--abc.example"), "must not have an xn-- label that is not valid Punycode");
    CHECK_STR(zone_why("ab--cd.example"),
              "must not have '--' as the third and fourth characters of a label (kept for Punycode)");
    CHECK(zone("☃.example") == NULL);
    CHECK(zone("a\xe2\x80\x8d"
               "b.example") == NULL); /* zero-width joiner out of context */
}

TEST(lengths)
{
    char label63[64], name[400];
    memset(label63, 'a', 63);
    label63[63] = '\0';
    snprintf(name, sizeof name, "%s.example", label63);
    CHECK(zone(name) != NULL);
    snprintf(name, sizeof name, "a%s.example", label63);
    CHECK_STR(zone_why(name), "must have labels of at most 63 characters");
    /* 253 characters is the longest name; 254 is one too many */
    snprintf(name, sizeof name, "%s.%s.%s.%.53s.example", label63, label63, label63, label63);
    CHECK_INT(strlen(name), 253);
    CHECK(zone(name) != NULL);
    snprintf(name, sizeof name, "%s.%s.%s.%.54s.example", label63, label63, label63, label63);
    CHECK(zone(name) == NULL);
}

TEST(key_names)
{
    char out[DNS_NAME_MAX + 1], why[DNS_WHY_MAX];
    CHECK_INT(key_name_normalise("Transfer-Key.", out, why), 0);
    CHECK_STR(out, "transfer-key");
    CHECK_INT(key_name_normalise("tsig_key.example.com", out, why), 0);
    CHECK_STR(out, "tsig_key.example.com");
    CHECK_INT(key_name_normalise("bad key", out, why), -1);
    CHECK_STR(why, "must have labels of letters, digits, hyphens and underscores only");
    CHECK_INT(key_name_normalise("a..b", out, why), -1);
    CHECK_INT(key_name_normalise("\"quoted\"", out, why), -1); /* nothing that could break the YAML */
    CHECK_INT(key_name_normalise("bücher", out, why), -1);
}

TEST(base64)
{
    CHECK_INT(base64_decoded_length("c2VjcmV0"), 6);
    CHECK_INT(base64_decoded_length("c2VjcmV0cw=="), 7);
    CHECK_INT(base64_decoded_length("c2VjcmV0c2U="), 8);
    CHECK_INT(base64_decoded_length("+/+/"), 3);
    CHECK_INT(base64_decoded_length(""), -1);
    CHECK_INT(base64_decoded_length("c2VjcmV"), -1);      /* not a multiple of 4 */
    CHECK_INT(base64_decoded_length("c2Vj cmV0"), -1);    /* space */
    CHECK_INT(base64_decoded_length("c2VjcmV0c2V="), -1); /* padding over non-zero bits */
    CHECK_INT(base64_decoded_length("c2Vj=mV0"), -1);     /* padding inside */
    CHECK_INT(base64_decoded_length("===="), -1);
    CHECK_INT(base64_decoded_length("c2-_"), -1); /* the URL alphabet is not taken */
}

UNIT_MAIN(UNIT_CASE(canonical_form), UNIT_CASE(refused_names), UNIT_CASE(lengths), UNIT_CASE(key_names),
          UNIT_CASE(base64))
