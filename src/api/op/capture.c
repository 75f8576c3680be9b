/* capture.c — capture packages: POST {OPS}/capture_package queues a task
 * (one per site per minute), GET {OPC}/capture_package?api_task_id= reads
 * its status, and GET {OPC}/capture_package/{api_task_id}/pcap (beyond the
 * documents: the package_url) downloads the capture `parapet
 * capture-agent` stored (capture_queue.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api/op/capture_queue.h"
#include "api/op/op.h"
#include "api/op/op_kinds.h"
#include "core/config.h"
#include "core/resource.h"

/* 429 when the site's latest task is younger than a minute. */
static int check_rate(struct req *r, const struct resource *site)
{
    long total = op_count_children(r, OP_CAPTURE.name, site);
    if (total <= 0)
        return (int)total; /* 0, or -1 replied */
    struct res_query q = {.kind = OP_CAPTURE.name,
                          .customer_id = r->customer.id,
                          .parent_rid = site->rid,
                          .offset = total - 1,
                          .limit = 1};
    json_t *rows = NULL;
    long n;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &n);
    json_int_t last = json_integer_value(json_object_get(json_array_get(rows, 0), "created_at"));
    json_decref(rows);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    long age = (long)(time(NULL) - last);
    if (age >= OP_CAPTURE_INTERVAL_S)
        return 0;
    r->retry_after = (unsigned)(OP_CAPTURE_INTERVAL_S - (age < 0 ? 0 : age));
    reply_error(r, E_RATE_LIMITED, "capture_package: one capture per site per minute; try again in %u s",
                r->retry_after);
    return -1;
}

int op_capture_create(struct req *r)
{
    struct resource site;
    if (op_load_chain(r, &site, NULL, NULL) != 0)
        return 0;
    struct cidr dest, site_blocks[OP_MAX_SITE_BLOCKS];
    const char *dest_ip = field_str(r, "dest_ip");
    size_t ns = op_doc_blocks(&site, site_blocks, OP_MAX_SITE_BLOCKS);
    if (cidr_parse(dest_ip, CIDR_ALLOW_BARE, &dest) != 0 || !cidrs_within(&dest, 1, site_blocks, ns))
        return reply_error(r, E_RULE, "dest_ip: %s must lie inside the site's blocks", dest_ip);
    if (check_rate(r, &site) != 0)
        return 0;
    struct resource task;
    int rc = op_capture_queue(r->store, &site, dest_ip, (long)field_int(r, "length", 128), &task);
    req_hold(r, task.doc);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, json_pack("{s:I}", "api_task_id", (json_int_t)strtoll(task.id, NULL, 10)));
}

/* The customer's task api_task_id (from the query or the path). */
static int load_task(struct req *r, const char *id, struct resource *task)
{
    struct res_query q = {.kind = OP_CAPTURE.name, .customer_id = r->customer.id};
    int rc = id ? r->store->ops->res_get(r->store, &q, id, NULL, task) : STORE_NOT_FOUND;
    if (rc == STORE_OK) {
        req_hold(r, task->doc);
        return 0;
    }
    if (rc == STORE_NOT_FOUND)
        reply_error(r, E_NOT_FOUND, "api_task_id: no such capture task");
    else
        reply_store_error(r, rc);
    return -1;
}

int op_capture_get(struct req *r)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", field_int(r, "api_task_id", 0));
    struct resource task;
    if (load_task(r, id, &task) != 0)
        return 0;
    long status = (long)json_integer_value(json_object_get(task.doc, "status"));
    char url[1024] = "";
    if (status == OP_CAPTURE_COMPLETED) /* absolute (serve --public-url); the client adds its access_token */
        snprintf(url, sizeof url, "%s/api/spe/customer/%s/op/capture_package/%s/pcap", r->config->public_url,
                 task.customer_id, task.id);
    return reply_result(r, json_pack("{s:s,s:i}", "package_url", url, "status", (int)status));
}

/* The whole file (at most OP_CAPTURE_MAX_FILE bytes) into a malloc'd buffer. */
static char *read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size > OP_CAPTURE_MAX_FILE) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0 && errno != EINTR)
            break;
        got += n > 0 ? (size_t)n : 0;
    }
    close(fd);
    if (buf && got != (size_t)st.st_size) {
        free(buf);
        return NULL;
    }
    *len = got;
    return buf;
}

int op_capture_download(struct req *r)
{
    struct resource task;
    if (load_task(r, path_param(r, "api_task_id"), &task) != 0)
        return 0;
    long status = (long)json_integer_value(json_object_get(task.doc, "status"));
    if (status != OP_CAPTURE_COMPLETED)
        return reply_error(r, E_STATE, "api_task_id: the capture is not complete (status %ld)", status);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", r->config->data_dir, op_doc_str(&task, "file"));
    size_t len = 0;
    char *data = read_file(path, &len);
    if (!data)
        return reply_error(r, E_INTERNAL, "api_task_id: the capture file cannot be read");
    return reply_raw(r, "application/vnd.tcpdump.pcap", data, len);
}
