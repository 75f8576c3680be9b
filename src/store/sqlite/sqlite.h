/* sqlite/sqlite.h — the SQLite backend of the store interface. */
#ifndef PARAPET_STORE_SQLITE_H
#define PARAPET_STORE_SQLITE_H

#include "store/store.h"

struct store *sqlite_store_open(const char *path);
/* The page cache of every connection the process opens from now on. */
void sqlite_set_cache_kb(int cache_kb);

#endif
