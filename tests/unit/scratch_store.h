/* scratch_store.h — a real SQLite store in a fresh directory for the unit
 * tests of the deployers: portal p1 and customer c1 (with the services
 * given) are created; scratch_close closes it and removes the directory. */
#ifndef PARAPET_TEST_SCRATCH_STORE_H
#define PARAPET_TEST_SCRATCH_STORE_H

#include <stdio.h>
#include <stdlib.h>

#include "store/select/select.h"
#include "store/sqlite/sqlite.h"

#define SCRATCH_PORTAL "00000000000000p1"
#define SCRATCH_CUSTOMER "00000000000000c1"

/* dir: a buffer of at least 64 bytes, filled with the directory's path. */
static inline struct store *scratch_open(char *dir, struct customer services)
{
    snprintf(dir, 64, "/tmp/parapet-unit-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    char path[160];
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    struct store *db = sqlite_store_open(path);
    if (!db)
        abort();
    struct portal p = {.id = SCRATCH_PORTAL, .name = "P"};
    struct customer c = services;
    snprintf(c.id, sizeof c.id, SCRATCH_CUSTOMER);
    snprintf(c.portal_id, sizeof c.portal_id, SCRATCH_PORTAL);
    snprintf(c.name, sizeof c.name, "C");
    db->ops->portal_create(db, &p);
    db->ops->customer_create(db, &c);
    return db;
}

static inline void scratch_close(struct store *db, const char *dir)
{
    db->ops->close(db);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

#endif
