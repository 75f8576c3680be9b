/* test_sqlite_read_tx.c — the SQLite store's read transactions: one that
 * reads nothing opens nothing in SQLite (a GET answered from the caches),
 * and one that reads still sees a single snapshot from its first statement
 * on, whatever another connection commits meanwhile. */
#include "store/select/select.h"
#include "store/sqlite/db.h"

#include "scratch_store.h"
#include "unit.h"

static struct customer customer(const char *id)
{
    struct customer c = {0};
    snprintf(c.id, sizeof c.id, "%s", id);
    snprintf(c.portal_id, sizeof c.portal_id, SCRATCH_PORTAL);
    snprintf(c.name, sizeof c.name, "C");
    return c;
}

static struct store *second_connection(const char *dir)
{
    char path[160];
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    return sqlite_store_open(path);
}

TEST(a_read_that_reads_nothing_opens_nothing)
{
    char dir[64];
    struct store *db = scratch_open(dir, (struct customer){0});
    CHECK_INT(db->ops->begin(db, false), STORE_OK);
    CHECK(sqlite3_get_autocommit(DB(db)->db)); /* no BEGIN went to SQLite */
    CHECK_INT(db->ops->rollback(db), STORE_OK);
    CHECK_INT(db->ops->begin(db, false), STORE_OK);
    CHECK_INT(db->ops->commit(db), STORE_OK);
    CHECK(sqlite3_get_autocommit(DB(db)->db));
    scratch_close(db, dir);
}

TEST(a_read_sees_one_snapshot_from_its_first_statement)
{
    char dir[64];
    struct store *db = scratch_open(dir, (struct customer){0});
    struct store *other = second_connection(dir);
    struct customer got, c2 = customer("00000000000000c2");
    CHECK_INT(db->ops->begin(db, false), STORE_OK);
    CHECK_INT(db->ops->customer_get(db, SCRATCH_CUSTOMER, &got), STORE_OK);
    CHECK(!sqlite3_get_autocommit(DB(db)->db));                         /* the first statement opened it */
    CHECK_INT(other->ops->customer_create(other, &c2), STORE_OK);       /* committed by another connection */
    CHECK_INT(db->ops->customer_get(db, c2.id, &got), STORE_NOT_FOUND); /* the same snapshot */
    CHECK_INT(db->ops->rollback(db), STORE_OK);
    CHECK(sqlite3_get_autocommit(DB(db)->db));
    CHECK_INT(db->ops->begin(db, false), STORE_OK);
    CHECK_INT(db->ops->customer_get(db, c2.id, &got), STORE_OK); /* a new transaction, a new snapshot */
    CHECK_INT(db->ops->rollback(db), STORE_OK);
    other->ops->close(other);
    scratch_close(db, dir);
}

TEST(a_begin_inside_a_read_fails_as_before)
{
    char dir[64];
    struct store *db = scratch_open(dir, (struct customer){0});
    CHECK_INT(db->ops->begin(db, false), STORE_OK);
    CHECK_INT(db->ops->begin(db, false), STORE_ERROR);
    CHECK_INT(db->ops->begin(db, true), STORE_ERROR);
    CHECK_INT(db->ops->rollback(db), STORE_OK);
    CHECK_INT(db->ops->begin(db, true), STORE_OK); /* nothing was left open */
    CHECK_INT(db->ops->rollback(db), STORE_OK);
    scratch_close(db, dir);
}

UNIT_MAIN(UNIT_CASE(a_read_that_reads_nothing_opens_nothing),
          UNIT_CASE(a_read_sees_one_snapshot_from_its_first_statement),
          UNIT_CASE(a_begin_inside_a_read_fails_as_before))
