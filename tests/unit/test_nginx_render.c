/* test_nginx_render.c — an Application Protection site as nginx
 * configuration (dataplane/nginx/nginx_render.h), its listens, and the
 * AppShield lists as CIDR blocks (nginx_ipset.h). */
#include <stdlib.h>
#include <string.h>

#include "dataplane/nginx/nginx_ipset.h"
#include "dataplane/nginx/nginx_render.h"
#include "unit/unit.h"

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    if (!v)
        fprintf(stderr, "  bad JSON in test: %s (line %d)\n", e.text, e.line);
    return v;
}

static const struct nginx_settings settings = {
    .dir = "/srv/ngx",
    .keys_dir = "/srv/data/ap-keys",
    .port_offset = 20000,
    .map = {{"203.0.113.77", "127.0.0.2"}},
    .n_map = 1,
    .listen_map = {{"192.0.2.240/28", "127.0.2.240/28"}},
    .n_listen_map = 1,
};

/* A site with one domain: HTTP 80 redirected to HTTPS 443 with HTTP/2, a
 * certificate, AppShield lists and an overwrite, a custom rule, standard
 * secure headers; a second HTTP port 8080 of its own with the WAF off. */
#define SITE                                                                                                \
    "{\"rid\": 7, \"id\": \"5173e0c1a2b3c4d5\", \"customer_id\": \"c0ffee0000000001\", \"name\": \"Shop\","  \
    " \"doc\": {\"backend_type\": 0, \"backend_ip\": [\"203.0.113.77\", \"198.51.100.7\"], \"vip\": "          \
    "[\"192.0.2.243\"], \"vip_v6\": [\"2001:db8:f1::3\"], \"switch\": {\"appshield\": 1, \"cache\": 0, "    \
    "\"waf\": 1, \"netshield\": 1}},"                                                                       \
    " \"appshield\": null, \"waf\": null, \"rules\": [],"                                                   \
    " \"domains\": [{\"rid\": 8, \"id\": \"d000000000000001\", \"name\": \"shop.example\", \"doc\": "          \
    "{\"http2\": 1, \"redirects\": [{\"http_port\": 80, \"https_port\": 443}], \"cert\": {\"key_id\": "       \
    "\"domain-d000000000000001-0a0b0c0d\", \"chain\": \"-----BEGIN CERTIFICATE-----\\n...\\n\"}},"         \
    "  \"ports\": ["                                                                                         \
    "   {\"rid\": 9, \"id\": \"p000000000000080\", \"doc\": {\"port\": 80, \"scheme\": \"http\"},"           \
    "    \"appshield\": null, \"waf\": null, \"rules\": []},"                                               \
    "   {\"rid\": 10, \"id\": \"p000000000000443\", \"doc\": {\"port\": 443, \"scheme\": \"https\"},"        \
    "    \"appshield\": {\"ip_black_list\": [\"198.51.100.66\", \"198.51.100.80-198.51.100.90\"],"          \
    "     \"ip_white_list\": [\"203.0.113.9\"], \"status_codes\": [{\"error_code\": 500, "                  \
    "\"error_code_rewrite\": 503, \"error_page_type\": \"1\", \"error_page_info\": \"\"}, {\"error_code\": "  \
    "404, \"error_code_rewrite\": 200, \"error_page_type\": \"2\", \"error_page_info\": "                   \
    "\"https://help.example/a$b\"}]},"                                                                     \
    "    \"waf\": {\"secure_headers\": {\"status\": 1, \"mode\": \"low\"}},"                                \
    "    \"rules\": [{\"rule_name\": \"no admin\", \"description\": \"\", \"enable\": 1, \"slot\": 3, "      \
    "\"conditions\": [{\"field\": \"path\", \"operator\": \"begins_with\", \"value\": \"/admin\", "          \
    "\"negate\": 0, \"ignore_case\": 0}], \"action\": \"block\", \"status\": 451}]},"                        \
    "   {\"rid\": 11, \"id\": \"p000000000008080\", \"doc\": {\"port\": 8080, \"scheme\": \"http\", "         \
    "\"is_derived\": 1, \"switch\": {\"appshield\": 0, \"cache\": 0, \"waf\": 0}},"                         \
    "    \"appshield\": null, \"waf\": null, \"rules\": []}]}]}"

static const char *file_text(json_t *files, const char *prefix, const char **name)
{
    const char *k;
    json_t *v;
    json_object_foreach (files, k, v) {
        if (strncmp(k, prefix, strlen(prefix)) == 0) {
            *name = k;
            return json_string_value(json_object_get(v, "text"));
        }
    }
    return NULL;
}

TEST(site_fragment)
{
    json_t *site = parse(SITE), *listens = json_object(), *files = json_object();
    char err[256] = "";
    CHECK(nginx_listens_claim(listens, site, &settings, err, sizeof err) == 0);
    char *t = nginx_site_render(site, &settings, listens, files, err, sizeof err);
    const char *modsec = NULL, *rules = file_text(files, "modsec/", &modsec);
    CHECK(rules != NULL);
    char want_rules_line[128];
    snprintf(want_rules_line, sizeof want_rules_line, "    modsecurity_rules_file /srv/ngx/%s;\n", modsec ? modsec : "");
    char *want = NULL;
    if (asprintf(&want,
                 "# site 5173e0c1a2b3c4d5 \"Shop\" of customer c0ffee0000000001\n"
                 "upstream parapet_5173e0c1a2b3c4d5_80 {\n"
                 "    server 127.0.0.2:20080;\n"
                 "    server 198.51.100.7:80;\n"
                 "    keepalive 16;\n"
                 "}\n"
                 "upstream parapet_5173e0c1a2b3c4d5_443 {\n"
                 "    server 127.0.0.2:20443;\n"
                 "    server 198.51.100.7:443;\n"
                 "    keepalive 16;\n"
                 "}\n"
                 "upstream parapet_5173e0c1a2b3c4d5_8080 {\n"
                 "    server 127.0.0.2:28080;\n"
                 "    server 198.51.100.7:8080;\n"
                 "    keepalive 16;\n"
                 "}\n"
                 "# domain shop.example, HTTP port 80 (domain port p000000000000080)\n"
                 "server {\n"
                 "    listen 127.0.2.243:20080;\n"
                 "    server_name shop.example;\n"
                 "    modsecurity off;\n"
                 "    return 301 https://$host$request_uri;\n"
                 "}\n"
                 "# domain shop.example, HTTPS port 443 (domain port p000000000000443)\n"
                 "server {\n"
                 "    listen 127.0.2.243:20443 ssl http2;\n"
                 "    server_name shop.example;\n"
                 "    ssl_certificate /srv/ngx/tls/domain-d000000000000001-0a0b0c0d.crt;\n"
                 "    ssl_certificate_key /srv/ngx/tls/domain-d000000000000001-0a0b0c0d.key;\n"
                 "    server_tokens off;\n"
                 "    proxy_hide_header X-Powered-By;\n"
                 "    deny 198.51.100.66;\n"
                 "    deny 198.51.100.80/29;\n"
                 "    deny 198.51.100.88/31;\n"
                 "    deny 198.51.100.90;\n"
                 "    modsecurity on;\n"
                 "    modsecurity_transaction_id \"p000000000000443-$request_id\";\n"
                 "%s"
                 "    add_header X-Frame-Options \"SAMEORIGIN\" always;\n"
                 "    add_header X-Content-Type-Options \"nosniff\" always;\n"
                 "    add_header Referrer-Policy \"strict-origin-when-cross-origin\" always;\n"
                 "    proxy_intercept_errors on;\n"
                 "    error_page 500 =503 /.parapet/status/500;\n"
                 "    location = /.parapet/status/500 {\n"
                 "        internal;\n"
                 "        modsecurity off;\n"
                 "        default_type text/html;\n"
                 "        return 503 \"<!DOCTYPE html><html><head><title>503</title></head><body "
                 "style='font-family:sans-serif;text-align:center;margin-top:15%%'><h1>503</h1><p>This request "
                 "could not be served. Reference: $request_id</p></body></html>\\n\";\n"
                 "    }\n"
                 "    error_page 404 =302 \"https://help.example/a%%24b\";\n"
                 "    location / {\n"
                 "        proxy_pass https://parapet_5173e0c1a2b3c4d5_443;\n"
                 "        proxy_http_version 1.1;\n"
                 "        proxy_set_header Connection \"\";\n"
                 "        proxy_set_header Host $host;\n"
                 "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
                 "        proxy_set_header X-Forwarded-Proto $scheme;\n"
                 "        proxy_ssl_server_name on;\n"
                 "        proxy_ssl_name $host;\n"
                 "    }\n"
                 "}\n"
                 "# domain shop.example, HTTP port 8080 (domain port p000000000008080)\n"
                 "server {\n"
                 "    listen 127.0.2.243:28080;\n"
                 "    server_name shop.example;\n"
                 "    modsecurity off;\n"
                 "    location / {\n"
                 "        proxy_pass http://parapet_5173e0c1a2b3c4d5_8080;\n"
                 "        proxy_http_version 1.1;\n"
                 "        proxy_set_header Connection \"\";\n"
                 "        proxy_set_header Host $host;\n"
                 "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
                 "        proxy_set_header X-Forwarded-Proto $scheme;\n"
                 "    }\n"
                 "}\n",
                 want_rules_line) < 0)
        want = NULL;
    CHECK_STR(t, want);
    /* the domain port's ModSecurity file: the white list skips the WAF, then the custom rule */
    CHECK(rules && strstr(rules, "SecRule REMOTE_ADDR \"@ipMatch 203.0.113.9\" \"id:20000,"));
    CHECK(rules && strstr(rules, "# custom rule no admin\nSecRule ") && strstr(rules, "id:10003,"));
    CHECK(rules && strstr(rules, "deny,status:451"));
    /* the certificate's files: the chain, and a 0600 copy of the key */
    json_t *crt = json_object_get(files, "tls/domain-d000000000000001-0a0b0c0d.crt");
    json_t *key = json_object_get(files, "tls/domain-d000000000000001-0a0b0c0d.key");
    CHECK_STR(json_string_value(json_object_get(crt, "text")), "-----BEGIN CERTIFICATE-----\n...\n");
    CHECK_STR(json_string_value(json_object_get(key, "copy")),
              "/srv/data/ap-keys/domain-d000000000000001-0a0b0c0d.key");
    CHECK_INT(json_integer_value(json_object_get(key, "mode")), 0600);
    /* deterministic */
    json_t *files2 = json_object();
    char *again = nginx_site_render(site, &settings, listens, files2, err, sizeof err);
    CHECK_STR(again, t);
    CHECK(json_equal(files, files2));
    free(again);
    free(want);
    free(t);
    json_decref(files2);
    json_decref(files);
    json_decref(listens);
    json_decref(site);
}

TEST(listens_shared)
{
    /* one listen address for all: HTTP/2 only when every server there has it;
     * a port HTTP for one domain and HTTPS for another refuses the later site */
    struct nginx_settings st = settings;
    st.listen = "127.0.0.1";
    st.n_listen_map = 0;
    json_t *a = parse(SITE), *listens = json_object();
    char err[256] = "";
    CHECK(nginx_listens_claim(listens, a, &st, err, sizeof err) == 0);
    CHECK(json_is_true(json_object_get(json_object_get(listens, "127.0.0.1:20443"), "h2")));
    json_t *b = json_deep_copy(a);
    json_t *bd = json_object_get(json_array_get(json_object_get(b, "domains"), 0), "doc");
    json_object_set_new(bd, "http2", json_integer(0));
    CHECK(nginx_listens_claim(listens, b, &st, err, sizeof err) == 0);
    CHECK(json_is_false(json_object_get(json_object_get(listens, "127.0.0.1:20443"), "h2")));
    /* port 8080 as HTTPS in a third site */
    json_t *c = json_deep_copy(a);
    json_t *p8080 = json_array_get(json_object_get(json_array_get(json_object_get(c, "domains"), 0), "ports"), 2);
    json_object_set_new(json_object_get(p8080, "doc"), "scheme", json_string("https"));
    CHECK(nginx_listens_claim(listens, c, &st, err, sizeof err) == -1);
    CHECK_STR(err, "port 8080 of shop.example is HTTPS, but another domain is served over HTTP on 127.0.0.1:28080");
    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(listens);
}

TEST(no_certificate_no_https)
{
    json_t *site = parse(SITE), *listens = json_object(), *files = json_object();
    json_t *d = json_object_get(json_array_get(json_object_get(site, "domains"), 0), "doc");
    json_object_del(d, "cert");
    char err[256] = "";
    CHECK(nginx_listens_claim(listens, site, &settings, err, sizeof err) == 0);
    char *t = nginx_site_render(site, &settings, listens, files, err, sizeof err);
    CHECK(t && !strstr(t, " ssl") && !strstr(t, "return 301")); /* no HTTPS, so no redirect either */
    CHECK(t && strstr(t, "# domain shop.example, HTTP port 80 (domain port p000000000000080)\nserver {\n"
                         "    listen 127.0.2.243:20080;\n    server_name shop.example;\n"
                         "    server_tokens off;\n"));
    free(t);
    json_decref(files);
    json_decref(listens);
    json_decref(site);
}

/* A stored value that could end a token, a directive or a line where it
 * would be written makes the site refused, never rendered. */
TEST(values_sites_conf_cannot_carry_refuse_the_site)
{
    static const struct {
        const char *path[3]; /* where: site member, or doc member and index, or domain name */
        const char *value, *why;
    } cases[] = {
        {{"name"}, "Shop\nserver { listen 9; }", "the site's name"},
        {{"name"}, "Shop\r", "the site's name"},
        {{"doc", "backend_ip"}, "203.0.113.77; return 200", "an address of the site"},
        {{"doc", "vip"}, "192.0.2.243:1 ssl", "an address of the site"},
        {{"doc", "backend_host"}, "origin.example;", "a backend host name"},
        {{"domain"}, "shop.example; server_name evil.example", "a domain name"},
        {{"domain"}, "shop.example}", "a domain name"},
        {{"domain"}, "$host", "a domain name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *site = parse(SITE), *files = json_object();
        json_t *doc = json_object_get(site, "doc");
        if (!strcmp(cases[i].path[0], "name"))
            json_object_set_new(site, "name", json_string(cases[i].value));
        else if (!strcmp(cases[i].path[0], "domain"))
            json_object_set_new(json_array_get(json_object_get(site, "domains"), 0), "name",
                                json_string(cases[i].value));
        else
            json_object_set_new(doc, cases[i].path[1], json_pack("[s]", cases[i].value));
        char err[256] = "", want[256];
        json_t *listens = json_object();
        CHECK(nginx_site_render(site, &settings, listens, files, err, sizeof err) == NULL);
        snprintf(want, sizeof want, "%s holds a character sites.conf cannot carry", cases[i].why);
        CHECK_STR(err, want);
        json_decref(listens);
        json_decref(files);
        json_decref(site);
    }
    /* a custom rule's name is a comment line too */
    json_t *site = parse(SITE), *files = json_object(), *listens = json_object();
    json_t *port = json_array_get(json_object_get(json_array_get(json_object_get(site, "domains"), 0), "ports"), 1);
    json_object_set_new(json_array_get(json_object_get(port, "rules"), 0), "rule_name",
                        json_string("x\nSecRuleEngine Off"));
    char err[256] = "";
    CHECK(nginx_site_render(site, &settings, listens, files, err, sizeof err) == NULL);
    CHECK_STR(err, "a custom rule's name holds a character sites.conf cannot carry");
    json_decref(listens);
    json_decref(files);
    json_decref(site);
}

TEST(ipset_blocks)
{
    json_t *in = parse("[\"192.0.2.1\", \"198.51.100.0/24\", \"203.0.113.1-203.0.113.9\", "
                       "\"2001:db8::1-2001:db8::ff\", \"0.0.0.0-255.255.255.255\", \"nonsense\"]");
    json_t *out = nginx_ipset_blocks(in);
    char *s = json_dumps(out, JSON_COMPACT);
    CHECK_STR(s, "[\"192.0.2.1\",\"198.51.100.0/24\",\"203.0.113.1\",\"203.0.113.2/31\",\"203.0.113.4/30\","
                 "\"203.0.113.8/31\",\"2001:db8::1\",\"2001:db8::2/127\",\"2001:db8::4/126\",\"2001:db8::8/125\","
                 "\"2001:db8::10/124\",\"2001:db8::20/123\",\"2001:db8::40/122\",\"2001:db8::80/121\","
                 "\"0.0.0.0/0\"]");
    free(s);
    json_decref(out);
    json_decref(in);
}

UNIT_MAIN(UNIT_CASE(site_fragment), UNIT_CASE(listens_shared), UNIT_CASE(no_certificate_no_https),
          UNIT_CASE(values_sites_conf_cannot_carry_refuse_the_site), UNIT_CASE(ipset_blocks))
