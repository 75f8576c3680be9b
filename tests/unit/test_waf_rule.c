/* test_waf_rule.c — waf/waf.h: the custom rule model, its messages,
 * its compilation to a SecRule chain, and what libmodsecurity makes of the
 * text: rules load, and requests run through a real libmodsecurity
 * transaction match exactly the values given (quotes, backslashes and
 * macros cannot change a rule's meaning or add actions). */
#include "base/strbuf.h"
#include "waf/waf.h"

#include <modsecurity/modsecurity.h>
#include <modsecurity/rules_set.h>
#include <modsecurity/transaction.h>
#include <stdlib.h>

#include "unit.h"

static char err[WAF_ERR_LEN];

/* Normalizes the JSON text; returns the canonical rule or NULL (err set). */
static json_t *norm(const char *text)
{
    json_error_t je;
    json_t *in = json_loads(text, 0, &je);
    if (!in) {
        fprintf(stderr, "  bad test JSON: %s\n", je.text);
        return NULL;
    }
    err[0] = '\0';
    json_t *out = waf_rule_normalize(in, err, sizeof err);
    json_decref(in);
    return out;
}

/* The compiled text of a rule given as JSON, in slot 7, or "ERR: msg". */
static char *compiled(const char *text)
{
    static char *last;
    free(last);
    last = NULL;
    json_t *r = norm(text);
    if (!r)
        return last = strdup(err), last;
    last = waf_rule_compile(r, 7, err, sizeof err);
    json_decref(r);
    if (!last)
        last = strdup(err);
    return last;
}

/* The error message for a rule given as JSON ("" when accepted). */
static const char *refusal(const char *text)
{
    json_t *r = norm(text);
    if (r) {
        json_decref(r);
        return "";
    }
    return err;
}

static void quiet(void *data, const void *msg)
{
    (void)data;
    (void)msg;
}

/* Runs one GET request through libmodsecurity with `rules` loaded: the HTTP
 * status of the intervention (0 when none); *redirect gets the URL. */
static int run(const char *rules, const char *uri, const char *header, const char *hvalue, const char *ip)
{
    static ModSecurity *m;
    if (!m) {
        m = msc_init();
        msc_set_log_cb(m, quiet);
    }
    RulesSet *rs = msc_create_rules_set();
    const char *e = NULL;
    char *text;
    if (asprintf(&text, "SecRuleEngine On\n%s", rules) < 0)
        abort();
    int rc = msc_rules_add(rs, text, &e);
    free(text);
    if (rc < 0) {
        fprintf(stderr, "  rules refused: %s\n", e);
        free((void *)e);
        msc_rules_cleanup(rs);
        return -1;
    }
    Transaction *t = msc_new_transaction(m, rs, NULL);
    msc_process_connection(t, ip ? ip : "192.0.2.10", 40000, "198.51.100.1", 443);
    msc_process_uri(t, uri, "GET", "1.1");
    msc_add_request_header(t, (const unsigned char *)"Host", (const unsigned char *)"www.example.com");
    if (header)
        msc_add_request_header(t, (const unsigned char *)header, (const unsigned char *)hvalue);
    msc_process_request_headers(t);
    msc_process_request_body(t);
    ModSecurityIntervention it = {.status = 200};
    int status = msc_intervention(t, &it) ? it.status : 0;
    free(it.url);
    free(it.log);
    msc_transaction_cleanup(t);
    msc_rules_cleanup(rs);
    return status;
}

TEST(compiles_and_loads)
{
    const char *r = compiled(
        "{\"rule_name\":\"no admin\",\"conditions\":[{\"field\":\"path\",\"operator\":\"begins_with\","
        "\"value\":\"/Admin\",\"ignore_case\":1},{\"field\":\"source_ip\",\"operator\":\"ip_match\","
        "\"value\":[\"192.0.2.0/24\",\"2001:DB8::1\"],\"negate\":1}],\"action\":\"block\"}");
    CHECK_STR(r, "SecRule REQUEST_FILENAME \"@beginsWith /admin\" \"id:10007,phase:1,deny,status:403,"
                 "log,auditlog,msg:'parapet custom rule',tag:'parapet/custom-rule',t:none,"
                 "t:urlDecodeUni,t:normalizePath,t:lowercase,chain\"\n"
                 "SecRule REMOTE_ADDR \"!@ipMatch 192.0.2.0/24,2001:db8::1\" \"t:none\"\n");
    CHECK(waf_msc_check(NULL, r, err, sizeof err) == 0);
    CHECK_INT(run(r, "/ADMIN/x", NULL, NULL, "203.0.113.5"), 403);
    CHECK_INT(run(r, "/%61dmin/x", NULL, NULL, "203.0.113.5"), 403); /* decoded before the match */
    CHECK_INT(run(r, "/admin/x", NULL, NULL, "192.0.2.77"), 0);      /* inside the allowed block */
    CHECK_INT(run(r, "/public", NULL, NULL, "203.0.113.5"), 0);
}

TEST(each_action)
{
    const char *r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"header\",\"name\":"
                             "\"User-Agent\",\"operator\":\"contains\",\"value\":\"bot\"}],"
                             "\"action\":\"redirect\",\"redirect_url\":\"https://example.com/a?b=1,2\"}");
    CHECK_STR(r, "SecRule REQUEST_HEADERS:User-Agent \"@contains bot\" \"id:10007,phase:1,"
                 "redirect:'https://example.com/a?b=1,2',log,auditlog,msg:'parapet custom rule',"
                 "tag:'parapet/custom-rule',t:none\"\n");
    CHECK_INT(run(r, "/", "User-Agent", "a bot", NULL), 302);
    r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"args\",\"operator\":\"equals\","
                 "\"value\":\"x\"}],\"action\":\"block\",\"status\":429}");
    CHECK(strstr(r, "phase:2,deny,status:429,") != NULL);
    CHECK_INT(run(r, "/?a=x", NULL, NULL, NULL), 429);
    CHECK_INT(run(r, "/?a=xy", NULL, NULL, NULL), 0);
    r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"method\",\"operator\":\"in\","
                 "\"value\":[\"get\",\"Head\"]}],\"action\":\"log\"}");
    CHECK(strstr(r, "\"@rx \\A(?:GET|HEAD)\\z\" \"id:10007,phase:1,pass,log,auditlog,") != NULL);
    CHECK_INT(run(r, "/", NULL, NULL, NULL), 0);
    /* allow stops later rules: an allow rule before a deny-all rule lets the request through */
    r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"equals\","
                 "\"value\":\"/ok\"}],\"action\":\"allow\"}");
    char both[1024];
    snprintf(both, sizeof both, "%sSecAction \"id:19999,phase:1,deny,status:403\"\n", r);
    CHECK_INT(run(both, "/ok", NULL, NULL, NULL), 0);
    CHECK_INT(run(both, "/no", NULL, NULL, NULL), 403);
    r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"country\",\"operator\":\"in\","
                 "\"value\":[\"cn\",\"RU\"]}],\"action\":\"block\"}");
    CHECK_STR(r, "SecRule REMOTE_ADDR \"@geoLookup\" \"id:10007,phase:1,deny,status:403,log,auditlog,"
                 "msg:'parapet custom rule',tag:'parapet/custom-rule',t:none,chain\"\n"
                 "SecRule GEO:COUNTRY_CODE \"@rx \\A(?:CN|RU)\\z\" \"t:none\"\n");
    CHECK(waf_msc_check(NULL, r, err, sizeof err) == 0);
}

/* Values that look like SecLang syntax match themselves and add nothing. */
TEST(escaping_is_safe)
{
    static const char *values[] = {
        "a\\\"b",                           /* a"b — quote */
        "a\\\\b",                           /* a\b — backslash */
        "x\\\" \\\"id:1,phase:1,allow\\\"", /* x" "id:1,phase:1,allow" */
        "end\\\\",                          /* end\ — a final backslash */
        "q'uote,deny",                      /* single quote, comma */
        " spaced ",
        "50%", /* a final '%' upsets the lexer */
    };
    static const char *uris[] = {
        "/a\"b", "/a\\b", "/x\" \"id:1,phase:1,allow\"", "/end\\", "/q'uote,deny", "/ spaced ", "/50%"};
    static const char *ops[] = {"contains", "ends_with"};
    for (size_t o = 0; o < 2; o++) {
        for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
            char json[512];
            snprintf(json, sizeof json,
                     "{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"query\",\"operator\":\"%s\","
                     "\"value\":\"%s\"}],\"action\":\"block\"}",
                     ops[o], values[i]);
            const char *r = compiled(json);
            CHECK(strncmp(r, "SecRule QUERY_STRING \"@", 23) == 0);
            CHECK(strchr(r, '\n') == r + strlen(r) - 1); /* one line */
            char uri[256];
            snprintf(uri, sizeof uri, "/?%s", uris[i] + 1);
            if (run(r, uri, NULL, NULL, NULL) != 403)
                fprintf(stderr, "  no match for %s with %s\n", uris[i], r);
            CHECK_INT(run(r, uri, NULL, NULL, NULL), 403);
            snprintf(uri, sizeof uri, "/?%.*s", (int)strlen(uris[i] + 1) - 1, uris[i] + 1);
            CHECK_INT(run(r, uri, NULL, NULL, NULL), 0); /* a prefix is not a match */
        }
    }
    /* a regex with quotes keeps its meaning */
    const char *r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"query\",\"operator\":"
                             "\"regex\",\"value\":\"^a\\\"+b\\\\\\\"c\\\\Q\\\"\\\\E\\\\\\\\$\"}],"
                             "\"action\":\"block\"}"); /* ^a"+b\"c\Q"\E\\$ */
    CHECK_STR(r, "SecRule QUERY_STRING \"@rx ^a\\x22+b\\x22c\\Q\\E\\x22\\Q\\E\\\\$\" \"id:10007,"
                 "phase:1,deny,status:403,log,auditlog,msg:'parapet custom rule',"
                 "tag:'parapet/custom-rule',t:none\"\n");
    CHECK_INT(run(r, "/?a\"\"b\"c\"\\", NULL, NULL, NULL), 403);
    CHECK_INT(run(r, "/?ab\"c\"\\", NULL, NULL, NULL), 0);
    r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"query\",\"operator\":"
                 "\"regex\",\"value\":\"z\\\\\\\\\"}],\"action\":\"block\"}"); /* z\\ */
    CHECK(strncmp(r, "SecRule QUERY_STRING \"@rx z\\\\(?:)\" \"id:10007,", 40) == 0);
    CHECK_INT(run(r, "/?z\\", NULL, NULL, NULL), 403);
    CHECK_INT(run(r, "/?z", NULL, NULL, NULL), 0);
    r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"query\",\"operator\":"
                 "\"regex\",\"value\":\"5%\\\\Q%\"}],\"action\":\"block\"}"); /* 5%\Q% */
    CHECK(strncmp(r, "SecRule QUERY_STRING \"@rx 5\\x25\\Q\\E\\x25\\Q\" \"id:10007,", 48) == 0);
    CHECK_INT(run(r, "/?5%%", NULL, NULL, NULL), 403);
    CHECK_INT(run(r, "/?5%", NULL, NULL, NULL), 0);
    /* "in" values are literals too */
    r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"query\",\"operator\":\"in\","
                 "\"value\":[\"a.b\",\"(x)\"],\"ignore_case\":1}],\"action\":\"block\"}");
    CHECK(strstr(r, "\"@rx (?i)\\A(?:a\\x2eb|\\x28x\\x29)\\z\"") != NULL);
    CHECK_INT(run(r, "/?A.B", NULL, NULL, NULL), 403);
    CHECK_INT(run(r, "/?aXb", NULL, NULL, NULL), 0);
    CHECK_INT(run(r, "/?(X)", NULL, NULL, NULL), 403);
}

TEST(bad_regex_and_modsecurity_refusals)
{
    CHECK_STR(refusal("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"regex\","
                      "\"value\":\"(\"}],\"action\":\"block\"}"),
              "conditions[0].value: invalid regular expression: missing closing parenthesis at "
              "offset 1");
    CHECK(strstr(refusal("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":"
                         "\"regex\",\"value\":\"a\\\\\"}],\"action\":\"block\"}"),
                 "invalid regular expression: \\ at end of pattern") != NULL);
    /* what libmodsecurity itself refuses comes back with its message */
    CHECK(waf_msc_check(NULL, "SecRule REQUEST_URI \"@rx x\" \"id:1,phase:1,t:nosuch\"", err, sizeof err) ==
          -1);
    CHECK(strstr(err, "Expecting an action, got:  t:nosuch") != NULL);
    CHECK(waf_msc_check(NULL, "SecRule REQUEST_URI \"@rx x\" \"phase:1,deny\"", err, sizeof err) == -1);
    CHECK(strncmp(err, "Rules must have an ID", 21) == 0);
    CHECK(strchr(err, '\n') == NULL);
    CHECK(waf_msc_check(NULL, "SecRule REMOTE_ADDR \"@ipMatch 2001:db8::1/128\" \"id:1,phase:1,deny\"", err,
                        sizeof err) == -1);
    CHECK(waf_msc_check("Include /nonexistent/parapet.conf\n", "", err, sizeof err) == -1);
    CHECK(strncmp(err, "prelude: ", 9) == 0);
    /* waf_rule_check: normalize + compile + load */
    json_t *in = json_pack("{s:s,s:[{s:s,s:s,s:s}],s:s}", "rule_name", "r", "conditions", "field", "uri",
                           "operator", "contains", "value", "x", "action", "log");
    json_t *out = waf_rule_check(in, err, sizeof err);
    CHECK(out != NULL);
    CHECK_INT(json_integer_value(json_object_get(out, "enable")), 1);
    json_decref(out);
    json_decref(in);
}

TEST(canonical_form)
{
    json_t *r = norm("{\"rule_name\":\"n\",\"conditions\":[{\"field\":\"country\",\"operator\":"
                     "\"equals\",\"value\":\"de\"}],\"action\":\"block\"}");
    char *s = json_dumps(r, JSON_COMPACT);
    CHECK_STR(s, "{\"rule_name\":\"n\",\"description\":\"\",\"enable\":1,\"conditions\":[{\"field\":"
                 "\"country\",\"operator\":\"equals\",\"value\":\"DE\",\"negate\":0,\"ignore_case\":0}],"
                 "\"action\":\"block\",\"status\":403}");
    free(s);
    json_decref(r);
}

TEST(every_member_is_checked)
{
    static const struct {
        const char *json, *msg;
    } cases[] = {
        {"[]", "body: must be a JSON object (a custom rule)"},
        {"{\"conditions\":[],\"action\":\"block\"}", "rule_name: is required"},
        {"{\"rule_name\":\"\",\"conditions\":[],\"action\":\"block\"}",
         "rule_name: must be 1 to 64 characters"},
        {"{\"rule_name\":1}", "rule_name: must be a string"},
        {"{\"rule_name\":\"a\\nb\"}", "rule_name: must not contain control characters"},
        {"{\"rule_name\":\"r\",\"extra\":1}", "extra: is not a member of a custom rule"},
        {"{\"rule_name\":\"r\",\"description\":5}", "description: must be a string"},
        {"{\"rule_name\":\"r\",\"enable\":2}", "enable: must be 0 or 1"},
        {"{\"rule_name\":\"r\",\"enable\":true}", "enable: must be an integer (0 or 1)"},
        {"{\"rule_name\":\"r\",\"action\":\"block\"}", "conditions: must be an array of 1 to 8 conditions"},
        {"{\"rule_name\":\"r\",\"conditions\":[],\"action\":\"block\"}",
         "conditions: must be an array of 1 to 8 conditions"},
        {"{\"rule_name\":\"r\",\"conditions\":[1]}", "action: is required"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"drop\"}",
         "action: must be one of block, allow, log, redirect"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"log\",\"status\":403}",
         "status: is only taken with action block"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"block\",\"status\":302}",
         "status: must be an integer from 400 to 599"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"redirect\"}",
         "redirect_url: is required with action redirect"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"log\",\"redirect_url\":\"https://a.example\"}",
         "redirect_url: is only taken with action redirect"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"redirect\",\"redirect_url\":\"javascript:x\"}",
         "redirect_url: must be an absolute http or https URL of at most 2048 bytes"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"redirect\",\"redirect_url\":\"https://"
         "a.example/'x\"}",
         "redirect_url: must not contain spaces, quotes, backslashes, '%' or the characters `<>{}|^ "
         "(ModSecurity's redirect cannot carry them)"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"redirect\",\"redirect_url\":\"https://"
         "a.example/a%20b\"}",
         "redirect_url: must not contain spaces, quotes, backslashes, '%' or the characters `<>{}|^ "
         "(ModSecurity's redirect cannot carry them)"},
        {"{\"rule_name\":\"r\",\"conditions\":[1],\"action\":\"log\"}", "conditions[0]: must be an object"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"operator\":\"in\"}],\"action\":\"log\"}",
         "conditions[0].field: is required"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"x\"}],\"action\":\"log\"}",
         "conditions[0].field: must be one of uri, path, query, args, arg, arg_names, body, method, "
         "source_ip, country, headers, header, header_names, cookies, cookie, cookie_names"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"op\":1}],\"action\":\"log\"}",
         "conditions[0].op: is not a member of a condition"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"header\"}],\"action\":\"log\"}",
         "conditions[0].name: is required with field header"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"name\":\"a\"}],\"action\":\"log\"}",
         "conditions[0].name: is only taken with field arg, header or cookie"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"cookie\",\"name\":\"a b\"}],\"action\":\"log\"}",
         "conditions[0].name: must be 1 to 64 letters, digits, '-', '_' or '.'"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\"}],\"action\":\"log\"}",
         "conditions[0].operator: is required"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"like\"}],\"action\":"
         "\"log\"}",
         "conditions[0].operator: must be one of contains, equals, begins_with, ends_with, regex, in, "
         "ip_match"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"source_ip\",\"operator\":\"equals\"}],\"action\":"
         "\"log\"}",
         "conditions[0].operator: must be ip_match with field source_ip"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"ip_match\"}],\"action\":"
         "\"log\"}",
         "conditions[0].operator: ip_match is only for field source_ip"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"method\",\"operator\":\"contains\"}],\"action\":"
         "\"log\"}",
         "conditions[0].operator: must be equals or in with field method"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"contains\",\"negate\":-1}],"
         "\"action\":\"log\"}",
         "conditions[0].negate: must be 0 or 1"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"country\",\"operator\":\"equals\",\"ignore_"
         "case\":1}],\"action\":\"log\"}",
         "conditions[0].ignore_case: is only for text fields (not country)"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"contains\"}],\"action\":"
         "\"log\"}",
         "conditions[0].value: is required"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"contains\",\"value\":\"\"}],"
         "\"action\":\"log\"}",
         "conditions[0].value: must be 1 to 1024 bytes"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"contains\",\"value\":[\"a\"]"
         "}],\"action\":\"log\"}",
         "conditions[0].value: must be a string with operator contains (arrays go with in)"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"contains\",\"value\":"
         "\"a\\tb\"}],\"action\":\"log\"}",
         "conditions[0].value: must not contain control characters"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"contains\",\"value\":\"%{TX."
         "x}\"}],\"action\":\"log\"}",
         "conditions[0].value: must not contain \"%{\" (ModSecurity macro syntax)"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"in\",\"value\":\"a\"}],"
         "\"action\":\"log\"}",
         "conditions[0].value: must be an array of 1 to 64 entries with operator in"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"in\",\"value\":[\"a\",3]}],"
         "\"action\":\"log\"}",
         "conditions[0].value[1]: must be a string"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"source_ip\",\"operator\":\"ip_match\",\"value\":["
         "\"10.0.0.1/8\"]}],\"action\":\"log\"}",
         "conditions[0].value[0]: must not have host bits set"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"source_ip\",\"operator\":\"ip_match\",\"value\":["
         "\"x\"]}],\"action\":\"log\"}",
         "conditions[0].value[0]: must be an IP address or CIDR block"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"country\",\"operator\":\"equals\",\"value\":"
         "\"DEU\"}],\"action\":\"log\"}",
         "conditions[0].value: must be an ISO 3166 alpha-2 country code"},
        {"{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"method\",\"operator\":\"in\",\"value\":[\"G-T\"]}"
         "],\"action\":\"log\"}",
         "conditions[0].value[0]: must be an HTTP method of 1 to 16 letters"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_STR(refusal(cases[i].json), cases[i].msg);
    /* limits */
    char big[1200 + 200];
    snprintf(big, sizeof big,
             "{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":"
             "\"contains\",\"value\":\"%01025d\"}],\"action\":\"log\"}",
             0);
    CHECK_STR(refusal(big), "conditions[0].value: must be 1 to 1024 bytes");
    snprintf(big, sizeof big, "{\"rule_name\":\"%065d\",\"conditions\":[1],\"action\":\"log\"}", 0);
    CHECK_STR(refusal(big), "rule_name: must be 1 to 64 characters");
    CHECK_STR(refusal("{\"rule_name\":\"r\",\"conditions\":[1,1,1,1,1,1,1,1,1],\"action\":\"log\"}"),
              "conditions: must be an array of 1 to 8 conditions");
    json_t *r = norm("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"uri\",\"operator\":\"contains\","
                     "\"value\":\"x\"}],\"action\":\"log\"}");
    CHECK(waf_rule_compile(r, WAF_RULE_SLOTS, err, sizeof err) == NULL);
    char *t = waf_rule_compile(r, WAF_RULE_SLOTS - 1, err, sizeof err);
    CHECK(t && strstr(t, "id:19999,") != NULL);
    free(t);
    json_decref(r);
}

/* Every @rx pattern the compiler writes is one PCRE2 compiles: libmodsecurity
 * 3.0.9 loads a pattern PCRE2 refuses without a word, and the rule then
 * never matches. */
TEST(compiled_patterns_compile)
{
    /* "(?i)" goes after the start-of-pattern verbs, which PCRE2 takes only first */
    const char *r = compiled("{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"query\",\"operator\":"
                             "\"regex\",\"value\":\"(*UTF)(*LIMIT_MATCH=1000)ADM\",\"ignore_case\":1}],"
                             "\"action\":\"block\"}");
    CHECK(strncmp(r, "SecRule QUERY_STRING \"@rx (*UTF)(*LIMIT_MATCH=1000)(?i)ADM\" ", 60) == 0);
    CHECK_INT(run(r, "/?admin", NULL, NULL, NULL), 403);
    CHECK_INT(run(r, "/?adn", NULL, NULL, NULL), 0);
    /* an "in" list whose pattern is over PCRE2's size limit is refused, not loaded broken */
    struct strbuf b = {0};
    sb_add(&b, "{\"rule_name\":\"r\",\"conditions\":[{\"field\":\"args\",\"operator\":\"in\",\"value\":[");
    for (int i = 0; i < WAF_RULE_LIST_MAX; i++)
        sb_printf(&b, "%s\"%01020d%04d\"", i ? "," : "", 0, i);
    sb_add(&b, "]}],\"action\":\"block\"}");
    CHECK_STR(refusal(b.s), "");
    CHECK_STR(compiled(b.s), "conditions[0].value: cannot be carried in a ModSecurity rule (invalid regular "
                             "expression: regular expression is too large at offset 0)");
    json_error_t je;
    json_t *in = json_loads(b.s, 0, &je);
    CHECK(in && waf_rule_check(in, err, sizeof err) == NULL);
    CHECK(strstr(err, "regular expression is too large") != NULL);
    json_decref(in);
    sb_free(&b);
}

/* A rule text libmodsecurity accepted is not loaded again; one it refused
 * is, every time; another text is. */
TEST(accepted_texts_are_remembered)
{
    const char *ok = "SecRule REQUEST_URI \"@contains remembered\" \"id:10001,phase:1,pass,log\"\n";
    const char *bad = "SecRule REQUEST_URI \"@contains x\" \"id:10001,phase:1,t:nosuch\"\n";
    unsigned long before = waf_msc_loads();
    CHECK_INT(waf_msc_check_remembered("SecRuleEngine On\n", ok, err, sizeof err), 0);
    CHECK_INT(waf_msc_check_remembered("SecRuleEngine On\n", ok, err, sizeof err), 0);
    CHECK_INT(waf_msc_loads() - before, 1);
    CHECK_INT(waf_msc_check_remembered(NULL, ok, err, sizeof err), 0); /* another prelude: loaded */
    CHECK_INT(waf_msc_loads() - before, 2);
    CHECK_INT(waf_msc_check_remembered("SecRuleEngine On\n", bad, err, sizeof err), -1);
    CHECK_INT(waf_msc_check_remembered("SecRuleEngine On\n", bad, err, sizeof err), -1);
    CHECK(strstr(err, "t:nosuch") != NULL);
    CHECK_INT(waf_msc_loads() - before, 4);
    /* the ring forgets the oldest */
    for (int i = 0; i < WAF_MSC_ACCEPTED; i++) {
        char text[160];
        snprintf(text, sizeof text, "SecRule REQUEST_URI \"@contains r%d\" \"id:10001,phase:1,pass,log\"\n", i);
        CHECK_INT(waf_msc_check_remembered("SecRuleEngine On\n", text, err, sizeof err), 0);
    }
    before = waf_msc_loads();
    CHECK_INT(waf_msc_check_remembered("SecRuleEngine On\n", ok, err, sizeof err), 0);
    CHECK_INT(waf_msc_loads() - before, 1);
}

UNIT_MAIN(UNIT_CASE(compiles_and_loads), UNIT_CASE(accepted_texts_are_remembered), UNIT_CASE(each_action), UNIT_CASE(escaping_is_safe),
          UNIT_CASE(bad_regex_and_modsecurity_refusals), UNIT_CASE(canonical_form),
          UNIT_CASE(every_member_is_checked), UNIT_CASE(compiled_patterns_compile))
