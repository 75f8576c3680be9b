/* test_group_commit.c — durable commits on the SQLite store (sqlite_writer.h):
 * a commit that wrote returns only after a sync of the WAL that began after
 * it; a read or an empty write transaction syncs nothing; concurrent
 * writers share syncs. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "store/sqlite.h"
#include "store/sqlite_writer.h"
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

enum { THREADS = 8, WRITES = 50 };

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
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, writer_thread, (void *)(1000 + i * WRITES));
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    uint64_t syncs = writer_syncs(w) - before;
    fprintf(stderr, "  %d commits, %llu syncs\n", THREADS * WRITES, (unsigned long long)syncs);
    CHECK(syncs >= 1);
    CHECK(syncs < THREADS * WRITES); /* grouped: fewer syncs than commits */
    json_t *list = NULL;
    keep->ops->begin(keep, false);
    keep->ops->portal_list(keep, &list);
    keep->ops->commit(keep);
    CHECK_INT(json_array_size(list), 1 + THREADS * WRITES);
    json_decref(list);
    writer_put(w);
    keep->ops->close(keep);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
}

UNIT_MAIN(UNIT_CASE(write_commit_syncs_and_read_does_not), UNIT_CASE(concurrent_writers_share_syncs))
