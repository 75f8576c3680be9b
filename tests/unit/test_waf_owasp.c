/* test_waf_owasp.c — waf/waf.h: the key table, the default
 * configuration and its GET shape, the action-switch validators, and the
 * rendered text, which is loaded into libmodsecurity after the Core Rule Set
 * of Debian's modsecurity-crs and run on requests (skipped, saying so, only
 * when that package is missing). */
#include "waf/waf.h"

#include <modsecurity/modsecurity.h>
#include <modsecurity/rules_set.h>
#include <modsecurity/transaction.h>
#include <stdlib.h>
#include <stdbool.h>
#include <unistd.h>

#include "unit.h"

#define CRS_DIR "/usr/share/modsecurity-crs/rules"
#define CRS_PRELUDE                                                                                          \
    "SecRuleEngine On\nInclude /etc/modsecurity/crs/crs-setup.conf\n"                                        \
    "Include " CRS_DIR "/*.conf\n"

static char err[512];

static bool have_crs(void)
{
    static int known = -1;
    if (known < 0) {
        known = access(CRS_DIR "/REQUEST-901-INITIALIZATION.conf", R_OK) == 0 &&
                access("/etc/modsecurity/crs/crs-setup.conf", R_OK) == 0;
        if (!known)
            printf("skip: loading with the Core Rule Set: modsecurity-crs is not installed "
                   "(scripts/deps.sh installs it)\n");
    }
    return known;
}

static json_t *parse(const char *text)
{
    json_error_t je;
    json_t *j = json_loads(text, 0, &je);
    if (!j)
        fprintf(stderr, "  bad test JSON: %s\n", je.text);
    return j;
}

/* Applies a body (JSON text, or NULL) for key; returns "" or the message. */
static const char *apply(json_t *cfg, const char *key, const char *body)
{
    json_t *b = body ? parse(body) : NULL;
    err[0] = '\0';
    int rc = waf_owasp_apply(cfg, key, b, err, sizeof err);
    json_decref(b);
    return rc == 0 ? "" : err;
}

static void quiet(void *data, const void *msg)
{
    (void)data;
    (void)msg;
}

static ModSecurity *msc(void)
{
    static ModSecurity *m;
    if (!m) {
        m = msc_init();
        msc_set_log_cb(m, quiet);
    }
    return m;
}

/* The CRS and then text in one rules set, or NULL. */
/* As nginx runs them: a server's rules (the domain port's text) before the
 * http{} ones (the CRS, then the shared decision) in every phase. */
static RulesSet *load(const char *text)
{
    RulesSet *rs = msc_create_rules_set();
    const char *e = NULL;
    char *shared = waf_owasp_render_shared();
    int rc = msc_rules_add(rs, text, &e);
    if (rc >= 0)
        free((void *)e), e = NULL, rc = msc_rules_add(rs, CRS_PRELUDE, &e);
    if (rc >= 0)
        free((void *)e), e = NULL, rc = msc_rules_add(rs, shared, &e);
    free(shared);
    if (rc < 0) {
        fprintf(stderr, "  refused: %s\n", e);
        free((void *)e);
        msc_rules_cleanup(rs);
        return NULL;
    }
    return rs;
}

struct req {
    const char *method, *uri, *ip, *host;
    const char *h[3][2];  /* extra request headers */
    const char *location; /* response Location (a 302 answer), or NULL */
};

/* The status of libmodsecurity's intervention for the request (0: none). */
static int run(RulesSet *rs, struct req r)
{
    if (!rs)
        return -1;
    Transaction *t = msc_new_transaction(msc(), rs, NULL);
    msc_process_connection(t, r.ip ? r.ip : "203.0.113.9", 40000, "198.51.100.1", 443);
    msc_process_uri(t, r.uri, r.method ? r.method : "GET", "1.1");
    msc_add_request_header(t, (const unsigned char *)"Host",
                           (const unsigned char *)(r.host ? r.host : "www.example.com"));
    msc_add_request_header(t, (const unsigned char *)"Accept", (const unsigned char *)"*/*");
    msc_add_request_header(t, (const unsigned char *)"User-Agent", (const unsigned char *)"test/1.0");
    for (int i = 0; i < 3 && r.h[i][0]; i++)
        msc_add_request_header(t, (const unsigned char *)r.h[i][0], (const unsigned char *)r.h[i][1]);
    /* as a connector does: look for an intervention after each phase */
    ModSecurityIntervention it = {.status = 200};
    int status = 0;
    msc_process_request_headers(t);
    if (msc_intervention(t, &it))
        status = it.status;
    if (!status) {
        msc_process_request_body(t);
        if (msc_intervention(t, &it))
            status = it.status;
    }
    if (!status && r.location) {
        msc_add_response_header(t, (const unsigned char *)"Location", (const unsigned char *)r.location);
        msc_process_response_headers(t, 302, "HTTP/1.1");
        if (msc_intervention(t, &it))
            status = it.status;
    }
    free(it.url);
    free(it.log);
    msc_transaction_cleanup(t);
    return status;
}

static const struct waf_owasp_site site = {"www.example.com", 443, NULL, 0};

/* Renders cfg for site, checks that ModSecurity takes it after the CRS,
 * and loads it. */
static RulesSet *rendered(const json_t *cfg, const struct waf_owasp_site *s)
{
    char *text = waf_owasp_render(cfg, s, err, sizeof err);
    CHECK(text != NULL);
    if (!text)
        return NULL;
    CHECK(waf_msc_check(NULL, text, err, sizeof err) == 0);
    RulesSet *rs = load(text);
    free(text);
    return rs;
}

#define XSS  "/?q=%3Cscript%3Ealert(1)%3C/script%3E"
#define SQLI "/?id=1%27%20or%20%271%27=%271"

TEST(table_and_defaults)
{
    size_t n;
    const struct waf_owasp_key *k = waf_owasp_keys(&n);
    CHECK_INT(n, 23);
    int per_type[5] = {0};
    for (size_t i = 0; i < n; i++) {
        per_type[k[i].type]++;
        /* every CRS file named exists in the package */
        if (k[i].crs_file && have_crs()) {
            char files[256];
            snprintf(files, sizeof files, "%s", k[i].crs_file);
            for (char *s, *f = strtok_r(files, " ", &s); f; f = strtok_r(NULL, " ", &s)) {
                char path[512];
                snprintf(path, sizeof path, CRS_DIR "/%s", f);
                CHECK(access(path, R_OK) == 0);
            }
        }
    }
    CHECK_INT(per_type[WAF_GENERAL], 11);
    CHECK_INT(per_type[WAF_SIMPLE1], 4);
    CHECK_INT(per_type[WAF_SIMPLE2], 4);
    CHECK_INT(per_type[WAF_ADVANCED1], 3);
    CHECK_INT(per_type[WAF_ADVANCED2], 1);
    CHECK_STR(waf_owasp_key_find("sql_injection")->event_name, "sqli");
    CHECK_STR(waf_owasp_key_find("os_cmd_injection")->event_name, "oscmd");
    CHECK_STR(waf_owasp_key_find("web_scanner")->event_name, "webscanner");
    CHECK(waf_owasp_key_find("nosuch") == NULL);

    json_t *cfg = waf_owasp_default();
    json_t *view = waf_owasp_view(cfg);
    json_t *list = json_object_get(view, "waf_attack_list");
    CHECK_INT(json_integer_value(json_object_get(view, "enable")), 1);
    CHECK_INT(json_array_size(list), 23);
    char *s = json_dumps(json_array_get(list, 0), JSON_COMPACT);
    CHECK_STR(s,
              "{\"name\":\"coldfusion_injection\",\"type\":\"general\",\"enable\":1,\"action\":\"block\"}");
    free(s);
    s = json_dumps(json_array_get(list, 21), JSON_COMPACT);
    CHECK_STR(s, "{\"name\":\"whitelist_bypass\",\"type\":\"advanced1\",\"enable\":1,\"read_only\":1}");
    free(s);
    s = json_dumps(json_array_get(list, 22), JSON_COMPACT);
    CHECK_STR(s, "{\"name\":\"csrf\",\"type\":\"advanced2\",\"enable\":0,\"action\":\"block\",\"paths\":[],"
                 "\"methods\":[\"POST\",\"PUT\",\"PATCH\",\"DELETE\"],\"allowed_domains\":[]}");
    free(s);
    s = json_dumps(json_array_get(list, 19), JSON_COMPACT);
    CHECK_STR(s, "{\"name\":\"anti_leech\",\"type\":\"advanced1\",\"enable\":0,\"action\":\"block\","
                 "\"allowed_domains\":[],\"allow_empty\":1}");
    free(s);
    json_decref(view);
    json_decref(cfg);
}

TEST(validators)
{
    json_t *cfg = waf_owasp_default();
    static const struct {
        const char *key, *body, *msg;
    } bad[] = {
        {NULL, "{}", "body: must be an object holding at least one OWASP key"},
        {NULL, "[]", "body: must be an object holding at least one OWASP key"},
        {NULL, "{\"nosuch\":{}}", "nosuch: is not an OWASP key"},
        {NULL, "{\"whitelist_bypass\":{\"enable\":0}}", "whitelist_bypass: is read only"},
        {NULL, "{\"anti_leech\":{\"enable\":1}}",
         "anti_leech: is set through PUT .../owasp/action-switch/anti_leech"},
        {NULL, "{\"csrf\":{\"enable\":1}}", "csrf: is set through PUT .../owasp/action-switch/csrf"},
        {NULL, "{\"xss\":1}", "xss: must be an object"},
        {NULL, "{\"xss\":{\"enable\":2}}", "xss.enable: must be 0 or 1"},
        {NULL, "{\"xss\":{\"action\":\"drop\"}}", "xss.action: must be block or log"},
        {NULL, "{\"xss\":{\"level\":1}}", "xss.level: is not a member of a general configuration"},
        {NULL, "{\"encryption\":{\"action\":\"log\"}}",
         "encryption.action: is not a member of a simple1 configuration"},
        {NULL, "{\"unvalidated_redirects\":{\"allowed_domains\":[]}}",
         "unvalidated_redirects.allowed_domains: is not a member of a simple2 configuration"},
        {"xss", "{}", "key: must be anti_leech, csrf or unvalidated_redirects"},
        {"whitelist_bypass", "{}", "key: must be anti_leech, csrf or unvalidated_redirects"},
        {"anti_leech", "[1]", "body: must be an object"},
        {"anti_leech", "{\"allowed_domains\":\"a.example\"}",
         "allowed_domains: must be an array of at most 64 domain names"},
        {"anti_leech", "{\"allowed_domains\":[\"a..example\"]}", NULL},
        {"anti_leech", "{\"allowed_domains\":[3]}", "allowed_domains[0]: must be a string"},
        {"anti_leech", "{\"allow_empty\":\"1\"}", "allow_empty: must be an integer (0 or 1)"},
        {"anti_leech", "{\"paths\":[]}", "paths: is not a member of a advanced1 configuration"},
        {"csrf", "{\"allow_empty\":1}", "allow_empty: is not a member of a advanced2 configuration"},
        {"csrf", "{\"paths\":[\"api\"]}",
         "paths[0]: must be a path prefix starting with '/', 1 to 256 printable characters without spaces"},
        {"csrf", "{\"paths\":[\"/a b\"]}",
         "paths[0]: must be a path prefix starting with '/', 1 to 256 printable characters without spaces"},
        {"csrf", "{\"methods\":[]}", "methods: must be an array of 1 to 4 of POST, PUT, PATCH, DELETE"},
        {"csrf", "{\"methods\":[\"GET\"]}", "methods[0]: must be one of POST, PUT, PATCH, DELETE, once"},
        {"csrf", "{\"methods\":[\"post\",\"POST\"]}",
         "methods[1]: must be one of POST, PUT, PATCH, DELETE, once"},
    };
    json_t *before = json_deep_copy(cfg);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *m = apply(cfg, bad[i].key, bad[i].body);
        if (bad[i].msg)
            CHECK_STR(m, bad[i].msg);
        else
            CHECK(strncmp(m, "allowed_domains[0]: ", 20) == 0);
    }
    /* all or nothing: a good key before a bad one changes nothing */
    CHECK(*apply(cfg, NULL, "{\"sql_injection\":{\"enable\":0},\"xss\":{\"action\":\"x\"}}"));
    CHECK(json_equal(cfg, before));
    /* good bodies */
    CHECK_STR(apply(cfg, NULL,
                    "{\"xss\":{\"action\":\"log\"},\"encryption\":{\"enable\":1},"
                    "\"unvalidated_redirects\":{\"enable\":1,\"action\":\"log\"}}"),
              "");
    CHECK_STR(apply(cfg, "anti_leech",
                    "{\"enable\":1,\"allowed_domains\":[\"*.CDN.example\",\"bücher.example\"],"
                    "\"allow_empty\":0}"),
              "");
    CHECK_STR(apply(cfg, "csrf", "{\"enable\":1,\"paths\":[\"/api/\"],\"methods\":[\"delete\",\"post\"]}"),
              "");
    CHECK_STR(apply(cfg, "unvalidated_redirects", NULL), ""); /* no body: no change */
    json_t *a = json_object_get(cfg, "attacks");
    CHECK_STR(json_string_value(json_object_get(json_object_get(a, "xss"), "action")), "log");
    CHECK_INT(json_integer_value(json_object_get(json_object_get(a, "xss"), "enable")), 1);
    CHECK_STR(json_string_value(json_object_get(json_object_get(a, "unvalidated_redirects"), "action")),
              "log");
    char *s = json_dumps(json_object_get(a, "anti_leech"), JSON_COMPACT);
    CHECK_STR(s, "{\"enable\":1,\"action\":\"block\",\"allowed_domains\":[\"*.cdn.example\","
                 "\"xn--bcher-kva.example\"],\"allow_empty\":0}");
    free(s);
    s = json_dumps(json_object_get(json_object_get(a, "csrf"), "methods"), JSON_COMPACT);
    CHECK_STR(s, "[\"POST\",\"DELETE\"]");
    free(s);
    json_decref(before);
    json_decref(cfg);
}

TEST(render_text)
{
    json_t *cfg = waf_owasp_default();
    CHECK_STR(apply(cfg, NULL,
                    "{\"xss\":{\"enable\":0},\"sql_injection\":{\"action\":\"log\"},"
                    "\"web_scanner\":{\"action\":\"log\"}}"),
              "");
    const char *wl[] = {"192.0.2.0/24", "2001:db8::1"};
    struct waf_owasp_site s = {"www.example.com", 443, wl, 2};
    char *t = waf_owasp_render(cfg, &s, err, sizeof err);
    CHECK(t && strstr(t, "SecRule REMOTE_ADDR \"@ipMatch 192.0.2.0/24,2001:db8::1\" \"id:20000,phase:1,"
                         "pass,nolog,t:none,ctl:ruleEngine=Off\"\n"));
    CHECK(t && strstr(t, "# xss: off (REQUEST-941-APPLICATION-ATTACK-XSS.conf)\n"
                         "SecRuleRemoveById 941000-941999\n"));
    /* keys in log mode are flagged for the shared decision (the leak keys log by default) */
    CHECK(t && strstr(t, "SecAction \"id:20001,phase:1,pass,nolog,t:none,setvar:tx.parapet_log_sql_injection=1,"
                         "setvar:tx.parapet_log_components_leak=1,setvar:tx.parapet_log_sensitive_leak=1,"
                         "setvar:tx.parapet_log_web_scanner=1\"\n"));
    CHECK(t && !strstr(t, "949110"));
    free(t);
    t = waf_owasp_render_shared();
    CHECK(t && strstr(t, "SecRuleUpdateActionById 913100-913120 "
                         "\"setvar:'tx.parapet_cnt_web_scanner=+%{tx.critical_anomaly_score}'\"\n"));
    CHECK(t && strstr(t, "SecRuleRemoveById 949110\nSecAction \"id:20190,phase:2,pass,nolog,t:none,"
                         "setvar:'tx.parapet_inbound=%{tx.anomaly_score}'\"\n"));
    CHECK(t && strstr(t, "SecRule TX:parapet_log_sql_injection \"@eq 1\" \"id:20156,phase:2,pass,nolog,t:none,"
                         "setvar:'tx.parapet_inbound=-%{tx.sql_injection_score}'\"\n"));
    CHECK(t && strstr(t, "SecRuleRemoveById 959100\n"));
    free(t);
    const char *badwl[] = {"nonsense"};
    s.whitelist = badwl;
    s.whitelist_len = 1;
    CHECK(waf_owasp_render(cfg, &s, err, sizeof err) == NULL);
    CHECK_STR(err, "whitelist[0]: must be an IP address or CIDR block (not /0)");
    json_decref(cfg);
}

TEST(crs_defaults_block)
{
    if (!have_crs())
        return;
    json_t *cfg = waf_owasp_default();
    RulesSet *rs = rendered(cfg, &site);
    CHECK_INT(run(rs, (struct req){.uri = "/index.html"}), 0);
    CHECK_INT(run(rs, (struct req){.uri = XSS}), 403);
    CHECK_INT(run(rs, (struct req){.uri = SQLI}), 403);
    CHECK_INT(run(rs, (struct req){.uri = "/", .h = {{"User-Agent", "nikto"}}}), 403);
    /* parapet's own rules for keys the CRS lacks */
    CHECK_INT(run(rs, (struct req){.uri = "/?x=%3C!--%23echo%20var=x--%3E"}), 403);
    CHECK_INT(run(rs, (struct req){.uri = "/?x=%3Ccfexecute%20name=x%3E"}), 403);
    CHECK_INT(run(rs, (struct req){.uri = "/?m=hi%0d%0aBcc:%20a@example.com"}), 403);
    msc_rules_cleanup(rs);
    json_decref(cfg);
}

TEST(crs_off_and_log_modes)
{
    if (!have_crs())
        return;
    json_t *cfg = waf_owasp_default();
    CHECK_STR(apply(cfg, NULL,
                    "{\"xss\":{\"enable\":0},\"web_scanner\":{\"action\":\"log\"},"
                    "\"ssi\":{\"action\":\"log\"}}"),
              "");
    RulesSet *rs = rendered(cfg, &site);
    CHECK_INT(run(rs, (struct req){.uri = XSS}), 0);
    CHECK_INT(run(rs, (struct req){.uri = SQLI}), 403);
    CHECK_INT(run(rs, (struct req){.uri = "/", .h = {{"User-Agent", "nikto"}}}), 0);
    CHECK_INT(run(rs, (struct req){.uri = "/?x=%3C!--%23echo%20var=x--%3E"}), 0);
    msc_rules_cleanup(rs);

    CHECK_STR(apply(cfg, NULL, "{\"xss\":{\"enable\":1,\"action\":\"log\"}}"), "");
    rs = rendered(cfg, &site);
    CHECK_INT(run(rs, (struct req){.uri = XSS}), 0);    /* logged only */
    CHECK_INT(run(rs, (struct req){.uri = SQLI}), 403); /* still blocked */
    /* a scanner in log mode takes nothing away from a blocking group */
    CHECK_INT(run(rs, (struct req){.uri = SQLI, .h = {{"User-Agent", "nikto"}}}), 403);
    msc_rules_cleanup(rs);

    json_object_set_new(cfg, "enable", json_integer(0));
    rs = rendered(cfg, &site);
    CHECK_INT(run(rs, (struct req){.uri = SQLI}), 0);
    msc_rules_cleanup(rs);
    json_decref(cfg);
}

TEST(crs_advanced_keys)
{
    if (!have_crs())
        return;
    json_t *cfg = waf_owasp_default();
    CHECK_STR(
        apply(cfg, "anti_leech", "{\"enable\":1,\"allowed_domains\":[\"*.cdn.example\"],\"allow_empty\":0}"),
        "");
    CHECK_STR(
        apply(cfg, "csrf", "{\"enable\":1,\"paths\":[\"/api/\"],\"allowed_domains\":[\"app.example\"]}"), "");
    CHECK_STR(apply(cfg, "unvalidated_redirects", "{\"enable\":1,\"allowed_domains\":[\"login.example\"]}"),
              "");
    CHECK_STR(apply(cfg, NULL, "{\"port_security\":{\"enable\":1}}"), "");
    const char *wl[] = {"192.0.2.0/24"};
    struct waf_owasp_site s = {"www.example.com", 443, wl, 1};
    RulesSet *rs = rendered(cfg, &s);
    const char *own = "https://www.example.com/page";
    CHECK_INT(run(rs, (struct req){.uri = "/img.png", .h = {{"Referer", own}}}), 0);
    CHECK_INT(run(rs, (struct req){.uri = "/img.png", .h = {{"Referer", "http://a.b.cdn.example:8080/x"}}}),
              0);
    CHECK_INT(run(rs, (struct req){.uri = "/img.png", .h = {{"Referer", "https://evil.test/"}}}), 403);
    CHECK_INT(
        run(rs, (struct req){.uri = "/img.png", .h = {{"Referer", "https://www.example.com.evil.test/"}}}),
        403);
    CHECK_INT(
        run(rs, (struct req){.uri = "/img.png", .h = {{"Referer", "https://www.example.com@evil.test/"}}}),
        403);
    CHECK_INT(run(rs, (struct req){.uri = "/img.png", .h = {{"Referer", "https://cdn.example/"}}}),
              403);                                           /* *.x is subdomains only */
    CHECK_INT(run(rs, (struct req){.uri = "/img.png"}), 403); /* allow_empty 0 */
    /* csrf: foreign Origin on a protected path and method */
    CHECK_INT(run(rs, (struct req){.method = "POST",
                                   .uri = "/api/x",
                                   .h = {{"Referer", own}, {"Origin", "https://evil.test"}}}),
              403);
    CHECK_INT(run(rs, (struct req){.method = "POST",
                                   .uri = "/api/x",
                                   .h = {{"Referer", own}, {"Origin", "https://app.example"}}}),
              0);
    CHECK_INT(run(rs, (struct req){.method = "POST",
                                   .uri = "/other",
                                   .h = {{"Referer", own}, {"Origin", "https://evil.test"}}}),
              0);
    CHECK_INT(run(rs, (struct req){.method = "GET",
                                   .uri = "/api/x",
                                   .h = {{"Referer", own}, {"Origin", "https://evil.test"}}}),
              0);
    /* redirects */
    CHECK_INT(run(rs, (struct req){.uri = "/", .h = {{"Referer", own}}, .location = "https://evil.test/"}),
              403);
    CHECK_INT(run(rs, (struct req){.uri = "/", .h = {{"Referer", own}}, .location = "//evil.test/"}), 403);
    CHECK_INT(
        run(rs, (struct req){.uri = "/", .h = {{"Referer", own}}, .location = "https://login.example/a"}), 0);
    CHECK_INT(run(rs, (struct req){.uri = "/", .h = {{"Referer", own}}, .location = "/relative"}), 0);
    /* port_security */
    CHECK_INT(run(rs, (struct req){.uri = "/", .host = "www.example.com:8080", .h = {{"Referer", own}}}),
              400);
    CHECK_INT(run(rs, (struct req){.uri = "/", .host = "www.example.com:443", .h = {{"Referer", own}}}), 0);
    /* white-listed addresses skip everything */
    CHECK_INT(run(rs, (struct req){.uri = XSS, .ip = "192.0.2.7"}), 0);
    msc_rules_cleanup(rs);
    json_decref(cfg);
}

UNIT_MAIN(UNIT_CASE(table_and_defaults), UNIT_CASE(validators), UNIT_CASE(render_text),
          UNIT_CASE(crs_defaults_block), UNIT_CASE(crs_off_and_log_modes), UNIT_CASE(crs_advanced_keys))
