/* special_changes.c — on PostgreSQL, a write made through one node reaches
 * another node's deployer at once (store/pgsql/changes.c): node A runs the
 * Origin Protection / CleanPipe deployer with an hour between sweeps, node B
 * runs none; a site created through B must be rendered by A within seconds,
 * which only B's announcement can cause. Servers and data directories of
 * their own (the store is the suite's database). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http/harness.h"
#include "http/special.h"

#define FAIL(...) (check_fail("changes between nodes", __VA_ARGS__), 1)

static long post_form(const char *url, const char *form, const char *ca, char *out, size_t size)
{
    struct http_request rq = {.method = "POST", .url = url, .body = form, .body_len = strlen(form), .ca_file = ca};
    rq.headers[rq.nheaders++] = "Content-Type: application/x-www-form-urlencoded";
    struct http_response rs;
    http_do(&rq, &rs);
    snprintf(out, size, "%s", rs.body ? rs.body : "");
    long status = rs.status;
    http_response_free(&rs);
    return status;
}

int changes_between_nodes(struct fixture *fx)
{
    char dir[] = "/tmp/parapet-changes-XXXXXX";
    if (!mkdtemp(dir))
        return FAIL("mkdtemp");
    char data_a[300], data_b[300], log_a[300], log_b[300], opts[1024], url[512], form[512], out[4096];
    snprintf(data_a, sizeof data_a, "%s/a", dir);
    snprintf(data_b, sizeof data_b, "%s/b", dir);
    snprintf(log_a, sizeof log_a, "%s/a.log", dir);
    snprintf(log_b, sizeof log_b, "%s/b.log", dir);
    int bad = 0;
    json_t *portal = admin(fx->bin, data_a, "portal create --name Changes");
    const char *portal_id = json_string_value(json_object_get(portal, "portal_id"));
    json_t *app = admin(fx->bin, data_a, "app create --kind portal --portal %s --name ChangesApp", portal_id);
    json_t *cust = admin(fx->bin, data_a, "customer create --portal %s --name ChangesCustomer --services op", portal_id);
    json_t *asn = admin(fx->bin, data_a, "asn add --asn 64511 --prefix 10.254.0.0/24");
    const char *app_id = json_string_value(json_object_get(app, "app_id"));
    const char *secret = json_string_value(json_object_get(app, "secret"));
    const char *customer = json_string_value(json_object_get(cust, "customer_id"));
    if (!app_id || !secret || !customer || !asn)
        bad |= FAIL("cannot seed");
    int port_a = free_port(), port_b = free_port();
    snprintf(opts, sizeof opts,
             "--tls-cert '%s/tls/cert.pem' --tls-key '%s/tls/key.pem' --no-dns-deploy --no-nginx-deploy "
             "--ddos-deploy-interval 3600",
             fx->data, fx->data);
    pid_t a = bad ? -1 : server_start(fx->bin, data_a, port_a, opts, log_a);
    bad |= !bad && a < 0 ? FAIL("node A did not start") : 0;
    bad |= !bad && !file_says(log_a, 0, "ddos deploy:", 30) ? FAIL("node A's first sweep never came") : 0;
    snprintf(opts, sizeof opts,
             "--tls-cert '%s/tls/cert.pem' --tls-key '%s/tls/key.pem' --no-dns-deploy --no-nginx-deploy "
             "--no-fastnetmon-deploy --no-bird-deploy",
             fx->data, fx->data);
    pid_t b = bad ? -1 : server_start(fx->bin, data_b, port_b, opts, log_b);
    bad |= !bad && b < 0 ? FAIL("node B did not start") : 0;
    char token[128] = "";
    if (!bad) {
        snprintf(url, sizeof url, "https://127.0.0.1:%d/oauth/credit/token", port_b);
        snprintf(form, sizeof form, "app_id=%s&secret=%s&grant_type=client_credential", app_id, secret);
        post_form(url, form, fx->ca_file, out, sizeof out);
        const char *t = strstr(out, "\"access_token\":\"");
        if (t)
            snprintf(token, sizeof token, "%.64s", t + 16);
        bad |= !t ? FAIL("no token from node B: %.200s", out) : 0;
    }
    if (!bad) {
        long mark = file_size(log_a);
        snprintf(url, sizeof url, "https://127.0.0.1:%d/api/spe/customer/%s/op/site?access_token=%s", port_b,
                 customer, token);
        long st = post_form(url, "site_name=changes&as_num=64511&cidr=10.254.0.0/24", fx->ca_file, out, sizeof out);
        bad |= st != 200 ? FAIL("site create on node B: %ld %.200s", st, out) : 0;
        bad |= !bad && !file_says(log_a, mark, "fastnetmon: 1 sites", 15)
                   ? FAIL("node A did not render node B's site within 15 s (%s)", log_a)
                   : 0;
        /* the store is the suite's: the site goes (its addresses are free again) */
        const char *id = strstr(out, "\"site_id\":\"");
        char site[32] = "";
        if (id)
            snprintf(site, sizeof site, "%.16s", id + 11);
        snprintf(url, sizeof url, "https://127.0.0.1:%d/api/spe/customer/%s/op/site/%s?access_token=%s", port_b,
                 customer, site, token);
        struct http_request rq = {.method = "DELETE", .url = url, .ca_file = fx->ca_file};
        struct http_response rs;
        http_do(&rq, &rs);
        bad |= rs.status != 200 ? FAIL("site delete on node B: %ld %.200s", rs.status, rs.body) : 0;
        http_response_free(&rs);
    }
    if (a > 0)
        bad |= server_stop(a) != 0 ? FAIL("node A stopped uncleanly") : 0;
    if (b > 0)
        bad |= server_stop(b) != 0 ? FAIL("node B stopped uncleanly") : 0;
    json_decref(portal);
    json_decref(app);
    json_decref(cust);
    json_decref(asn);
    if (!bad) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        (void)!system(cmd);
    }
    return bad;
}
