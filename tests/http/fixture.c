/* fixture.c — see fixture.h. */
#include "http/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "http/harness.h"

/* Runs an admin command and publishes members of its output as variables:
 * "portal_id" of `portal create` becomes $<name>, etc. */
static int admin_var(const struct fixture *fx, const char *name, const char *member, const char *args)
{
    json_t *out = admin(fx->bin, fx->data, "%s", args);
    const char *v = json_string_value(json_object_get(out, member));
    if (!v) {
        fprintf(stderr, "setup: admin %s: no %s\n", args, member);
        json_decref(out);
        return -1;
    }
    var_set(name, v);
    json_decref(out);
    return 0;
}

/* An app: publishes $<name>_ID and $<name>_SECRET. */
static int make_app(const struct fixture *fx, const char *name, const char *args)
{
    json_t *out = admin(fx->bin, fx->data, "app create %s", args);
    const char *id = json_string_value(json_object_get(out, "app_id"));
    const char *secret = json_string_value(json_object_get(out, "secret"));
    char key[64];
    if (!id || !secret) {
        json_decref(out);
        fprintf(stderr, "setup: app create %s failed\n", args);
        return -1;
    }
    snprintf(key, sizeof key, "%s_ID", name);
    var_set(key, id);
    snprintf(key, sizeof key, "%s_SECRET", name);
    var_set(key, secret);
    json_decref(out);
    return 0;
}

static int post_form(const struct fixture *fx, const char *url, const char *body, json_t **out)
{
    struct http_request rq = {
        .method = "POST", .url = url, .body = body, .body_len = strlen(body), .ca_file = fx->ca_file};
    rq.headers[rq.nheaders++] = "Content-Type: application/x-www-form-urlencoded";
    struct http_response rs;
    int rc = http_do(&rq, &rs);
    *out = json_loads(rs.body, 0, NULL);
    if (rc != 0 || rs.status != 200) {
        fprintf(stderr, "setup: POST %s: %ld %s %s\n", url, rs.status, rs.error, rs.body);
        rc = -1;
    }
    http_response_free(&rs);
    return rc;
}

static int credit_token(const struct fixture *fx, const char *base, const char *app, const char *var)
{
    char url[256], body[512], key[64];
    snprintf(url, sizeof url, "%s/oauth/credit/token", base);
    snprintf(key, sizeof key, "%s_SECRET", app);
    const char *secret = var_get(key);
    snprintf(key, sizeof key, "%s_ID", app);
    snprintf(body, sizeof body, "app_id=%s&secret=%s&grant_type=client_credential", var_get(key), secret);
    json_t *out;
    int rc = post_form(fx, url, body, &out);
    const char *tok = json_string_value(json_path(out, ".result.access_token"));
    if (rc == 0 && tok)
        var_set(var, tok);
    json_decref(out);
    return rc == 0 && tok ? 0 : -1;
}

int fixture_install_login(const struct fixture *fx, const char *base, const char *app, const char *secret,
                          const char *xspe, const char *customer, const char *prefix)
{
    char url[2048];
    snprintf(url, sizeof url,
             "%s/oauth/connect?app_id=%s&redirect_uri=https%%3A%%2F%%2Fapp.example.test%%2Fcb"
             "&response_type=code&scope=install_login&xspe=%s&state=s1&customer_id=%s",
             base, app, xspe, customer);
    struct http_request rq = {.method = "GET", .url = url, .ca_file = fx->ca_file};
    struct http_response rs;
    http_do(&rq, &rs);
    const char *code = strstr(rs.location, "code=");
    if (rs.status != 302 || !code) {
        fprintf(stderr, "setup: connect: %ld %s\n", rs.status, rs.body);
        http_response_free(&rs);
        return -1;
    }
    char body[1024], tok_url[256];
    snprintf(body, sizeof body, "app_id=%s&secret=%s&code=%.*s&grant_type=authorization_code", app, secret,
             (int)strcspn(code + 5, "&"), code + 5);
    http_response_free(&rs);
    snprintf(tok_url, sizeof tok_url, "%s/oauth/access_token", base);
    json_t *out;
    int rc = post_form(fx, tok_url, body, &out);
    const char *tok = json_string_value(json_path(out, ".result.access_token"));
    const char *ref = json_string_value(json_path(out, ".result.refresh_token"));
    if (rc == 0 && tok && ref) {
        char key[64];
        snprintf(key, sizeof key, "%s_TOKEN", prefix);
        var_set(key, tok);
        snprintf(key, sizeof key, "%s_REFRESH", prefix);
        var_set(key, ref);
    }
    json_decref(out);
    return rc == 0 && tok && ref ? 0 : -1;
}

static int seed(struct fixture *fx)
{
    int bad = 0;
    bad |= admin_var(fx, "P1", "portal_id", "portal create --name 'Portal One'");
    bad |= admin_var(fx, "P2", "portal_id", "portal create --name 'Portal Two'");
    if (bad)
        return -1;
    char args[512];
    snprintf(args, sizeof args, "--kind portal --portal %s --name 'Portal One App'", var_get("P1"));
    bad |= make_app(fx, "PA1", args);
    snprintf(args, sizeof args, "--kind portal --portal %s --name 'Portal Two App'", var_get("P2"));
    bad |= make_app(fx, "PA2", args);
    snprintf(args, sizeof args,
             "--kind portal --portal %s --name 'Local only' --allow-ip 127.0.0.0/8 --allow-ip ::1",
             var_get("P1"));
    bad |= make_app(fx, "PA_LOCAL", args);
    snprintf(args, sizeof args, "--kind portal --portal %s --name 'Elsewhere only' --allow-ip 192.0.2.0/24",
             var_get("P1"));
    bad |= make_app(fx, "PA_REMOTE", args);
    snprintf(args, sizeof args, "--kind portal --portal %s --name 'To be revoked'", var_get("P1"));
    bad |= make_app(fx, "PA_REVOKED", args);
    bad |= make_app(fx, "IA1", "--kind installed --name 'Installed One' --host-url https://app.example.test");
    bad |=
        make_app(fx, "IA2", "--kind installed --name 'Installed Two' --host-url https://other.example.org");
    bad |= make_app(fx, "IA_REMOTE",
                    "--kind installed --name 'Installed elsewhere' --host-url https://app.example.test "
                    "--allow-ip 198.51.100.7");
    bad |= make_app(fx, "IA_HTTP",
                    "--kind installed --name 'Plain http host' --host-url http://dev.example.test:8080");
    if (bad)
        return -1;
    snprintf(args, sizeof args,
             "customer create --portal %s --name 'Customer One' --email one@example.com --company 'One Ltd' "
             "--phone +1-555-0101 --address '1 Road' --website https://one.example.com",
             var_get("P1"));
    bad |= admin_var(fx, "C1", "customer_id", args);
    snprintf(args, sizeof args, "customer create --portal %s --name 'Customer Two' --services op,dns",
             var_get("P1"));
    bad |= admin_var(fx, "C2", "customer_id", args);
    snprintf(args, sizeof args, "customer create --portal %s --name 'Customer Three'", var_get("P2"));
    bad |= admin_var(fx, "C3", "customer_id", args);
    snprintf(args, sizeof args, "customer create --portal %s --name 'Customer Four' --services ap",
             var_get("P1"));
    bad |= admin_var(fx, "C4", "customer_id", args);
    snprintf(args, sizeof args, "customer create --portal %s --name 'Customer Five' --services dns",
             var_get("P1"));
    bad |= admin_var(fx, "C5", "customer_id", args);
    /* the operator's telemetry credentials: one to use, one revoked */
    bad |= admin_var(fx, "INGEST_TOKEN", "token", "ingest-token create --name fixture");
    json_t *second = admin(fx->bin, fx->data, "ingest-token create --name second");
    if (!second || !json_string_value(json_object_get(second, "token")))
        bad = 1;
    else {
        var_set("INGEST_TOKEN2", json_string_value(json_object_get(second, "token")));
        var_set("INGEST_TOKEN2_ID", json_string_value(json_object_get(second, "id")));
    }
    json_decref(second);
    if (bad)
        return -1;
    /* The ASN registry Origin Protection sites are checked against (a ROA
     * CSV as `asn import` takes it): AS64500 may protect 10/8 down to /24
     * and 2001:db8::/32 down to /48; AS64501 172.16/12 only down to /16. */
    char roa[600];
    snprintf(roa, sizeof roa, "%s/op-roa.csv", fx->data);
    FILE *f = fopen(roa, "w");
    if (!f)
        return -1;
    fputs("ASN,IP Prefix,Max Length,Trust Anchor\nAS64500,10.0.0.0/8,24,test\nAS64500,2001:db8::/32,48,test\n"
          "AS64501,172.16.0.0/12,16,test\n",
          f);
    fclose(f);
    json_t *imported = admin(fx->bin, fx->data, "asn import '%s'", roa);
    json_decref(imported);
    if (!imported)
        return -1;
    const char *installs[][3] = {
        {"XSPE_IA1_C1", "IA1_ID", "C1"},     {"XSPE_IA1_C3", "IA1_ID", "C3"},
        {"XSPE_IA2_C2", "IA2_ID", "C2"},     {"XSPE_IAR_C1", "IA_REMOTE_ID", "C1"},
        {"XSPE_IAH_C1", "IA_HTTP_ID", "C1"}, {"XSPE_IA1_C4", "IA1_ID", "C4"},
        {"XSPE_IA1_C5", "IA1_ID", "C5"},
    };
    for (size_t i = 0; i < sizeof installs / sizeof installs[0]; i++) {
        snprintf(args, sizeof args, "install --app %s --customer %s", var_get(installs[i][1]),
                 var_get(installs[i][2]));
        bad |= admin_var(fx, installs[i][0], "xspe", args);
    }
    /* Application Protection: small VIP pools (16 addresses each) from the
     * documentation ranges; each site takes one address of each. */
    const char *vip_pools[] = {"192.0.2.240/28", "2001:db8:f1::/124"};
    for (size_t i = 0; i < 2; i++) {
        json_t *out = admin(fx->bin, fx->data, "vip-pool add --cidr %s", vip_pools[i]);
        bad |= out ? 0 : -1;
        json_decref(out);
    }
    return bad ? -1 : 0;
}

/* knotd on the configuration the main server deploys: a first deploy
 * writes DATA/knot/knot.conf (listening on $DNS_PORT), knotd runs it, and
 * the main server reloads it after each change (--dns-reload). */
static int start_knotd(struct fixture *fx)
{
    fx->dns_port = free_port();
    char port[16], cmd[1024];
    snprintf(port, sizeof port, "%d", fx->dns_port);
    var_set("DNS_PORT", port);
    json_t *out = admin(fx->bin, fx->data, "dns deploy --dns-listen 127.0.0.1@%d", fx->dns_port);
    json_decref(out);
    if (!out) {
        fprintf(stderr, "setup: admin dns deploy failed\n");
        return -1;
    }
    snprintf(cmd, sizeof cmd, "exec knotd -c '%s/knot/knot.conf' 2>>'%s/knotd.log' >>'%s/knotd.log'",
             fx->data, fx->data, fx->data);
    fx->knotd_pid = process_start(cmd, fx->dns_port, fx->log);
    return fx->knotd_pid > 0 ? 0 : -1;
}

static bool port_free(const char *addr, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, addr, &a.sin_addr);
    bool ok = fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

/* The Application Protection data plane of the main server, for the cases
 * that run nginx (tests/http/cases/dataplane_waf): every domain port P is
 * served on P + $AP_PORT_OFFSET, a site on 127.0.2.x for its VIP 192.0.2.x,
 * the backend 203.0.113.77 is reached at 127.0.0.2 (on P + the offset), and
 * X-Forwarded-For from 127.0.0.1 names the client. */
static void nginx_options(char *out, size_t size)
{
    int offset = 20000;
    for (int i = 0; i < 20; i++) {
        offset = 20000 + (free_port() % 40) * 1000;
        if (port_free("127.0.0.2", offset + 80) && port_free("127.0.0.2", offset + 443) &&
            port_free("127.0.2.241", offset + 80) && port_free("127.0.2.241", offset + 443) &&
            port_free("127.0.2.241", offset + 8080))
            break;
    }
    char v[16];
    snprintf(v, sizeof v, "%d", offset);
    var_set("AP_PORT_OFFSET", v);
    snprintf(out, size,
             "--nginx-listen-map 192.0.2.240/28=127.0.2.240/28 --nginx-port-offset %d "
             "--nginx-backend-map 203.0.113.77=127.0.0.2 --nginx-real-ip-from 127.0.0.1 --nginx-deploy-interval 1",
             offset);
}

/* The Origin Protection and CleanPipe data planes of the main server, for
 * the cases that run them (tests/http/cases/dataplane_ddos): parapet's BIRD
 * on 127.0.0.1:$BIRD_LOCAL_PORT peers with a BIRD the case runs on
 * 127.0.0.2:$BIRD_PEER_PORT; FastNetMon takes NetFlow on
 * 127.0.0.1:$NETFLOW_PORT and exports its traffic to $GRAPHITE_PORT. And
 * the server's metrics on $METRICS_PORT, with a JSON access log line per
 * request in server.log (tests/http/cases/operations). */
static void ddos_options(char *out, size_t size)
{
    static const char *const names[] = {"BIRD_LOCAL_PORT", "BIRD_PEER_PORT", "NETFLOW_PORT", "GRAPHITE_PORT",
                                        "METRICS_PORT"};
    int port[5];
    for (int i = 0; i < 5; i++) {
        char v[16];
        port[i] = free_port();
        snprintf(v, sizeof v, "%d", port[i]);
        var_set(names[i], v);
    }
    snprintf(out, size,
             "--bird-local 127.0.0.1:%d --bird-peer 127.0.0.2:%d --bird-peer-as 64513 --bird-next-hop 192.0.2.1 "
             "--fastnetmon-netflow 127.0.0.1:%d --fastnetmon-graphite 127.0.0.1:%d --fastnetmon-ban-time 5 "
             "--fastnetmon-average-time 2 --ddos-deploy-interval 1 --metrics-listen 127.0.0.1:%d --log-requests",
             port[0], port[1], port[2], port[3], port[4]);
}

/* The short server's options come from a configuration file (serve
 * --config; config_file.h), all but --token-ttl, which the command line
 * gives over the file's 7200: a file not read, or read over the command
 * line, fails the short-lifetime and limit cases. */
static int short_config(const struct fixture *fx, char *path, size_t size)
{
    snprintf(path, size, "%s/short.conf", fx->data);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("# the HTTPS tests' short server (tests/http/fixture.c)\n"
          "token-ttl = 7200\n  code-ttl=2\nrefresh-ttl = 3\n\nmax-body-bytes = 4096\n"
          "max-header-bytes = 8192\nauth-failures = 200\nno-dns-deploy = true\nno-nginx-deploy = yes\n"
          "no-fastnetmon-deploy = on\nno-bird-deploy = true\nno-webhooks = true\ntelemetry-days = 3650\n"
          "dev = false\n",
          f);
    return fclose(f) == 0 ? 0 : -1;
}

int fixture_setup(struct fixture *fx, const char *bin)
{
    memset(fx, 0, sizeof *fx);
    fx->bin = bin;
    snprintf(fx->data, sizeof fx->data, "/tmp/parapet-test-XXXXXX");
    if (!mkdtemp(fx->data))
        return -1;
    snprintf(fx->log, sizeof fx->log, "%s/server.log", fx->data);
    snprintf(fx->ca_file, sizeof fx->ca_file, "%s/tls/cert.pem", fx->data);
    var_set("DATA", fx->data);
    var_set("BIN", bin);
    /* $SQL "QUERY": a read-only query on the store, whichever backend (tests/tools/store-sql) */
    char sql_tool[4200], *tool = realpath("tests/tools/store-sql", NULL);
    snprintf(sql_tool, sizeof sql_tool, "%s %s", tool ? tool : "tests/tools/store-sql", fx->data);
    free(tool);
    var_set("SQL", sql_tool);
    if (seed(fx) != 0)
        return -1;
    if (start_knotd(fx) != 0)
        return -1;
    char dns_opts[1536], nginx_opts[256], ddos_opts[512];
    nginx_options(nginx_opts, sizeof nginx_opts);
    ddos_options(ddos_opts, sizeof ddos_opts);
    /* every case comes from 127.0.0.1: allow its failed token requests
     * (special_abuse.c tests the slow-down on a server of its own); cases
     * ingest telemetry of fixed past dates: keep ten years of it */
    /* webhooks go to the tests' receiver on loopback (tests/http/receiver.c),
     * with its certificate, retried after 300 ms, 600 ms, ... at most 2 s apart */
    snprintf(dns_opts, sizeof dns_opts,
             "--dns-listen 127.0.0.1@%d --dns-reload --dns-deploy-interval 1 --auth-failures 200 "
             "--telemetry-days 3650 --webhook-allow 127.0.0.0/8 --webhook-ca %s/tls/cert.pem "
             "--webhook-retry-base 300 --webhook-retry-max 2000 %s %s",
             fx->dns_port, fx->data, nginx_opts, ddos_opts);
    char spare[16]; /* a free port for a case's own extra server (op/capture.case) */
    snprintf(spare, sizeof spare, "%d", free_port());
    var_set("SPARE_PORT", spare);
    fx->main_port = free_port();
    fx->main_pid = server_start(bin, fx->data, fx->main_port, dns_opts, fx->log);
    fx->short_port = free_port();
    char short_conf[400], short_opts[500];
    if (short_config(fx, short_conf, sizeof short_conf) != 0)
        return -1;
    snprintf(short_opts, sizeof short_opts, "--config %s --token-ttl 2", short_conf);
    fx->short_pid = server_start(bin, fx->data, fx->short_port, short_opts, fx->log);
    if (fx->main_pid < 0 || fx->short_pid < 0)
        return -1;
    char base[64], api[80];
    snprintf(base, sizeof base, "https://127.0.0.1:%d", fx->main_port);
    snprintf(api, sizeof api, "%s/api", base);
    var_set("BASE", base);
    var_set("API", api);
    snprintf(base, sizeof base, "https://127.0.0.1:%d", fx->short_port);
    snprintf(api, sizeof api, "%s/api", base);
    var_set("SHORT", base);
    var_set("SHORT_API", api);

    const char *b = var_get("BASE");
    int bad = 0;
    bad |= credit_token(fx, b, "PA1", "T_P1");
    bad |= credit_token(fx, b, "PA2", "T_P2");
    bad |= credit_token(fx, b, "PA_REVOKED", "T_REVOKED_APP");
    bad |= fixture_install_login(fx, b, var_get("IA1_ID"), var_get("IA1_SECRET"), var_get("XSPE_IA1_C1"),
                                 var_get("C1"), "IA1_C1");
    bad |= fixture_install_login(fx, b, var_get("IA1_ID"), var_get("IA1_SECRET"), var_get("XSPE_IA1_C3"),
                                 var_get("C3"), "IA1_C3");
    bad |= fixture_install_login(fx, b, var_get("IA1_ID"), var_get("IA1_SECRET"), var_get("XSPE_IA1_C4"),
                                 var_get("C4"), "IA1_C4");
    bad |= fixture_install_login(fx, b, var_get("IA1_ID"), var_get("IA1_SECRET"), var_get("XSPE_IA1_C5"),
                                 var_get("C5"), "IA1_C5");
    if (bad)
        return -1;
    json_t *r = admin(bin, fx->data, "app revoke --app %s", var_get("PA_REVOKED_ID"));
    json_decref(r);
    return r ? 0 : -1;
}

int fixture_teardown(struct fixture *fx)
{
    int failures = 0;
    if (fx->knotd_pid > 0)
        server_stop(fx->knotd_pid); /* its exit status is knotd's business */
    pid_t pids[2] = {fx->main_pid, fx->short_pid};
    for (int i = 0; i < 2; i++) {
        if (pids[i] <= 0)
            continue;
        int st = server_stop(pids[i]);
        if (st != 0) {
            fprintf(stderr, "FAIL server %d stopped with status %d (see %s)\n", i, st, fx->log);
            failures++;
        }
    }
    return failures;
}
