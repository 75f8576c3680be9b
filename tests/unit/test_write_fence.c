/* test_write_fence.c — after a failed sync of the WAL the SQLite store
 * acknowledges no write for the rest of the process (store/write_fence.h):
 * the commit whose sync failed fails, later write transactions are refused
 * at BEGIN, deferred waiters are told the commit is not durable, reads go
 * on; a full disk is noted for the thread that met it and taken once. (Its
 * own binary: the fence is process-wide and never lifts.) */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "store/sqlite/sqlite.h"
#include "store/sqlite/writer.h"
#include "store/write_fence.h"
#include "unit.h"

static int add_portal(struct store *s, int n)
{
    struct portal p = {.name = "P"};
    snprintf(p.id, sizeof p.id, "%016x", n);
    if (s->ops->begin(s, true) != STORE_OK)
        return -2;
    if (s->ops->portal_create(s, &p) != STORE_OK) {
        s->ops->rollback(s);
        return -1;
    }
    return s->ops->commit(s) == STORE_OK ? 0 : -1;
}

static atomic_int told = -1;

static void durable(void *arg, bool ok)
{
    (void)arg;
    atomic_store(&told, ok ? 1 : 0);
}

TEST(disk_full_note_is_per_thread_and_taken_once)
{
    CHECK(!store_take_disk_full());
    store_note_disk_full();
    CHECK(store_take_disk_full());
    CHECK(!store_take_disk_full());
}

TEST(a_failed_sync_stops_writes_for_good)
{
    char dir[] = "/tmp/parapet-fence-XXXXXX", path[128], wal[136];
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/fence.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", path);
    struct store *s = sqlite_store_open(path);
    CHECK(s != NULL);
    CHECK_INT(add_portal(s, 1), 0);
    CHECK(!write_fence_tripped());
    /* the WAL removed under the store: its sync cannot be made (what SQLite
     * still writes there is lost on restart) */
    CHECK_INT(unlink(wal), 0);
    CHECK_INT(add_portal(s, 2), -1);
    CHECK(write_fence_tripped());
    /* refused at BEGIN from now on, even though a new WAL could be synced */
    CHECK_INT(add_portal(s, 3), -2);
    CHECK_INT(add_portal(s, 4), -2);
    /* a commit counted before the failure and waited for in the deferred
     * way (the write lane's) is reported not durable */
    struct sqlite_writer *w = writer_get(path);
    CHECK_INT(writer_notify_durable(w, writer_committed(w), durable, NULL), 0);
    for (int i = 0; i < 200 && atomic_load(&told) < 0; i++)
        usleep(10000);
    CHECK_INT(atomic_load(&told), 0);
    writer_put(w);
    /* reads go on */
    json_t *list = NULL;
    CHECK_INT(s->ops->begin(s, false), STORE_OK);
    CHECK_INT(s->ops->portal_list(s, &list), STORE_OK);
    CHECK(json_array_size(list) >= 1);
    json_decref(list);
    s->ops->rollback(s);
    s->ops->close(s);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
}

UNIT_MAIN(UNIT_CASE(disk_full_note_is_per_thread_and_taken_once), UNIT_CASE(a_failed_sync_stops_writes_for_good))
