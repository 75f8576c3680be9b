/* dispatch.h — runs one request through the route table: path and method,
 * body encoding, token, tenancy, field checks, then the handler inside one
 * store transaction. The handler sees only requests that passed all of it. */
#ifndef PARAPET_DISPATCH_H
#define PARAPET_DISPATCH_H

#include <stdbool.h>

#include "core/req.h"

/* Builds the router from the route table; -1 (with a message) if it clashes. */
int dispatch_init(void);
/* Calls fn(path) after every committed write request (set once, before
 * serving): the deployers render what changed (`serve` passes
 * deployers_wake_path), without the dispatcher knowing of them. */
void dispatch_on_commit(void (*fn)(const char *path));
void dispatch_shutdown(void);
/* Fills r's reply. r->store, r->config and the input side must be set. */
void dispatch(struct req *r);
/* dispatch in two steps: dispatch_to does all of it but, when
 * defer_writes, the handler of a request that writes, and then answers
 * true; dispatch_write runs that handler later, on any thread, with
 * r->store that thread's store (server/write_lane.h). */
bool dispatch_to(struct req *r, bool defer_writes);
void dispatch_write(struct req *r);

#endif
