/* data_version.h — a change counter shared by every process that opens one
 * SQLite database: a 64-bit integer in a small file next to it
 * ("<database>-version"), mapped into memory. Each connection bumps it after
 * every commit that wrote data (SQLite's WAL hook, so also commits of the
 * admin CLI in another process). A reader that reads the same value before
 * a read and later knows that nothing was committed in between: caches of
 * stored rows (core/auth_cache.c) tag their entries with it. */
#ifndef PARAPET_DATA_VERSION_H
#define PARAPET_DATA_VERSION_H
#include <stdint.h>

struct data_version;

/* NULL when the file cannot be created or mapped (readers then cache nothing). */
struct data_version *data_version_open(const char *db_path);
void data_version_close(struct data_version *v);
/* The current value, never 0; 0 when v is NULL. */
uint64_t data_version_read(const struct data_version *v);
void data_version_bump(struct data_version *v);

#endif
