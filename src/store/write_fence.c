/* write_fence.c — see write_fence.h. */
#include "store/write_fence.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"

static atomic_bool stopped;
static atomic_ulong sync_failures, disk_full;
static _Thread_local bool full_noted;

void write_fence_trip(const char *what, int err)
{
    atomic_fetch_add(&sync_failures, 1);
    if (!atomic_exchange(&stopped, true))
        fprintf(stderr,
                "parapet: store: syncing %s failed%s%s%s: writes are stopped and none is acknowledged from now on; "
                "reads go on. Check the disk, then restart the server\n",
                what, err ? " (" : "", err ? strerror(err) : "", err ? ")" : "");
}

bool write_fence_tripped(void)
{
    return atomic_load_explicit(&stopped, memory_order_relaxed);
}

void store_note_disk_full(void)
{
    atomic_fetch_add(&disk_full, 1);
    full_noted = true;
}

bool store_take_disk_full(void)
{
    bool was = full_noted;
    full_noted = false;
    return was;
}

void write_fence_metrics(struct strbuf *b)
{
    sb_printf(b,
              "# HELP parapet_store_writes_stopped 1 once a sync of the database's log failed: no write is "
              "acknowledged until a restart.\n"
              "# TYPE parapet_store_writes_stopped gauge\nparapet_store_writes_stopped %d\n"
              "# HELP parapet_store_sync_failures_total Syncs of the database's log that failed.\n"
              "# TYPE parapet_store_sync_failures_total counter\nparapet_store_sync_failures_total %lu\n"
              "# HELP parapet_store_disk_full_total Store operations that failed for lack of disk space.\n"
              "# TYPE parapet_store_disk_full_total counter\nparapet_store_disk_full_total %lu\n",
              write_fence_tripped() ? 1 : 0, atomic_load(&sync_failures), atomic_load(&disk_full));
}
