/* test_url.c — base/url.h: parsing redirect URLs, the redirect host rule and
 * appending escaped query parameters. */
#include "base/url.h"

#include "unit.h"

/* The host url_parse finds (prefixed "s:" for https), or "ERR". */
static const char *host_of(const char *url)
{
    static char out[300];
    struct url_parts p;
    if (url_parse(url, &p) != 0)
        return "ERR";
    snprintf(out, sizeof out, "%s%s", p.https ? "s:" : "", p.host);
    return out;
}

TEST(parse_good)
{
    CHECK_STR(host_of("https://Example.COM/path?x=1"), "s:example.com");
    CHECK_STR(host_of("http://example.com"), "example.com");
    CHECK_STR(host_of("HTTPS://example.com"), "s:example.com");
    CHECK_STR(host_of("hTtP://example.com/"), "example.com");
    CHECK_STR(host_of("https://example.com:8443/cb"), "s:example.com");
    CHECK_STR(host_of("https://example.com?x=1"), "s:example.com");
    CHECK_STR(host_of("https://example.com./cb"), "s:example.com"); /* trailing dot */
    CHECK_STR(host_of("https://[2001:DB8::1]:443/x"), "s:[2001:db8::1]");
    CHECK_STR(host_of("https://[::1]"), "s:[::1]");
    CHECK_STR(host_of("https://192.0.2.1:8080"), "s:192.0.2.1");
    CHECK_STR(host_of("https://example.com/a@b"), "s:example.com"); /* '@' after the authority is path */
}

TEST(parse_bad)
{
    static const char *bad[] = {
        "",
        "example.com",
        "//example.com",
        "ftp://example.com",
        "https:/example.com",
        "https://",
        "https:///path",
        "https://?x",
        "https://user@example.com",
        "https://user:pw@example.com/",
        "https://example.com/#frag",
        "https://exa mple.com",
        "https://example.com/a b",
        "https://example.com\x01",
        "https://example.com/\x7f",
        "https://example.com\\@evil.example",
        "https://example.com:",
        "https://example.com:80a",
        "https://example.com:-1",
        "https://:80",
        "https://[::1",
        "https://[::1]x",
        "https://[::1]:",
        "https://.",
        "https://example.com\t",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (strcmp(host_of(bad[i]), "ERR") != 0) {
            fprintf(stderr, "  accepted \"%s\"\n", bad[i]);
            CHECK(0);
        }
    }
}

TEST(parse_host_length)
{
    char url[400] = "https://";
    memset(url + 8, 'a', 255);
    url[8 + 255] = '\0';
    CHECK_INT(strlen(host_of(url)), 2 + 255);
    strcat(url, "a");
    CHECK_STR(host_of(url), "ERR");
}

TEST(redirect_rule)
{
    CHECK(url_redirect_allowed("https://app.example", "https://app.example/cb?x=1"));
    CHECK(url_redirect_allowed("https://app.example/", "https://APP.Example:8443/cb"));
    CHECK(url_redirect_allowed("https://app.example", "https://cb.app.example/x"));
    CHECK(url_redirect_allowed("https://app.example", "https://a.b.app.example/x"));
    CHECK(url_redirect_allowed("http://app.example", "https://app.example/cb"));
    CHECK(url_redirect_allowed("http://app.example", "http://app.example/cb"));
    CHECK(url_redirect_allowed("https://app.example.", "https://app.example/cb"));
    CHECK(!url_redirect_allowed("https://app.example", "http://app.example/cb")); /* downgrade */
    CHECK(!url_redirect_allowed("https://app.example", "https://evilapp.example/"));
    CHECK(!url_redirect_allowed("https://app.example", "https://app.example.evil/"));
    CHECK(!url_redirect_allowed("https://app.example", "https://.app.example/"));
    CHECK(!url_redirect_allowed("https://app.example", "https://example/"));
    CHECK(!url_redirect_allowed("https://cb.app.example", "https://app.example/")); /* parent */
    CHECK(!url_redirect_allowed("https://app.example", "https://user@app.example/"));
    CHECK(!url_redirect_allowed("not a url", "https://app.example/"));
    CHECK(!url_redirect_allowed("https://app.example", ""));
    /* IP literals: exact only */
    CHECK(url_redirect_allowed("https://192.0.2.1", "https://192.0.2.1/cb"));
    CHECK(!url_redirect_allowed("https://192.0.2.1", "https://x.192.0.2.1/cb"));
    CHECK(!url_redirect_allowed("https://2.1", "https://192.0.2.1/cb"));
    CHECK(url_redirect_allowed("https://[::1]", "https://[::1]:8443/"));
    CHECK(!url_redirect_allowed("https://[::1]", "https://x.[::1]/"));
}

TEST(append_param)
{
    char out[128] = "https://app.example/cb";
    CHECK_INT(url_append_param(out, sizeof out, "code", "abc"),
              (long)strlen("https://app.example/cb?code=abc"));
    CHECK_STR(out, "https://app.example/cb?code=abc");
    CHECK(url_append_param(out, sizeof out, "state", "a b&c=d/\xC3\xA9-._~") > 0);
    CHECK_STR(out, "https://app.example/cb?code=abc&state=a%20b%26c%3Dd%2F%C3%A9-._~");

    char small[16] = "http://a/";
    CHECK_INT(url_append_param(small, sizeof small, "k", "12"), 14); /* "http://a/?k=12" */
    CHECK_STR(small, "http://a/?k=12");
    char tight[16] = "http://a/";
    CHECK_INT(url_append_param(tight, sizeof tight, "k", "123"), 15); /* fills all 16 bytes */
    char over[16] = "http://a/";
    CHECK_INT(url_append_param(over, sizeof over, "k", "1234"), -1);
    char esc[16] = "http://a/";
    CHECK_INT(url_append_param(esc, sizeof esc, "k", "1 "), -1); /* "%20" does not fit */
    char name[12] = "http://a/";
    CHECK_INT(url_append_param(name, sizeof name, "key", ""), -1);
    char empty[32] = "http://a/?x=1";
    CHECK_INT(url_append_param(empty, sizeof empty, "e", ""), 16);
    CHECK_STR(empty, "http://a/?x=1&e=");
}

UNIT_MAIN(UNIT_CASE(parse_good), UNIT_CASE(parse_bad), UNIT_CASE(parse_host_length), UNIT_CASE(redirect_rule),
          UNIT_CASE(append_param))
