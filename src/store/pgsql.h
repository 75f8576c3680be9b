/* pgsql.h — the PostgreSQL backend of the store interface (pgsql_*.c). */
#ifndef PARAPET_STORE_PGSQL_H
#define PARAPET_STORE_PGSQL_H

#include "store/store.h"

/* conninfo: a libpq connection string or URI (postgresql://...). The first
 * open applies the migrations (under a lock: nodes may start together). */
struct store *pgsql_store_open(const char *conninfo);

#endif
