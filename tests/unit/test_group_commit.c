/* test_group_commit.c — durable commits on the SQLite store (sqlite/writer.h):
 * a commit that wrote returns only after a sync of the WAL that began after
 * it; a read or an empty write transaction syncs nothing; concurrent
 * writers share syncs; the syncer thread waits (briefly) for the write
 * transaction open on the writer. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "store/sqlite/writer.h"
#include "unit.h"

static char dir[64] = "/tmp/parapet-gc-XXXXXX";
static char db_path[128];

static struct store *open_store(void)
{
    if (!db_path[0]) {
        if (!mkdtemp(dir))
            abort();
        snprintf(db_path, sizeof db_path, "%s/gc.db", dir);
    }
    struct store *s = sqlite_store_open(db_path);
    if (!s)
        abort();
    return s;
}

static int add_portal(struct store *s, int n)
{
    struct portal p = {.name = "P"};
    snprintf(p.id, sizeof p.id, "%016x", n);
    if (s->ops->begin(s, true) != STORE_OK || s->ops->portal_create(s, &p) != STORE_OK) {
        s->ops->rollback(s);
        return -1;
    }
    return s->ops->commit(s) == STORE_OK ? 0 : -1;
}

TEST(write_commit_syncs_and_read_does_not)
{
    struct store *s = open_store();
    struct sqlite_writer *w = writer_get(db_path);
    uint64_t before = writer_syncs(w);
    CHECK_INT(add_portal(s, 1), 0);
    CHECK(writer_syncs(w) > before);
    before = writer_syncs(w);
    s->ops->begin(s, false);
    json_t *list = NULL;
    s->ops->portal_list(s, &list);
    json_decref(list);
    s->ops->commit(s);
    s->ops->begin(s, true); /* a write transaction that changed nothing */
    s->ops->commit(s);
    CHECK_INT(writer_syncs(w), before);
    writer_put(w);
    s->ops->close(s);
}

/* ---- the syncer thread's gathering (deferred durability) ---- */

static atomic_int callbacks;

static void durable(void *arg, bool ok)
{
    (void)arg;
    if (ok)
        atomic_fetch_add(&callbacks, 1);
}

static bool callbacks_reach(int n, int ms)
{
    for (int i = 0; i < ms && atomic_load(&callbacks) < n; i++)
        usleep(1000);
    return atomic_load(&callbacks) >= n;
}

/* A deferred commit, its ticket handed to the syncer thread. */
static void commit_deferred(struct store *s)
{
    s->ops->defer_durability(s, true);
    if (s->ops->commit(s) != STORE_OK)
        abort();
    uint64_t ticket = s->ops->commit_ticket(s);
    if (ticket == 0 || s->ops->durable_notify(s, ticket, durable, NULL) != 0)
        abort();
}

static void begin_portal(struct store *s, int n)
{
    struct portal p = {.name = "G"};
    snprintf(p.id, sizeof p.id, "%016x", n);
    if (s->ops->begin(s, true) != STORE_OK || s->ops->portal_create(s, &p) != STORE_OK)
        abort();
}

/* While another write transaction is open, the syncer waits for its commit
 * and one fdatasync covers both. */
TEST(syncer_gathers_the_open_transaction)
{
    struct store *a = open_store(), *b = open_store();
    struct sqlite_writer *w = writer_get(db_path);
    writer_set_gather(w, 5000000); /* long enough never to run out here */
    atomic_store(&callbacks, 0);
    uint64_t before = writer_syncs(w);
    begin_portal(a, 5001);
    commit_deferred(a);
    begin_portal(b, 5002); /* open on the writer */
    usleep(50000);
    CHECK_INT(atomic_load(&callbacks), 0); /* waiting for b */
    CHECK_INT(writer_syncs(w), before);
    commit_deferred(b);
    CHECK(callbacks_reach(2, 5000));
    CHECK_INT(writer_syncs(w) - before, 1);
    writer_set_gather(w, 2000); /* the default */
    writer_put(w);
    a->ops->close(a);
    b->ops->close(b);
}

/* ... but not for longer than the bound: a transaction that stays open
 * does not hold back the commits before it. */
TEST(syncer_gathers_for_a_bounded_time)
{
    struct store *a = open_store(), *b = open_store();
    struct sqlite_writer *w = writer_get(db_path);
    writer_set_gather(w, 20000);
    atomic_store(&callbacks, 0);
    begin_portal(a, 5003);
    commit_deferred(a);
    begin_portal(b, 5004);
    CHECK(callbacks_reach(1, 3000)); /* while b is still open */
    b->ops->rollback(b);
    writer_set_gather(w, 2000); /* the default */
    writer_put(w);
    a->ops->close(a);
    b->ops->close(b);
}

enum { THREADS = 8, WRITES = 50 };

static size_t portal_count(struct store *s)
{
    json_t *list = NULL;
    s->ops->begin(s, false);
    s->ops->portal_list(s, &list);
    s->ops->commit(s);
    size_t n = json_array_size(list);
    json_decref(list);
    return n;
}

static void *writer_thread(void *arg)
{
    int base = (int)(long)arg;
    struct store *s = open_store();
    for (int i = 0; i < WRITES; i++)
        if (add_portal(s, base + i) != 0)
            abort();
    s->ops->close(s);
    return NULL;
}

TEST(concurrent_writers_share_syncs)
{
    struct store *keep = open_store();
    struct sqlite_writer *w = writer_get(db_path);
    uint64_t before = writer_syncs(w);
    size_t portals = portal_count(keep);
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, writer_thread, (void *)(1000 + i * WRITES));
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    uint64_t syncs = writer_syncs(w) - before;
    fprintf(stderr, "  %d commits, %llu syncs\n", THREADS * WRITES, (unsigned long long)syncs);
    CHECK(syncs >= 1);
    CHECK(syncs < THREADS * WRITES); /* grouped: fewer syncs than commits */
    CHECK_INT(portal_count(keep), portals + THREADS * WRITES);
    writer_put(w);
    keep->ops->close(keep);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
}

UNIT_MAIN(UNIT_CASE(write_commit_syncs_and_read_does_not), UNIT_CASE(syncer_gathers_the_open_transaction),
          UNIT_CASE(syncer_gathers_for_a_bounded_time), UNIT_CASE(concurrent_writers_share_syncs))
