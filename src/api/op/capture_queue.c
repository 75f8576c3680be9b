/* capture_queue.c — see capture_queue.h. */
#include "api/op/capture_queue.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api/op/op_kinds.h"

const struct res_kind OP_CAPTURE_QUEUED = {"op.capture.queued", .parent = "op.capture"};

void op_capture_file_name(char *out, size_t size, const char *customer_id, const char *task_id)
{
    snprintf(out, size, "%s/%s-%s.pcap", OP_CAPTURE_DIR, customer_id, task_id);
}

/* The queue entry that makes the agent find the task. */
static int enqueue(struct store *s, const struct resource *task)
{
    struct resource q = {.parent_rid = task->rid};
    memcpy(q.customer_id, task->customer_id, sizeof q.customer_id);
    q.doc = json_pack("{s:s}", "task_id", task->id);
    int rc = s->ops->res_create(s, &OP_CAPTURE_QUEUED, &q);
    json_decref(q.doc);
    return rc;
}

int op_capture_queue(struct store *s, const struct resource *site, const char *dest_ip, long length,
                     struct resource *task)
{
    memset(task, 0, sizeof *task);
    task->parent_rid = site->rid;
    memcpy(task->customer_id, site->customer_id, sizeof task->customer_id);
    task->doc = json_pack("{s:s,s:i,s:i}", "dest_ip", dest_ip, "length", (int)length, "status",
                          OP_CAPTURE_QUEUED_STATUS);
    int rc = s->ops->res_create(s, &OP_CAPTURE, task);
    return rc == STORE_OK ? enqueue(s, task) : rc;
}

/* The task a queue row names (in the current transaction). */
static int task_of(struct store *s, const char *customer_id, const char *task_id, struct resource *task)
{
    struct res_query q = {.kind = OP_CAPTURE.name, .customer_id = customer_id};
    return task_id ? s->ops->res_get(s, &q, task_id, NULL, task) : STORE_NOT_FOUND;
}

int op_capture_claim(struct store *s, struct resource *task)
{
    memset(task, 0, sizeof *task);
    int rc = s->ops->begin(s, true);
    if (rc != STORE_OK)
        return rc;
    struct res_query q = {.kind = OP_CAPTURE_QUEUED.name, .limit = 1};
    json_t *rows = NULL;
    long total = 0;
    rc = s->ops->res_list(s, &q, &rows, &total);
    json_t *row = json_array_get(rows, 0);
    if (rc == STORE_OK && !row)
        rc = STORE_NOT_FOUND;
    if (rc == STORE_OK)
        rc = task_of(s, json_string_value(json_object_get(row, "customer_id")),
                     json_string_value(json_object_get(json_object_get(row, "doc"), "task_id")), task);
    if (rc == STORE_OK) {
        json_object_set_new(task->doc, "status", json_integer(OP_CAPTURE_RUNNING));
        json_object_set_new(task->doc, "claimed_at", json_integer((json_int_t)time(NULL)));
        rc = s->ops->res_update(s, task);
    }
    if (rc == STORE_OK)
        rc = s->ops->res_delete(s, json_integer_value(json_object_get(row, "rid")), NULL);
    json_decref(rows);
    if (rc == STORE_OK)
        rc = s->ops->commit(s);
    if (rc != STORE_OK) {
        s->ops->rollback(s);
        resource_clear(task);
    }
    return rc;
}

int op_capture_finish(struct store *s, const struct resource *claimed, const char *file, long packets)
{
    struct resource task = {0};
    int rc = s->ops->begin(s, true);
    if (rc == STORE_OK)
        rc = task_of(s, claimed->customer_id, claimed->id, &task);
    if (rc == STORE_OK && file) {
        json_object_set_new(task.doc, "status", json_integer(OP_CAPTURE_COMPLETED));
        json_object_set_new(task.doc, "file", json_string(file));
        json_object_set_new(task.doc, "packets", json_integer(packets));
        json_object_set_new(task.doc, "completed_at", json_integer((json_int_t)time(NULL)));
        rc = s->ops->res_update(s, &task);
    } else if (rc == STORE_OK) { /* back in the queue for another try */
        json_object_set_new(task.doc, "status", json_integer(OP_CAPTURE_QUEUED_STATUS));
        rc = s->ops->res_update(s, &task);
        if (rc == STORE_OK)
            rc = enqueue(s, &task);
    }
    resource_clear(&task);
    if (rc == STORE_OK)
        rc = s->ops->commit(s);
    if (rc != STORE_OK)
        s->ops->rollback(s);
    return rc;
}
