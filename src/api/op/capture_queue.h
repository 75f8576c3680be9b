/* capture_queue.h — the capture tasks' life, shared by the API (capture.c)
 * and `parapet capture-agent` (src/cli/capture_agent.c).
 *
 * A task is an "op.capture" resource under its site (serial id = the
 * api_task_id) with the document
 *   {"dest_ip": "10.6.0.5/32", "length": 128, "status": 1,
 *    "claimed_at": T, "completed_at": T, "packets": N, "file": "captures/..."}
 * status: 1 queued, 2 capture in progress, 0 completed (the document's
 * values). A queued task also has one "op.capture.queued" child, so that
 * the agent finds the queued tasks of every customer without reading the
 * finished ones; claiming a task removes it. */
#ifndef PARAPET_API_OP_CAPTURE_QUEUE_H
#define PARAPET_API_OP_CAPTURE_QUEUE_H

#include <stddef.h>

#include "store/store.h"

extern const struct res_kind OP_CAPTURE_QUEUED;

enum {
    OP_CAPTURE_COMPLETED = 0,
    OP_CAPTURE_QUEUED_STATUS = 1,
    OP_CAPTURE_RUNNING = 2,
    OP_CAPTURE_INTERVAL_S = 60,     /* one capture per site per minute */
    OP_CAPTURE_MAX_LENGTH = 10000,  /* packets of one capture */
    OP_CAPTURE_SNAPLEN = 2048,      /* bytes kept of each packet captured live */
    OP_CAPTURE_MAX_FILE = 32 << 20, /* bytes of one capture file */
};

/* The capture files live in DATA/captures/ (mode 0700, like DATA). */
#define OP_CAPTURE_DIR "captures"

/* "captures/<customer_id>-<task_id>.pcap": the file's name relative to the
 * data directory. */
void op_capture_file_name(char *out, size_t size, const char *customer_id, const char *task_id);

/* Queues a new task for the site (in the caller's transaction): fills
 * task (its doc is the caller's to release). STORE_* code. */
int op_capture_queue(struct store *s, const struct resource *site, const char *dest_ip, long length,
                     struct resource *task);

/* Claims the oldest queued task in its own write transaction: status 2,
 * its queue entry removed. STORE_OK with *task filled (release its doc),
 * STORE_NOT_FOUND when nothing is queued. */
int op_capture_claim(struct store *s, struct resource *task);

/* Completes a claimed task in its own write transaction: status 0 and the
 * file holding `packets` packets; or, when file is NULL (the capture
 * failed), queues it again. STORE_* code. */
int op_capture_finish(struct store *s, const struct resource *task, const char *file, long packets);

#endif
