/* store_failure.h — the answer to a request whose store operation failed
 * because the disk failed or filled (store/write_fence.h): 503 50300002
 * once writes are stopped after a failed sync, 507 50700001 when the
 * transaction found no space; any other failure keeps its answer. */
#ifndef PARAPET_STORE_FAILURE_H
#define PARAPET_STORE_FAILURE_H

struct req;

/* After the request's handler ran on this thread: a 500 "store failed" or
 * 503 "not reachable" answer is replaced by the reason above, if any.
 * Clears this thread's note of a full disk either way. */
void explain_store_failure(struct req *r);
/* A write that was committed but whose sync failed: never a success. */
void reply_not_durable(struct req *r);

#endif
