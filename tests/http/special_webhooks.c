/* special_webhooks.c — webhook delivery against a real HTTPS receiver on
 * loopback (receiver.c): DDoS events ingested for a customer reach its
 * endpoint signed (the signature is checked here with GnuTLS, not with
 * parapet's code) and in order (started, updated, stopped); an endpoint
 * answering 500 gets the same event again after a backoff and the later
 * events of that attack only after it (order per resource); the delivery
 * log shows each attempt's status and response; a replay sends the event
 * again; another tenant's endpoint gets nothing and cannot see the first;
 * a refused (rolled-back) ingest sends nothing; the worker keeps its
 * connections to a receiver open between rounds (fewer connections than
 * deliveries: a TLS handshake per delivery made it fall behind). */
#include <gnutls/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http/harness.h"
#include "http/receiver.h"
#include "http/special.h"

#define FAIL(...) (check_fail(__func__, __VA_ARGS__), 1)

static const char *ca;

/* A request with an optional JSON body (or a form); the parsed answer (NULL
 * when not JSON) and the status. */
static json_t *call(const char *method, const char *url, const char *type, const char *body,
                    const char *bearer, long *status)
{
    struct http_request rq = {.method = method, .url = url, .ca_file = ca};
    char auth[256], ctype[64];
    if (body) {
        snprintf(ctype, sizeof ctype, "Content-Type: %s", type);
        rq.headers[rq.nheaders++] = ctype;
        rq.body = body;
        rq.body_len = strlen(body);
    }
    if (bearer) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", bearer);
        rq.headers[rq.nheaders++] = auth;
    }
    struct http_response rs;
    http_do(&rq, &rs);
    json_t *doc = rs.body ? json_loads(rs.body, 0, NULL) : NULL;
    *status = rs.status;
    http_response_free(&rs);
    return doc;
}

/* A webhook of `customer` (with `token`) at path on the receiver; its id in id[17]. */
static int make_webhook(int port, const char *customer, const char *token, const char *path,
                        const char *secret, const char *types, char id[17])
{
    char url[512], body[512];
    snprintf(url, sizeof url, "%s/spe/customer/%s/webhook?access_token=%s", var_get("API"), customer, token);
    snprintf(body, sizeof body, "{\"url\":\"https://127.0.0.1:%d%s\",\"secret\":\"%s\",\"event_types\":[%s]}",
             port, path, secret, types);
    long st;
    json_t *doc = call("POST", url, "application/json", body, NULL, &st);
    const char *v = json_string_value(json_path(doc, ".result.webhook_id"));
    int bad = st != 200 || !v ? FAIL("create webhook %s: %ld", path, st) : 0;
    snprintf(id, 17, "%s", v ? v : "");
    json_decref(doc);
    return bad;
}

static int make_site(const char *customer, const char *token, const char *name, const char *cidr, char id[17])
{
    char url[512], body[256];
    snprintf(url, sizeof url, "%s/spe/customer/%s/op/site?access_token=%s", var_get("API"), customer, token);
    snprintf(body, sizeof body, "site_name=%s&as_num=64500&cidr=%s", name, cidr);
    long st;
    json_t *doc = call("POST", url, "application/x-www-form-urlencoded", body, NULL, &st);
    const char *v = json_string_value(json_path(doc, ".result.site_id"));
    int bad = st != 200 || !v ? FAIL("create site %s: %ld", name, st) : 0;
    snprintf(id, 17, "%s", v ? v : "");
    json_decref(doc);
    return bad;
}

static long ingest(const char *records)
{
    char url[256];
    snprintf(url, sizeof url, "%s/ingest/v1/records", var_get("BASE"));
    long st;
    json_t *doc = call("POST", url, "application/json", records, var_get("INGEST_TOKEN"), &st);
    if (st != 200 && !strstr(records, "nope"))
        fprintf(stderr, "    ingest: %ld %s\n", st, json_dumps(doc, JSON_COMPACT));
    json_decref(doc);
    return st;
}

/* Whether the X-Parapet-Signature value signs body with secret. */
static bool signature_ok(const char *header, const char *body, const char *secret)
{
    long long t;
    char v1[65];
    if (sscanf(header, "t=%lld,v1=%64[0-9a-f]", &t, v1) != 2 || strlen(v1) != 64)
        return false;
    char *msg = malloc(strlen(body) + 32);
    int n = sprintf(msg, "%lld.%s", t, body);
    unsigned char mac[32];
    gnutls_hmac_fast(GNUTLS_MAC_SHA256, secret, strlen(secret), msg, (size_t)n, mac);
    free(msg);
    char hex[65];
    for (int i = 0; i < 32; i++)
        sprintf(hex + 2 * i, "%02x", mac[i]);
    return strcmp(hex, v1) == 0 && llabs(t - (long long)time(NULL)) < 120;
}

/* What reached `path`, in arrival order. */
static size_t at_path(const char *path, struct received *out, size_t max)
{
    static struct received all[RECEIVED_MAX];
    size_t n = receiver_snapshot(all, RECEIVED_MAX), k = 0;
    for (size_t i = 0; i < n && k < max; i++)
        if (strcmp(all[i].path, path) == 0)
            out[k++] = all[i];
    return k;
}

/* Waits up to 20 s until `path` has got `want` requests. */
static size_t wait_for(const char *path, size_t want, struct received *out, size_t max)
{
    size_t n = 0;
    for (int i = 0; i < 200 && (n = at_path(path, out, max)) < want; i++)
        usleep(100 * 1000);
    return n;
}

static int check_signed_events(const char *path, const char *secret, const char *customer, const char *site,
                               const char *alert, struct received *got, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *body = json_loads(got[i].body, 0, NULL);
        bad |= !signature_ok(got[i].signature, got[i].body, secret)
                   ? FAIL("%s #%zu: signature '%s' does not sign the body", path, i, got[i].signature)
                   : 0;
        bad |= signature_ok(got[i].signature, got[i].body, "another-secret-of-16")
                   ? FAIL("%s #%zu: another secret verifies too", path, i)
                   : 0;
        const char *type = json_string_value(json_object_get(body, "type"));
        bad |= !type || strcmp(type, got[i].event) != 0
                   ? FAIL("%s #%zu: type %s, header %s", path, i, type, got[i].event)
                   : 0;
        bad |= strcmp(json_string_value(json_object_get(body, "customer_id")) ?: "", customer) != 0
                   ? FAIL("%s #%zu: customer_id in %s", path, i, got[i].body)
                   : 0;
        bad |= strcmp(json_string_value(json_path(body, ".data.alert_id")) ?: "", alert) != 0 ||
                       strcmp(json_string_value(json_path(body, ".data.site_id")) ?: "", site) != 0
                   ? FAIL("%s #%zu: data %s", path, i, got[i].body)
                   : 0;
        json_decref(body);
    }
    return bad;
}

/* The delivery log of a webhook, newest first. */
static json_t *deliveries(const char *customer, const char *token, const char *webhook)
{
    char url[512];
    snprintf(url, sizeof url, "%s/spe/customer/%s/webhook/%s/deliveries?access_token=%s", var_get("API"),
             customer, webhook, token);
    long st;
    return call("GET", url, NULL, NULL, NULL, &st);
}

static int flaky_order_and_log(const char *c1, const char *t1, const char *flaky, struct received *got,
                               size_t n)
{
    /* 500, 500, then 200 for started; updated and stopped only after it */
    static const char *const want[][2] = {{"ddos.started", "500"},
                                          {"ddos.started", "500"},
                                          {"ddos.started", "200"},
                                          {"ddos.updated", "200"},
                                          {"ddos.stopped", "200"}};
    int bad = n != 5 ? FAIL("/flaky got %zu requests, want 5", n) : 0;
    for (size_t i = 0; i < n && i < 5; i++)
        bad |= strcmp(got[i].event, want[i][0]) != 0 || got[i].status != atoi(want[i][1])
                   ? FAIL("/flaky #%zu: %s answered %d, want %s %s", i, got[i].event, got[i].status,
                          want[i][0], want[i][1])
                   : 0;
    bad |= n >= 3 && (strcmp(got[0].delivery, got[2].delivery) != 0 || strcmp(got[0].body, got[2].body) != 0)
               ? FAIL("the retries are not the same delivery and body")
               : 0;
    /* the log: three delivered, the first with its three attempts */
    json_t *log = deliveries(c1, t1, flaky);
    json_t *list = json_path(log, ".result.deliveries");
    bad |= json_array_size(list) != 3 ? FAIL("flaky log: %zu deliveries", json_array_size(list)) : 0;
    json_t *first = json_array_get(list, 2);
    bad |= strcmp(json_string_value(json_object_get(first, "state")) ?: "", "delivered") != 0 ||
                   json_integer_value(json_object_get(first, "attempts")) != 3
               ? FAIL("flaky first delivery: %s", json_dumps(first, JSON_COMPACT))
               : 0;
    char url[512];
    snprintf(url, sizeof url, "%s/spe/customer/%s/webhook/%s/delivery/%s?access_token=%s", var_get("API"), c1,
             flaky, json_string_value(json_object_get(first, "delivery_id")) ?: "x", t1);
    long st;
    json_t *detail = call("GET", url, NULL, NULL, NULL, &st);
    json_t *attempts = json_path(detail, ".result.attempts_log");
    bad |= st != 200 || json_array_size(attempts) != 3 ? FAIL("flaky detail: %ld", st) : 0;
    int statuses[3] = {500, 500, 200};
    for (size_t i = 0; i < 3 && i < json_array_size(attempts); i++) {
        json_t *a = json_array_get(attempts, i);
        bad |= json_integer_value(json_object_get(a, "status")) != statuses[i] ||
                       !strstr(json_string_value(json_object_get(a, "response")) ?: "",
                               i < 2 ? "boom" : "thanks")
                   ? FAIL("flaky attempt %zu: %s", i + 1, json_dumps(a, JSON_COMPACT))
                   : 0;
    }
    bad |= strcmp(json_string_value(json_path(detail, ".result.body.type")) ?: "", "ddos.started") != 0
               ? FAIL("flaky detail body")
               : 0;
    json_decref(detail);
    json_decref(log);
    return bad;
}

static int tenancy(const char *c1, const char *webhook)
{
    char url[512], unknown[512];
    long st, st2;
    int bad = 0;
    /* another portal's token on C1's path; the owner portal on another customer's path */
    const char *tries[][2] = {{"T_P2_WEBHOOKS", "C1"}, {"T_P1", "C2"}, {"IA1_C3_TOKEN", "C1"}};
    for (size_t i = 0; i < 3; i++) {
        snprintf(url, sizeof url, "%s/spe/customer/%s/webhook/%s?access_token=%s", var_get("API"),
                 var_get(tries[i][1]), webhook, var_get(tries[i][0]));
        snprintf(unknown, sizeof unknown, "%s/spe/customer/%s/webhook/ffffffffffffffff?access_token=%s",
                 var_get("API"), var_get(tries[i][1]), var_get(tries[i][0]));
        json_t *a = call("GET", url, NULL, NULL, NULL, &st),
               *b = call("GET", unknown, NULL, NULL, NULL, &st2);
        bad |= st == 200 || st != st2 || !json_equal(a, b)
                   ? FAIL("%s on %s's webhook: %ld, unknown id: %ld", tries[i][0], tries[i][1], st, st2)
                   : 0;
        json_decref(a);
        json_decref(b);
    }
    (void)c1;
    return bad;
}

int webhook_delivery(struct fixture *fx)
{
    char cert[300], key[300];
    ca = fx->ca_file;
    snprintf(cert, sizeof cert, "%s/tls/cert.pem", fx->data);
    snprintf(key, sizeof key, "%s/tls/key.pem", fx->data);
    int port = receiver_start(cert, key, 2);
    if (port < 0)
        return FAIL("cannot start the receiver");
    /* a fresh token of the second portal (an earlier test revokes $T_P2) */
    char u[256], form[512];
    long st;
    snprintf(u, sizeof u, "%s/oauth/credit/token", var_get("BASE"));
    snprintf(form, sizeof form, "app_id=%s&secret=%s&grant_type=client_credential", var_get("PA2_ID"),
             var_get("PA2_SECRET"));
    json_t *tok = call("POST", u, "application/x-www-form-urlencoded", form, NULL, &st);
    var_set("T_P2_WEBHOOKS", json_string_value(json_path(tok, ".result.access_token")) ?: "");
    json_decref(tok);
    const char *c1 = var_get("C1"), *c3 = var_get("C3"), *t1 = var_get("T_P1"),
               *t3 = var_get("T_P2_WEBHOOKS");
    char site1[17], site3[17], hook1[17], hook3[17], flaky[17];
    int bad = make_site(c1, t1, "whk_site", "10.251.0.0/24", site1);
    bad |= make_site(c3, t3, "whk_site3", "10.251.1.0/24", site3);
    const char *all =
        "\"ddos.started\",\"ddos.updated\",\"ddos.stopped\",\"waf.event\",\"dataplane.deploy_failed\"";
    bad |= make_webhook(port, c1, t1, "/c1", "secret-of-c1-0001", all, hook1);
    bad |= make_webhook(port, c3, t3, "/c3", "secret-of-c3-0001", all, hook3);
    bad |= make_webhook(port, c1, t1, "/flaky", "secret-of-flaky-01",
                        "\"ddos.started\",\"ddos.updated\",\"ddos.stopped\"", flaky);
    if (bad) {
        receiver_stop();
        return bad;
    }
    /* an attack on C1's site: starts, grows, stops (three transactions) */
    char rec[512];
    long now = (long)time(NULL);
#define EV                                                                                                   \
    "[{\"kind\":\"ddos_event\",\"alert_id\":\"whk-1\",\"attack_type\":\"UDP "                                \
    "Fragmentation\",\"site_ip\":\"10.251.0.10\","                                                           \
    "\"start_time\":%ld,\"max_bps\":%d,\"max_pps\":10,\"severity\":\"high\"%s}]"
    snprintf(rec, sizeof rec, EV, now - 60, 1000, "");
    bad |= ingest(rec) != 200 ? FAIL("ingest start") : 0;
    snprintf(rec, sizeof rec, EV, now - 60, 5000, "");
    bad |= ingest(rec) != 200 ? FAIL("ingest growth") : 0;
    char end[40];
    snprintf(end, sizeof end, ",\"end_time\":%ld", now);
    snprintf(rec, sizeof rec, EV, now - 60, 5000, end);
    bad |= ingest(rec) != 200 ? FAIL("ingest stop") : 0;
    /* a refused batch: its valid first record must not be told */
    snprintf(
        rec, sizeof rec,
        "[{\"kind\":\"ddos_event\",\"alert_id\":\"whk-rolled-back\",\"attack_type\":\"UDP Fragmentation\","
        "\"site_ip\":\"10.251.0.11\",\"start_time\":%ld},{\"kind\":\"nope\"}]",
        now);
    bad |= ingest(rec) != 400 ? FAIL("the bad batch was not refused") : 0;

    struct received got[32];
    size_t n = wait_for("/c1", 3, got, 32);
    static const char *const order[] = {"ddos.started", "ddos.updated", "ddos.stopped"};
    bad |= n != 3 ? FAIL("/c1 got %zu deliveries, want 3", n) : 0;
    for (size_t i = 0; i < n && i < 3; i++)
        bad |= strcmp(got[i].event, order[i]) != 0
                   ? FAIL("/c1 #%zu is %s, want %s", i, got[i].event, order[i])
                   : 0;
    bad |= check_signed_events("/c1", "secret-of-c1-0001", c1, site1, "whk-1", got, n);
    struct received flaky_got[32];
    size_t nf = wait_for("/flaky", 5, flaky_got, 32);
    bad |= check_signed_events("/flaky", "secret-of-flaky-01", c1, site1, "whk-1", flaky_got, nf);
    bad |= flaky_order_and_log(c1, t1, flaky, flaky_got, nf);

    /* replay C1's first delivery: the same event again, as another delivery */
    json_t *log = deliveries(c1, t1, hook1);
    const char *first = json_string_value(json_path(log, ".result.deliveries[2].delivery_id"));
    char url[512];
    snprintf(url, sizeof url, "%s/spe/customer/%s/webhook/%s/delivery/%s/replay?access_token=%s",
             var_get("API"), c1, hook1, first ? first : "x", t1);
    json_t *replay = call("POST", url, NULL, NULL, NULL, &st);
    bad |= st != 200 ? FAIL("replay: %ld", st) : 0;
    n = wait_for("/c1", 4, got, 32);
    bad |= n != 4 || strcmp(got[3].event, "ddos.started") != 0 ||
                   strcmp(got[3].delivery, got[0].delivery) == 0 ||
                   strcmp(got[3].delivery,
                          json_string_value(json_path(replay, ".result.delivery_id")) ?: "") != 0
               ? FAIL("the replay did not arrive as a new delivery of the first event (%zu)", n)
               : 0;
    if (n == 4) {
        json_t *a = json_loads(got[0].body, 0, NULL), *b = json_loads(got[3].body, 0, NULL);
        bad |= !json_equal(json_object_get(a, "id"), json_object_get(b, "id"))
                   ? FAIL("the replay's event id differs")
                   : 0;
        json_decref(a);
        json_decref(b);
    }
    json_decref(replay);
    json_decref(log);
    bad |= check_signed_events("/c1", "secret-of-c1-0001", c1, site1, "whk-1", got, n);

    /* nothing reached the other tenant, nothing came of the refused batch */
    bad |= at_path("/c3", got, 32) != 0
               ? FAIL("the other tenant's endpoint got %zu deliveries", at_path("/c3", got, 32))
               : 0;
    struct received every[RECEIVED_MAX];
    size_t total = receiver_snapshot(every, RECEIVED_MAX);
    for (size_t i = 0; i < total; i++)
        bad |=
            strstr(every[i].body, "whk-rolled-back") ? FAIL("an event of a refused batch was delivered") : 0;
    bad |= tenancy(c1, hook1);
    /* the deliveries above went out in several rounds (one per step of the
     * attack's order, the retries, the replay) over connections kept open */
    size_t conns = receiver_connections();
    bad |= conns >= total ? FAIL("%zu deliveries took %zu connections: none was reused", total, conns) : 0;

    /* leave nothing pending for other servers on this data, nothing in the
     * customers' site lists of later cases: remove the webhooks and sites */
    const char *made[][4] = {{c1, t1, "webhook", hook1},
                             {c1, t1, "webhook", flaky},
                             {c3, t3, "webhook", hook3},
                             {c1, t1, "op/site", site1},
                             {c3, t3, "op/site", site3}};
    for (size_t i = 0; i < 5; i++) {
        snprintf(url, sizeof url, "%s/spe/customer/%s/%s/%s?access_token=%s", var_get("API"), made[i][0],
                 made[i][2], made[i][3], made[i][1]);
        json_decref(call("DELETE", url, NULL, NULL, NULL, &st));
        bad |= st != 200 ? FAIL("delete %s %s: %ld", made[i][2], made[i][3], st) : 0;
    }
    receiver_stop();
    return bad;
}
