/* store_failure.c — see store_failure.h. */
#include "server/store_failure.h"

#include "core/errors.h"
#include "core/req.h"
#include "store/write_fence.h"

void explain_store_failure(struct req *r)
{
    bool full = store_take_disk_full();
    if (r->code != err_code(E_STORE) && r->code != err_code(E_UNAVAILABLE))
        return;
    if (write_fence_tripped())
        reply_error(r, E_WRITES_STOPPED,
                    "writes are stopped: a sync of the database's log failed; nothing is written until an "
                    "operator restarts the server");
    else if (full)
        reply_error(r, E_DISK_FULL, "the disk is full: nothing was written; retry once space is freed");
}

void reply_not_durable(struct req *r)
{
    if (write_fence_tripped())
        reply_error(r, E_WRITES_STOPPED,
                    "the change may not be on disk: a sync of the database's log failed, and writes are stopped "
                    "until an operator restarts the server; check it then");
    else
        reply_error(r, E_STORE, "the change was made but could not be written to disk; check it");
}
