/* test_op_capture_queue.c — api/op/capture_queue.h on a real SQLite store:
 * a task is queued (1), claimed oldest first across customers (2),
 * completed (0) or put back in the queue when its capture failed. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/op/capture_queue.h"
#include "api/op/op_kinds.h"
#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "unit.h"

static char dir[64] = "/tmp/parapet-capq-XXXXXX";
static struct store *s;
static struct resource site_a, site_b;

static void teardown(void)
{
    s->ops->close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
}

static void make_site(const char *customer, const char *name, struct resource *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->customer_id, sizeof out->customer_id, "%s", customer);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->doc = json_object();
    if (s->ops->res_create(s, &OP_SITE, out) != STORE_OK)
        abort();
    json_decref(out->doc);
    out->doc = NULL;
}

static void setup(void)
{
    if (s)
        return;
    if (!mkdtemp(dir))
        abort();
    atexit(teardown);
    char path[128];
    snprintf(path, sizeof path, "%s/q.db", dir);
    s = sqlite_store_open(path);
    if (!s)
        abort();
    s->ops->begin(s, true);
    struct portal p = {.id = "p000000000000001", .name = "P"};
    struct customer a = {.id = "c00000000000000a", .portal_id = "p000000000000001", .name = "A"};
    struct customer b = {.id = "c00000000000000b", .portal_id = "p000000000000001", .name = "B"};
    if (s->ops->portal_create(s, &p) || s->ops->customer_create(s, &a) || s->ops->customer_create(s, &b))
        abort();
    make_site("c00000000000000a", "a", &site_a);
    make_site("c00000000000000b", "b", &site_b);
    if (s->ops->commit(s))
        abort();
}

static void queue(const struct resource *site, const char *dest, struct resource *task)
{
    CHECK_INT(s->ops->begin(s, true), STORE_OK);
    CHECK_INT(op_capture_queue(s, site, dest, 5, task), STORE_OK);
    CHECK_INT(s->ops->commit(s), STORE_OK);
    resource_clear(task);
}

static long status_of(const struct resource *task)
{
    struct res_query q = {.kind = OP_CAPTURE.name, .customer_id = task->customer_id};
    struct resource got;
    s->ops->begin(s, false);
    long st = -1;
    if (s->ops->res_get(s, &q, task->id, NULL, &got) == STORE_OK) {
        st = (long)json_integer_value(json_object_get(got.doc, "status"));
        resource_clear(&got);
    }
    s->ops->rollback(s);
    return st;
}

TEST(tasks_are_claimed_oldest_first_and_completed)
{
    setup();
    struct resource t1, t2, claimed;
    queue(&site_a, "10.0.0.1/32", &t1);
    queue(&site_b, "10.1.0.0/24", &t2);
    CHECK_STR(t1.customer_id, "c00000000000000a");
    CHECK(strtol(t2.id, NULL, 10) > strtol(t1.id, NULL, 10)); /* serial ids */
    CHECK_INT(status_of(&t1), OP_CAPTURE_QUEUED_STATUS);

    CHECK_INT(op_capture_claim(s, &claimed), STORE_OK);
    CHECK_STR(claimed.id, t1.id);
    CHECK_STR(json_string_value(json_object_get(claimed.doc, "dest_ip")), "10.0.0.1/32");
    CHECK_INT(json_integer_value(json_object_get(claimed.doc, "length")), 5);
    CHECK_INT(status_of(&t1), OP_CAPTURE_RUNNING);
    CHECK_INT(op_capture_finish(s, &claimed, "captures/x.pcap", 3), STORE_OK);
    resource_clear(&claimed);
    CHECK_INT(status_of(&t1), OP_CAPTURE_COMPLETED);

    /* the other customer's task next; a failed capture goes back in the queue */
    CHECK_INT(op_capture_claim(s, &claimed), STORE_OK);
    CHECK_STR(claimed.id, t2.id);
    CHECK_STR(claimed.customer_id, "c00000000000000b");
    CHECK_INT(op_capture_finish(s, &claimed, NULL, -1), STORE_OK);
    resource_clear(&claimed);
    CHECK_INT(status_of(&t2), OP_CAPTURE_QUEUED_STATUS);
    CHECK_INT(op_capture_claim(s, &claimed), STORE_OK);
    CHECK_STR(claimed.id, t2.id);
    CHECK_INT(op_capture_finish(s, &claimed, "captures/y.pcap", 0), STORE_OK);
    resource_clear(&claimed);

    /* nothing left; a completed task is never claimed again */
    CHECK_INT(op_capture_claim(s, &claimed), STORE_NOT_FOUND);
    CHECK_INT(status_of(&t2), OP_CAPTURE_COMPLETED);
}

TEST(a_task_of_a_deleted_site_cannot_be_finished)
{
    setup();
    struct resource site, t, claimed;
    s->ops->begin(s, true);
    make_site("c00000000000000a", "gone", &site);
    s->ops->commit(s);
    queue(&site, "10.2.0.1/32", &t);
    CHECK_INT(op_capture_claim(s, &claimed), STORE_OK);
    CHECK_STR(claimed.id, t.id);
    s->ops->begin(s, true);
    CHECK_INT(s->ops->res_delete(s, site.rid, NULL), STORE_OK);
    s->ops->commit(s);
    CHECK_INT(op_capture_finish(s, &claimed, "captures/z.pcap", 1), STORE_NOT_FOUND);
    resource_clear(&claimed);
    CHECK_INT(op_capture_claim(s, &claimed), STORE_NOT_FOUND);
}

UNIT_MAIN(UNIT_CASE(tasks_are_claimed_oldest_first_and_completed),
          UNIT_CASE(a_task_of_a_deleted_site_cannot_be_finished))
