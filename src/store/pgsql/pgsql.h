/* pgsql/pgsql.h — the PostgreSQL backend of the store interface (pgsql_*.c). */
#ifndef PARAPET_STORE_PGSQL_H
#define PARAPET_STORE_PGSQL_H

#include "store/store.h"

/* conninfo: a libpq connection string or URI (postgresql://...). The first
 * open applies the migrations (under a lock: nodes may start together). */
struct store *pgsql_store_open(const char *conninfo);

/* `parapet admin migrate`: copies every table of the SQLite store at
 * sqlite_path into the PostgreSQL database conninfo names, which must hold no
 * data (a catalogue seeded by a node's first start is replaced), ids kept,
 * in one transaction, and compares each table's row count on both sides.
 * 0 with *report {"tables": [{"table", "rows"}], "rows": N, "verified":
 * true}, or -1 with a message in err (nothing written). The caller first
 * opens the SQLite store once, which brings its schema to this version. */
int pgsql_import_sqlite(const char *sqlite_path, const char *conninfo, json_t **report, char *err, size_t errsize);

/* Changes between nodes (pgsql/changes.c): a thread of its own that sends
 * the API path of each write announced here with NOTIFY, and calls heard()
 * with the paths other processes sent ("" after a reconnect: anything may
 * have changed). announce() never blocks; both do nothing until start. */
int pgsql_changes_start(const char *conninfo, void (*heard)(const char *path));
void pgsql_changes_announce(const char *path);
void pgsql_changes_stop(void);

#endif
