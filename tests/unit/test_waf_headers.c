/* test_waf_headers.c — waf/waf.h: the three header sets, the
 * custom policy's value rules and canonical forms, the POST body and the
 * GET shape. */
#include "waf/waf.h"

#include <stdlib.h>

#include "unit.h"

static char err[512];

/* Applies a body (JSON text) to state: "" or the message. */
static const char *post(json_t *state, const char *body)
{
    json_error_t je;
    json_t *b = json_loads(body, JSON_DECODE_ANY, &je);
    if (!b) {
        fprintf(stderr, "  bad test JSON: %s\n", je.text);
        return "bad test JSON";
    }
    err[0] = '\0';
    int rc = waf_headers_apply(state, b, err, sizeof err);
    json_decref(b);
    return rc == 0 ? "" : err;
}

/* A custom header value as stored after posting it, or the message. */
static const char *custom_value(const char *member, const char *value)
{
    static char out[WAF_CSP_MAX + 600];
    json_t *st = waf_headers_default();
    json_t *b = json_pack("{s:{s:s}}", "custom", member, value);
    if (waf_headers_apply(st, b, err, sizeof err) != 0)
        snprintf(out, sizeof out, "ERR %s", err);
    else
        snprintf(out, sizeof out, "%s",
                 json_string_value(json_object_get(json_object_get(st, "custom"), member)));
    json_decref(b);
    json_decref(st);
    return out;
}

static char *dump(const json_t *j)
{
    static char *last;
    free(last);
    return last = json_dumps(j, JSON_COMPACT);
}

TEST(mode_sets)
{
    json_t *s = waf_headers_set("low", NULL);
    CHECK_STR(dump(s), "{\"X-Frame-Options\":\"SAMEORIGIN\",\"X-Content-Type-Options\":\"nosniff\","
                       "\"Referrer-Policy\":\"strict-origin-when-cross-origin\"}");
    json_decref(s);
    s = waf_headers_set("standard", NULL);
    CHECK_STR(dump(s), "{\"Strict-Transport-Security\":\"max-age=31536000\",\"X-Frame-Options\":"
                       "\"SAMEORIGIN\",\"X-Content-Type-Options\":\"nosniff\",\"Referrer-Policy\":"
                       "\"strict-origin-when-cross-origin\",\"Content-Security-Policy\":"
                       "\"upgrade-insecure-requests; frame-ancestors 'self'; object-src 'none'; "
                       "base-uri 'self'\",\"Permissions-Policy\":\"camera=(), microphone=(), "
                       "geolocation=(), payment=(), usb=()\"}");
    json_decref(s);
    s = waf_headers_set("strict", NULL);
    CHECK_INT(json_object_size(s), 6);
    CHECK_STR(json_string_value(json_object_get(s, "Strict-Transport-Security")),
              "max-age=63072000; includeSubDomains; preload");
    CHECK_STR(json_string_value(json_object_get(s, "X-Frame-Options")), "DENY");
    CHECK_STR(json_string_value(json_object_get(s, "Referrer-Policy")), "no-referrer");
    CHECK(strncmp(json_string_value(json_object_get(s, "Content-Security-Policy")), "default-src 'self';",
                  19) == 0);
    json_decref(s);
    CHECK(waf_headers_set("paranoid", NULL) == NULL);
    /* every built-in value passes the custom rules unchanged */
    static const char *const members[] = {"strict_transport_security", "x_frame_options",
                                          "x_content_type_options",    "referrer_policy",
                                          "content_security_policy",   "permissions_policy"};
    static const char *const names[] = {"Strict-Transport-Security", "X-Frame-Options",
                                        "X-Content-Type-Options",    "Referrer-Policy",
                                        "Content-Security-Policy",   "Permissions-Policy"};
    for (int m = 0; m < 3; m++) {
        s = waf_headers_set(m == 0 ? "low" : m == 1 ? "standard" : "strict", NULL);
        for (int i = 0; i < 6; i++) {
            const char *v = json_string_value(json_object_get(s, names[i]));
            if (v)
                CHECK_STR(custom_value(members[i], v), v);
        }
        json_decref(s);
    }
}

TEST(custom_values)
{
    CHECK_STR(custom_value("strict_transport_security", "Max-Age=600 ;includesubdomains"),
              "max-age=600; includeSubDomains");
    CHECK_STR(custom_value("strict_transport_security", "max-age=\"31536000\"; preload; includeSubDomains"),
              "max-age=31536000; includeSubDomains; preload");
    CHECK_STR(custom_value("strict_transport_security", "max-age=600; preload"),
              "ERR custom.strict_transport_security: preload needs includeSubDomains and a max-age "
              "of at least 31536000 (one year)");
    static const char *bad_hsts[] = {"includeSubDomains",
                                     "max-age=",
                                     "max-age=-1",
                                     "max-age=1e5",
                                     "max-age=315360001",
                                     "max-age=1; max-age=2",
                                     "max-age=1; includeSubDomains; includeSubDomains",
                                     "max-age=1; nosuch",
                                     "max-age=1;;"};
    for (size_t i = 0; i < sizeof bad_hsts / sizeof bad_hsts[0]; i++)
        CHECK_STR(custom_value("strict_transport_security", bad_hsts[i]),
                  "ERR custom.strict_transport_security: must be \"max-age=SECONDS\" (0 to "
                  "315360000) optionally followed by \"; includeSubDomains\" and \"; preload\", each once");
    CHECK_STR(custom_value("x_frame_options", "sameorigin"), "SAMEORIGIN");
    CHECK_STR(custom_value("x_frame_options", "ALLOW-FROM https://a.example"),
              "ERR custom.x_frame_options: must be DENY or SAMEORIGIN");
    CHECK_STR(custom_value("x_content_type_options", "NoSniff"), "nosniff");
    CHECK_STR(custom_value("x_content_type_options", "sniff"),
              "ERR custom.x_content_type_options: must be nosniff");
    CHECK_STR(custom_value("referrer_policy", "No-Referrer ,strict-origin"), "no-referrer, strict-origin");
    CHECK(strncmp(custom_value("referrer_policy", "origin, nosuch"),
                  "ERR custom.referrer_policy: must be a comma-separated list of no-referrer,", 73) == 0);
    CHECK(strncmp(custom_value("referrer_policy", "origin,"), "ERR ", 4) == 0);
    CHECK_STR(custom_value("content_security_policy", "default-src 'self' https://cdn.example; img-src *"),
              "default-src 'self' https://cdn.example; img-src *");
    static const char *bad_text[] = {"default-src 'self'\r\nSet-Cookie: a=b",
                                     "default-src\t'self'",
                                     " default-src 'self'",
                                     "default-src $host",
                                     "img-src \\x",
                                     "img-src caf\xc3\xa9"};
    for (size_t i = 0; i < sizeof bad_text / sizeof bad_text[0]; i++)
        CHECK_STR(custom_value("content_security_policy", bad_text[i]),
                  "ERR custom.content_security_policy: must be 1 to 4096 printable ASCII characters "
                  "without '$' or '\\' (no control characters, no line breaks)");
    CHECK_STR(custom_value("content_security_policy", "'self'"),
              "ERR custom.content_security_policy: must be directives separated by ';', each "
              "starting with its name");
    char big[WAF_CSP_MAX + 16];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK(strncmp(custom_value("content_security_policy", big), "ERR ", 4) == 0);
    big[WAF_CSP_MAX] = '\0';
    CHECK_STR(custom_value("content_security_policy", big), big);
    CHECK_STR(custom_value("permissions_policy", "geolocation=(self \"https://a.example\"), camera=()"),
              "geolocation=(self \"https://a.example\"), camera=()");
    CHECK(strncmp(custom_value("permissions_policy", "geolocation"),
                  "ERR custom.permissions_policy: must be a comma-separated list of feature=allowlist",
                  80) == 0);
    CHECK(strncmp(custom_value("permissions_policy", "camera=()\n"), "ERR ", 4) == 0);
    CHECK_STR(custom_value("permissions_policy", ""), ""); /* not sent */
}

TEST(post_and_get)
{
    json_t *st = waf_headers_default();
    json_t *v = waf_headers_view(st);
    CHECK_INT(json_integer_value(json_object_get(v, "status")), 0);
    CHECK_STR(json_string_value(json_object_get(v, "mode")), "standard");
    CHECK_STR(dump(json_object_get(v, "headers")), "{}"); /* off: nothing added */
    CHECK_INT(json_object_size(json_object_get(v, "custom")), 6);
    json_decref(v);

    CHECK_STR(post(st, "{}"), "");
    CHECK_STR(post(st, "[]"), "body: must be a JSON object");
    CHECK_STR(post(st, "{\"status\":2}"), "status: must be 0 or 1");
    CHECK_STR(post(st, "{\"status\":true}"), "status: must be an integer (0 or 1)");
    CHECK_STR(post(st, "{\"mode\":\"max\"}"), "mode: must be one of low, standard, strict, custom");
    CHECK_STR(post(st, "{\"other\":1}"), "other: is not a member (status, mode, custom)");
    CHECK_STR(post(st, "{\"custom\":[]}"), "custom: must be an object");
    CHECK_STR(post(st, "{\"custom\":{\"server\":\"x\"}}"),
              "custom.server: is not a header of a custom policy");
    CHECK_STR(post(st, "{\"custom\":{\"x_frame_options\":1}}"),
              "custom.x_frame_options: must be a string (\"\" for not sent)");
    /* all or nothing */
    json_t *before = json_deep_copy(st);
    CHECK(*post(st, "{\"status\":1,\"custom\":{\"x_frame_options\":\"x\"}}"));
    CHECK(json_equal(st, before));
    json_decref(before);

    CHECK_STR(post(st, "{\"status\":1,\"mode\":\"strict\"}"), "");
    v = waf_headers_view(st);
    CHECK_INT(json_object_size(json_object_get(v, "headers")), 6);
    CHECK_STR(json_string_value(json_object_get(json_object_get(v, "headers"), "X-Frame-Options")), "DENY");
    json_decref(v);

    CHECK_STR(post(st, "{\"mode\":\"custom\",\"custom\":{\"strict_transport_security\":\"\","
                       "\"x_frame_options\":\"deny\",\"x_content_type_options\":\"\","
                       "\"referrer_policy\":\"\",\"content_security_policy\":\"\","
                       "\"permissions_policy\":\"\"}}"),
              "");
    v = waf_headers_view(st);
    CHECK_STR(dump(json_object_get(v, "headers")), "{\"X-Frame-Options\":\"DENY\"}");
    CHECK_STR(json_string_value(json_object_get(json_object_get(v, "custom"), "x_frame_options")), "DENY");
    json_decref(v);
    CHECK_STR(post(st, "{\"custom\":{\"x_frame_options\":\"\"}}"),
              "custom: must send at least one header when mode is custom");
    CHECK_STR(post(st, "{\"status\":0}"), "");
    v = waf_headers_view(st);
    CHECK_STR(dump(json_object_get(v, "headers")), "{}");
    CHECK_STR(json_string_value(json_object_get(v, "mode")), "custom"); /* kept for when it is on again */
    json_decref(v);
    json_decref(st);
}

UNIT_MAIN(UNIT_CASE(mode_sets), UNIT_CASE(custom_values), UNIT_CASE(post_and_get))
