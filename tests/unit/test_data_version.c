/* test_data_version.c — store/data_version.h and the SQLite store's
 * data_version op: every commit that wrote data changes the value seen by
 * all connections to the database (also those opened separately, as the
 * admin CLI's are); reads and rolled-back writes leave it alone; the
 * accounts version changes only with the accounts. */
#include "store/data_version.h"

#include <stdlib.h>
#include <unistd.h>

#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "unit.h"

static char dir[64];

static void remove_dir(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
}

static const char *temp_path(const char *name)
{
    static char path[128];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/parapet-unit-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

TEST(counter_is_shared_between_mappings)
{
    const char *db = temp_path("counter.db");
    struct data_version *a = data_version_open(db), *b = data_version_open(db);
    CHECK(a && b);
    uint64_t before = data_version_read(a);
    CHECK(before != 0);
    CHECK_INT(data_version_read(b), before);
    data_version_bump(a, false);
    CHECK(data_version_read(b) != before);
    CHECK_INT(data_version_read(a), data_version_read(b));
    data_version_close(a);
    data_version_close(b);
    CHECK_INT(data_version_read(NULL), 0); /* unknown */
    CHECK(data_version_open("") == NULL);
}

static struct portal portal(const char *id)
{
    struct portal p = {0};
    snprintf(p.id, sizeof p.id, "%s", id);
    snprintf(p.name, sizeof p.name, "P %s", id);
    return p;
}

TEST(sqlite_commits_change_the_version)
{
    const char *db = temp_path("store.db");
    struct store *s = sqlite_store_open(db), *other = sqlite_store_open(db);
    CHECK(s && other);
    if (!s || !other)
        return;
    uint64_t v0 = other->ops->data_version(other);
    CHECK(v0 != 0);

    /* a read transaction changes nothing */
    struct portal got;
    CHECK_INT(s->ops->begin(s, false), STORE_OK);
    CHECK_INT(s->ops->portal_get(s, "0000000000000001", &got), STORE_NOT_FOUND);
    CHECK_INT(s->ops->commit(s), STORE_OK);
    CHECK_INT(other->ops->data_version(other), v0);

    /* a rolled-back write changes nothing */
    struct portal p = portal("0000000000000001");
    CHECK_INT(s->ops->begin(s, true), STORE_OK);
    CHECK_INT(s->ops->portal_create(s, &p), STORE_OK);
    CHECK_INT(s->ops->rollback(s), STORE_OK);
    CHECK_INT(other->ops->data_version(other), v0);

    /* a committed write does, for every connection */
    CHECK_INT(s->ops->begin(s, true), STORE_OK);
    CHECK_INT(s->ops->portal_create(s, &p), STORE_OK);
    CHECK_INT(s->ops->commit(s), STORE_OK);
    uint64_t v1 = other->ops->data_version(other);
    CHECK(v1 != v0);
    CHECK_INT(s->ops->data_version(s), v1);

    /* so does a write outside an explicit transaction */
    struct portal q = portal("0000000000000002");
    CHECK_INT(other->ops->portal_create(other, &q), STORE_OK);
    CHECK(s->ops->data_version(s) != v1);

    s->ops->close(s);
    other->ops->close(other);
}

/* The accounts version changes with commits that change an accounts table
 * (here portals), not with others (the ASN registry); a rolled-back
 * accounts change does not count toward the next commit. */
TEST(sqlite_accounts_version_follows_accounts_only)
{
    const char *db = temp_path("accounts.db");
    struct store *s = sqlite_store_open(db), *other = sqlite_store_open(db);
    CHECK(s && other);
    if (!s || !other)
        return;
    uint64_t a0 = other->ops->accounts_version(other), d0 = other->ops->data_version(other);
    CHECK(a0 != 0);

    CHECK_INT(s->ops->begin(s, true), STORE_OK);
    CHECK_INT(s->ops->asn_prefix_add(s, 64496, "192.0.2.0/24", 24, "test"), STORE_OK);
    CHECK_INT(s->ops->commit(s), STORE_OK);
    CHECK(other->ops->data_version(other) != d0);
    CHECK_INT(other->ops->accounts_version(other), a0);

    struct portal p = portal("00000000000000a1");
    CHECK_INT(s->ops->begin(s, true), STORE_OK);
    CHECK_INT(s->ops->portal_create(s, &p), STORE_OK);
    CHECK_INT(s->ops->rollback(s), STORE_OK);
    CHECK_INT(s->ops->begin(s, true), STORE_OK);
    CHECK_INT(s->ops->asn_prefix_add(s, 64496, "198.51.100.0/24", 24, "test"), STORE_OK);
    CHECK_INT(s->ops->commit(s), STORE_OK);
    CHECK_INT(other->ops->accounts_version(other), a0);

    CHECK_INT(s->ops->begin(s, true), STORE_OK);
    CHECK_INT(s->ops->portal_create(s, &p), STORE_OK);
    CHECK_INT(s->ops->commit(s), STORE_OK);
    uint64_t a1 = other->ops->accounts_version(other);
    CHECK(a1 != a0);
    CHECK_INT(s->ops->accounts_version(s), a1);

    s->ops->close(s);
    other->ops->close(other);
}

UNIT_MAIN(UNIT_CASE(counter_is_shared_between_mappings), UNIT_CASE(sqlite_commits_change_the_version),
          UNIT_CASE(sqlite_accounts_version_follows_accounts_only))
