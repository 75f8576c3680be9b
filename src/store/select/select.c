/* select.c — picks a backend by name (select.h). */
#include "store/select/select.h"

#include <stdio.h>
#include <string.h>

#include "store/pgsql/pgsql.h"
#include "store/sqlite/sqlite.h"

struct store *store_open(const struct store_config *cfg)
{
    if (!cfg->backend || strcmp(cfg->backend, "sqlite") == 0) {
        if (cfg->cache_kb > 0)
            sqlite_set_cache_kb(cfg->cache_kb);
        return sqlite_store_open(cfg->path);
    }
    if (strcmp(cfg->backend, "postgresql") == 0)
        return pgsql_store_open(cfg->path);
    fprintf(stderr, "parapet: unknown store backend '%s' (available: sqlite, postgresql)\n", cfg->backend);
    return NULL;
}
