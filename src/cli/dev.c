/* dev.c — `parapet serve --dev`: on first start, a portal with a portal app,
 * an installed app, two customers (the installed app installed for the
 * first), and the documentation ASNs (RFC 5398) with documentation prefixes
 * (RFC 5737, RFC 3849). The credentials are kept in DIR/dev-credentials.json
 * (dev only: the store itself keeps only digests) and printed on every start
 * with curl lines that work as they are. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/accounts.h"
#include "cli/cli.h"
#include "cli/dev_cp.h"
#include "cli/dev_op.h"
#include "server/tls.h"

#define DEV_HOST_URL "https://app.example.test"

static const struct {
    long long asn;
    const char *prefix;
} dev_asns[] = {
    {64496, "192.0.2.0/24"},       {64496, "2001:db8::/33"},  {64497, "198.51.100.0/24"},
    {64497, "2001:db8:8000::/33"}, {64498, "203.0.113.0/24"},
};

static const char *get(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static json_t *seed(struct store *s, struct account_error *e)
{
    json_t *portal = account_portal_create(s, "Dev Portal", e);
    if (!portal)
        return NULL;
    const char *pid = get(portal, "portal_id");
    struct app_request pa = {.kind = "portal", .portal_id = pid, .name = "Dev Portal App"};
    struct app_request ia = {.kind = "installed", .name = "Dev Installed App", .host_url = DEV_HOST_URL};
    struct customer_request c1 = {.portal_id = pid,
                                  .name = "Example Customer One",
                                  .email = "one@example.com",
                                  .company = "Example One Ltd",
                                  .phone = "+1-555-0100",
                                  .address = "1 Example Road",
                                  .website = "https://one.example.com"};
    struct customer_request c2 = {
        .portal_id = pid, .name = "Example Customer Two", .email = "two@example.com", .services = "op,dns"};
    json_t *papp = account_app_create(s, &pa, e), *iapp = papp ? account_app_create(s, &ia, e) : NULL;
    json_t *cust1 = iapp ? account_customer_create(s, &c1, e) : NULL;
    json_t *cust2 = cust1 ? account_customer_create(s, &c2, e) : NULL;
    json_t *inst = cust2 ? account_install(s, get(iapp, "app_id"), get(cust1, "customer_id"), e) : NULL;
    json_t *out = NULL;
    if (inst && s->ops->begin(s, true) == STORE_OK) {
        bool ok = true;
        for (size_t i = 0; ok && i < sizeof dev_asns / sizeof dev_asns[0]; i++)
            ok = account_asn_add(s, dev_asns[i].asn, dev_asns[i].prefix, -1, "dev", e) == 0;
        ok = ok && dev_cp_seed(s, get(cust1, "customer_id"), e) == 0;
        ok = ok && dev_op_seed(s, get(cust1, "customer_id"), e) == 0;
        if (ok && s->ops->commit(s) == STORE_OK)
            out = json_pack("{s:O,s:O,s:O,s:s,s:O,s:O,s:O}", "portal", portal, "portal_app", papp,
                            "installed_app", iapp, "installed_app_host_url", DEV_HOST_URL, "customer_1",
                            cust1, "customer_2", cust2, "installation", inst);
        else
            s->ops->rollback(s);
    }
    json_decref(portal);
    json_decref(papp);
    json_decref(iapp);
    json_decref(cust1);
    json_decref(cust2);
    json_decref(inst);
    return out;
}

static void print_credentials(const struct server_config *cfg, json_t *d)
{
    char base[128];
    bool v6 = strchr(cfg->listen_host, ':') != NULL;
    const char *host = strcmp(cfg->listen_host, "0.0.0.0") == 0 ? "127.0.0.1" : cfg->listen_host;
    snprintf(base, sizeof base, "%s://%s%s%s:%d", cfg->plain_http ? "http" : "https", v6 ? "[" : "", host,
             v6 ? "]" : "", cfg->listen_port);
    json_t *pa = json_object_get(d, "portal_app"), *ia = json_object_get(d, "installed_app");
    const char *c1 = get(json_object_get(d, "customer_1"), "customer_id");
    const char *c2 = get(json_object_get(d, "customer_2"), "customer_id");
    const char *xspe = get(json_object_get(d, "installation"), "xspe");
    const char *k = cfg->plain_http ? "" : "k";
    printf("\nparapet dev server: %s   (credentials kept in %s/dev-credentials.json)\n\n"
           "  portal            %s\n"
           "  portal app        app_id=%s  secret=%s\n"
           "  installed app     app_id=%s  secret=%s  host %s\n"
           "  customer 1        %s  (the installed app is installed here: xspe=%s)\n"
           "  customer 2        %s  (services op,dns)\n"
           "  ASNs              AS64496 192.0.2.0/24 2001:db8::/33, AS64497 198.51.100.0/24 "
           "2001:db8:8000::/33, AS64498 203.0.113.0/24\n\n",
           base, cfg->data_dir, get(json_object_get(d, "portal"), "portal_id"), get(pa, "app_id"),
           get(pa, "secret"), get(ia, "app_id"), get(ia, "secret"), get(d, "installed_app_host_url"), c1,
           xspe, c2);
    if (!cfg->console_off)
        printf("Web console: open %s/console/ and sign in with the portal app's app_id and secret\n"
               "(the browser asks you to accept the self-signed certificate first).\n\n",
               base);
    printf(
        "Portal app: get a token, then list the portal's customers:\n"
        "  TOKEN=$(curl -s%s %s/oauth/credit/token -d app_id=%s -d secret=%s -d grant_type=client_credential"
        " | sed -n 's/.*\"access_token\":\"\\([0-9a-f]*\\)\".*/\\1/p')\n"
        "  curl -s%s \"%s/api/spe/customers?access_token=$TOKEN\"\n\n",
        k, base, get(pa, "app_id"), get(pa, "secret"), k, base);
    printf(
        "Installed app: connect (the code comes back on the redirect), exchange it, read the customer:\n"
        "  CODE=$(curl -s%s -o /dev/null -w '%%{redirect_url}' \"%s/oauth/connect?app_id=%s"
        "&redirect_uri=%s/callback&response_type=code&scope=install_login&xspe=%s&state=xyz&customer_id=%s\""
        " | sed -n 's/.*code=\\([0-9a-f]*\\).*/\\1/p')\n"
        "  APP_TOKEN=$(curl -s%s %s/oauth/access_token -d app_id=%s -d secret=%s -d code=$CODE"
        " -d grant_type=authorization_code | sed -n 's/.*\"access_token\":\"\\([0-9a-f]*\\)\".*/\\1/p')\n"
        "  curl -s%s \"%s/api/spe/customer/%s?access_token=$APP_TOKEN\"\n\n"
        "The same token manages the customer's DNS zones (deployed to a Knot DNS config in DATA/knot):\n"
        "  curl -s%s -X POST \"%s/api/specp/dp/v2/zones/standard?access_token=$APP_TOKEN\""
        " -H 'Content-Type: application/json' -d '{\"zone_name\":\"example.com\",\"enable_dnssec\":true}'\n"
        "  curl -s%s \"%s/api/specp/dp/v2/zones?page_index=1&access_token=$APP_TOKEN\"\n\n",
        k, base, get(ia, "app_id"), get(d, "installed_app_host_url"), xspe, c1, k, base, get(ia, "app_id"),
        get(ia, "secret"), k, base, c1, k, base, k, base);
    printf("Origin Protection and CleanPipe are rendered for FastNetMon (detection; NetFlow on 127.0.0.1:2055)\n"
           "and BIRD (diversions, FlowSpec) in %s/fastnetmon and %s/bird; run them on it with\n"
           "  fastnetmon --configuration_file %s/fastnetmon/fastnetmon.conf --log_file %s/fastnetmon/fnm.log\n"
           "  bird -f -c %s/bird/bird.conf -s %s/bird/bird.ctl    (parapet tells it each change)\n\n",
           cfg->data_dir, cfg->data_dir, cfg->data_dir, cfg->data_dir, cfg->data_dir, cfg->data_dir);
    fflush(stdout);
}

static void save(const char *path, json_t *d)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char *text = json_dumps(d, JSON_INDENT(2));
    if (fd < 0 || !text || write(fd, text, strlen(text)) < 0)
        fprintf(stderr, "parapet: --dev: could not write %s\n", path);
    if (fd >= 0)
        close(fd);
    free(text);
}

int dev_seed_and_print(const struct server_config *cfg)
{
    char path[4096];
    data_path(path, sizeof path, cfg->data_dir, "dev-credentials.json");
    json_t *d = json_load_file(path, 0, NULL);
    if (!d) {
        struct store *s = cli_open_store(cfg->data_dir);
        struct account_error e;
        if (!s || !(d = seed(s, &e))) {
            fprintf(stderr, "parapet: --dev: could not seed the data directory: %s\n", s ? e.message : "");
            if (s)
                s->ops->close(s);
            return -1;
        }
        dev_ap_seed(s, cfg->data_dir, get(json_object_get(d, "customer_1"), "customer_id"));
        s->ops->close(s);
        save(path, d);
    }
    if (dev_telemetry_seed(cfg->data_dir, d) > 0)
        save(path, d);
    print_credentials(cfg, d);
    json_decref(d);
    return 0;
}
