/* test_webhook_store.c — the webhook store on a real SQLite store: an event
 * source (a data plane's failed deploy, through store_ops) queues a
 * delivery in its own transaction only (a rolled-back write queues
 * nothing), only for the customer's subscribed and enabled endpoints; a
 * resource's deliveries are claimed one at a time in order, a pending
 * retry holds the later ones back; attempts and states are recorded;
 * replays and pings are new deliveries; delete takes the log with it. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit/scratch_store.h"
#include "unit/unit.h"
#include "webhook/events.h"

static const struct res_kind site_kind = {.name = "op.site", .name_scope = RES_NAME_NONE};

static struct store *db;
static char dir[64];
static int64_t site_rid;

static void setup(void)
{
    db = scratch_open(dir, (struct customer){.svc_op = true});
    struct resource r = {.doc = json_object()};
    snprintf(r.kind, sizeof r.kind, "op.site");
    snprintf(r.customer_id, sizeof r.customer_id, SCRATCH_CUSTOMER);
    db->ops->begin(db, true);
    if (db->ops->res_create(db, &site_kind, &r) != STORE_OK)
        abort();
    db->ops->commit(db);
    json_decref(r.doc);
    site_rid = r.rid;
}

static void endpoint(const char *id, unsigned events, bool enabled)
{
    struct webhook w = {.events = events, .enabled = enabled, .created_at = 1, .updated_at = 1};
    snprintf(w.id, sizeof w.id, "%s", id);
    snprintf(w.customer_id, sizeof w.customer_id, SCRATCH_CUSTOMER);
    snprintf(w.url, sizeof w.url, "https://hooks.example.com/%s", id);
    snprintf(w.secret, sizeof w.secret, "secret-%s", id);
    db->ops->begin(db, true);
    CHECK_INT(db->ops->webhook_create(db, &w), STORE_OK);
    db->ops->commit(db);
}

static int fail_deploy(const char *digest, bool commit)
{
    db->ops->begin(db, true);
    int rc =
        db->ops->dataplane_state_set(db, "bird", site_rid, "failed", "bird -p: syntax error", digest, NULL);
    if (commit)
        db->ops->commit(db);
    else
        db->ops->rollback(db);
    return rc;
}

static long count(const char *endpoint_id)
{
    json_t *rows;
    long total = -1;
    struct webhook_delivery_query q = {.limit = 100};
    db->ops->begin(db, false);
    db->ops->webhook_deliveries(db, endpoint_id, &q, &rows, &total);
    db->ops->commit(db);
    json_decref(rows);
    return total;
}

static json_t *claim(int64_t now)
{
    json_t *rows = NULL;
    db->ops->begin(db, true);
    CHECK_INT(db->ops->webhook_claim(db, now, 1000, 10, &rows), STORE_OK);
    db->ops->commit(db);
    return rows;
}

static void record(const json_t *row, int status, const char *state, int64_t at, int64_t next)
{
    struct webhook_attempt a = {.delivery_seq = json_integer_value(json_object_get(row, "seq")),
                                .at_ms = at,
                                .duration_ms = 5,
                                .status = status,
                                .error = "",
                                .response = status == 200 ? "ok" : "boom",
                                .state = state,
                                .next_at_ms = next};
    db->ops->begin(db, true);
    CHECK_INT(db->ops->webhook_attempt_record(db, &a), STORE_OK);
    db->ops->commit(db);
}

TEST(outbox_in_the_write_transaction)
{
    setup();
    endpoint("00000000000000e1", WEBHOOK_EV_DEPLOY_FAILED, true);
    endpoint("00000000000000e2", WEBHOOK_EV_DDOS_STARTED, true); /* not subscribed to deploy failures */
    endpoint("00000000000000e3", WEBHOOK_EV_ALL, false);         /* disabled */
    CHECK_INT(fail_deploy("d1", false), STORE_OK);
    CHECK_INT(count("00000000000000e1"), 0); /* rolled back: nothing queued */
    CHECK_INT(fail_deploy("d1", true), STORE_OK);
    CHECK_INT(count("00000000000000e1"), 1);
    CHECK_INT(count("00000000000000e2"), 0);
    CHECK_INT(count("00000000000000e3"), 0);
    CHECK_INT(fail_deploy("d1", true), STORE_OK); /* the same failure again: nothing new */
    CHECK_INT(count("00000000000000e1"), 1);
    CHECK_INT(fail_deploy("d2", true), STORE_OK); /* another fragment fails */
    CHECK_INT(count("00000000000000e1"), 2);
    scratch_close(db, dir);
}

TEST(order_per_resource_and_attempts)
{
    setup();
    endpoint("00000000000000e1", WEBHOOK_EV_DEPLOY_FAILED, true);
    fail_deploy("d1", true);
    fail_deploy("d2", true);
    int64_t now = (int64_t)time(NULL) * 1000 + 10000;
    json_t *rows = claim(now);
    CHECK_INT(json_array_size(rows), 1); /* the second waits for the first */
    json_t *first = json_incref(json_array_get(rows, 0));
    json_decref(rows);
    CHECK_STR(json_string_value(json_object_get(first, "type")), "dataplane.deploy_failed");
    CHECK_STR(json_string_value(json_object_get(first, "secret")), "secret-00000000000000e1");
    CHECK(
        strstr(json_string_value(json_object_get(first, "payload")), "\"reason\":\"bird -p: syntax error\""));
    rows = claim(now); /* leased: not claimed twice */
    CHECK_INT(json_array_size(rows), 0);
    json_decref(rows);
    record(first, 500, "pending", now, now + 5000);
    int64_t due = 0;
    db->ops->begin(db, false);
    CHECK_INT(db->ops->webhook_next_due(db, &due), STORE_OK);
    db->ops->commit(db);
    CHECK(due < now); /* the one held back is due (claim holds it back) */
    rows = claim(now + 1000);
    CHECK_INT(json_array_size(rows), 0);
    json_decref(rows);
    rows = claim(now + 5000);
    CHECK_INT(json_array_size(rows), 1);
    CHECK(json_equal(json_object_get(json_array_get(rows, 0), "id"), json_object_get(first, "id")));
    CHECK_INT(json_integer_value(json_object_get(json_array_get(rows, 0), "attempts")), 1);
    json_decref(rows);
    record(first, 200, "delivered", now + 5000, now + 5000);
    rows = claim(now + 5000);
    CHECK_INT(json_array_size(rows), 1);
    CHECK(!json_equal(json_object_get(json_array_get(rows, 0), "id"), json_object_get(first, "id")));
    json_decref(rows);
    /* the log: attempts with their statuses and responses */
    json_t *detail = NULL;
    db->ops->begin(db, false);
    CHECK_INT(db->ops->webhook_delivery_get(db, "00000000000000e1",
                                            json_string_value(json_object_get(first, "id")), &detail),
              STORE_OK);
    CHECK_INT(db->ops->webhook_delivery_get(db, "00000000000000e9",
                                            json_string_value(json_object_get(first, "id")), &rows),
              STORE_NOT_FOUND);
    db->ops->commit(db);
    CHECK_STR(json_string_value(json_object_get(detail, "state")), "delivered");
    json_t *log = json_object_get(detail, "attempts_log");
    CHECK_INT(json_array_size(log), 2);
    CHECK_INT(json_integer_value(json_object_get(json_array_get(log, 0), "status")), 500);
    CHECK_STR(json_string_value(json_object_get(json_array_get(log, 0), "response")), "boom");
    CHECK_INT(json_integer_value(json_object_get(json_array_get(log, 1), "status")), 200);
    json_decref(detail);
    /* replay and ping: new deliveries; delete takes the log */
    db->ops->begin(db, true);
    CHECK_INT(db->ops->webhook_replay(db, "00000000000000e1", json_string_value(json_object_get(first, "id")),
                                      "00000000000000r1"),
              STORE_OK);
    CHECK_INT(db->ops->webhook_replay(db, "00000000000000e1", "ffffffffffffffff", "00000000000000r2"),
              STORE_NOT_FOUND);
    CHECK_INT(db->ops->webhook_enqueue_one(db, "00000000000000e1", "00000000000000v1", WEBHOOK_PING, "{}",
                                           "00000000000000p1"),
              STORE_OK);
    db->ops->commit(db);
    CHECK_INT(count("00000000000000e1"), 4);
    db->ops->begin(db, true);
    CHECK_INT(db->ops->webhook_delete(db, "someone-else0000", "00000000000000e1"), STORE_NOT_FOUND);
    CHECK_INT(db->ops->webhook_delete(db, SCRATCH_CUSTOMER, "00000000000000e1"), STORE_OK);
    db->ops->commit(db);
    CHECK_INT(count("00000000000000e1"), 0);
    json_decref(first);
    scratch_close(db, dir);
}

UNIT_MAIN(UNIT_CASE(outbox_in_the_write_transaction), UNIT_CASE(order_per_resource_and_attempts))
