/* test_webhook.c — the pure parts of webhooks: the signature (against a
 * vector made with `openssl dgst -sha256 -hmac`), the backoff schedule, the
 * destination policy and URL rules, the event type names and the body. */
#include <stdlib.h>
#include <string.h>

#include "unit/unit.h"
#include "webhook/backoff.h"
#include "webhook/dest.h"
#include "webhook/events.h"
#include "webhook/send.h"
#include "webhook/sign.h"

TEST(signature_vector)
{
    /* printf '%s' '1700000000.{"id":"e1"}' | openssl dgst -sha256 -hmac 'whsec-test-0001' */
    char sig[WEBHOOK_SIGNATURE_MAX];
    const char *body = "{\"id\":\"e1\"}";
    CHECK_INT(webhook_sign("whsec-test-0001", 1700000000, body, strlen(body), sig), 0);
    CHECK_STR(sig, "t=1700000000,v1=83e86a7431b9e3e8a7718be92123c159416571cbce9cab56f7fc9ae0945c8bde");
    /* another time, body or secret: another signature */
    char other[WEBHOOK_SIGNATURE_MAX];
    webhook_sign("whsec-test-0001", 1700000001, body, strlen(body), other);
    CHECK(strcmp(sig + 16, other + 16) != 0);
    webhook_sign("whsec-test-0002", 1700000000, body, strlen(body), other);
    CHECK(strcmp(sig, other) != 0);
    webhook_sign("whsec-test-0001", 1700000000, body, strlen(body) - 1, other);
    CHECK(strcmp(sig, other) != 0);
}

TEST(backoff_schedule)
{
    struct webhook_backoff b = WEBHOOK_BACKOFF_DEFAULT;
    /* 30 s doubling, at most an hour apart */
    const long long want[] = {30000, 60000, 120000, 240000, 480000, 960000, 1920000, 3600000, 3600000};
    for (int n = 1; n <= 9; n++)
        CHECK_INT(webhook_backoff_delay(&b, n), want[n - 1]);
    CHECK_INT(webhook_backoff_delay(&b, 1000), 3600000);
    /* tried for a day after it was first due, then given up */
    int64_t first = 1000000, t = first;
    int attempts = 1;
    for (;;) {
        int64_t next = webhook_backoff_next(&b, attempts, first, t);
        if (next < 0)
            break;
        CHECK(next > t);
        t = next;
        attempts++;
    }
    CHECK(t - first <= 86400000);
    CHECK(t - first > 86400000 - 3600000);
    CHECK_INT(attempts, 30);
    /* small numbers for the tests' servers */
    struct webhook_backoff fast = {.base_ms = 300, .cap_ms = 2000, .give_up_ms = 5000};
    CHECK_INT(webhook_backoff_delay(&fast, 1), 300);
    CHECK_INT(webhook_backoff_delay(&fast, 4), 2000);
    CHECK_INT(webhook_backoff_next(&fast, 1, 0, 4000), 4300);
    CHECK_INT(webhook_backoff_next(&fast, 3, 0, 4000), -1);
}

static bool allowed(const struct webhook_dest_policy *p, const char *ip)
{
    struct ip_addr a;
    return ip_parse(ip, &a) == 0 && webhook_addr_allowed(p, &a);
}

TEST(destinations)
{
    struct webhook_dest_policy none = {0}, loop = {0};
    cidr_parse("127.0.0.0/8", 0, &loop.allow[loop.n_allow++]);
    const char *refused[] = {
        "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1",      "169.254.169.254", "0.0.0.0",
        "224.0.0.1", "::1",      "fe80::1",    "fd00::1",     "::ffff:10.0.0.1", "::ffff:127.0.0.1"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        CHECK(!allowed(&none, refused[i]));
    CHECK(allowed(&none, "198.51.100.7"));
    CHECK(allowed(&none, "2001:db8::1"));
    CHECK(allowed(&loop, "127.0.0.1"));
    CHECK(allowed(&loop, "::ffff:127.0.0.2"));
    CHECK(!allowed(&loop, "10.1.2.3"));

    CHECK(webhook_url_check(&none, "https://hooks.example.com/x?y=1") == NULL);
    CHECK(webhook_url_check(&none, "https://[2001:db8::1]:8443/x") == NULL);
    CHECK(webhook_url_check(&none, "http://hooks.example.com/x") != NULL);
    CHECK(webhook_url_check(&none, "ftp://hooks.example.com/x") != NULL);
    CHECK(webhook_url_check(&none, "hooks.example.com/x") != NULL);
    CHECK(webhook_url_check(&none, "https://user:pw@hooks.example.com/x") != NULL);
    CHECK(webhook_url_check(&none, "https://hooks.example.com/x#frag") != NULL);
    CHECK(webhook_url_check(&none, "https://127.0.0.1/x") != NULL);
    CHECK(webhook_url_check(&none, "https://[::1]/x") != NULL);
    CHECK(webhook_url_check(&none, "https://10.0.0.8/x") != NULL);
    CHECK(webhook_url_check(&loop, "https://127.0.0.1:9999/x") == NULL);
}

TEST(event_names)
{
    json_t *names = json_pack("[s,s,s]", "ddos.stopped", "dataplane.deploy_failed", "ddos.stopped");
    CHECK_INT(webhook_events_parse(names), WEBHOOK_EV_DDOS_STOPPED | WEBHOOK_EV_DEPLOY_FAILED);
    json_t *back = webhook_events_names(WEBHOOK_EV_DDOS_STOPPED | WEBHOOK_EV_DEPLOY_FAILED);
    char *text = json_dumps(back, JSON_COMPACT);
    CHECK_STR(text, "[\"ddos.stopped\",\"dataplane.deploy_failed\"]");
    free(text);
    json_decref(back);
    json_decref(names);
    back = webhook_events_names(WEBHOOK_EV_ALL);
    CHECK_INT(json_array_size(back), 5);
    CHECK_INT(webhook_events_parse(back), WEBHOOK_EV_ALL);
    json_decref(back);
}

TEST(body)
{
    /* as a claimed row has it (PostgreSQL's json text has spaces: the body is compact) */
    json_t *row = json_pack("{s:s,s:s,s:I,s:s,s:s}", "event_id", "aa5e153177f2bb8c", "type", "ddos.started",
                            "event_created_at", (json_int_t)1795606070, "customer_id", "3f1015b6ade8d761",
                            "payload", "{\"alert_id\" : \"a1\", \"end_time\" : null}");
    char *body = webhook_body(row);
    CHECK_STR(body, "{\"id\":\"aa5e153177f2bb8c\",\"type\":\"ddos.started\",\"created_at\":1795606070,"
                    "\"customer_id\":\"3f1015b6ade8d761\",\"data\":{\"alert_id\":\"a1\",\"end_time\":null}}");
    free(body);
    json_decref(row);
}

UNIT_MAIN(UNIT_CASE(signature_vector), UNIT_CASE(backoff_schedule), UNIT_CASE(destinations),
          UNIT_CASE(event_names), UNIT_CASE(body))
