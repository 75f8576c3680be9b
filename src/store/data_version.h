/* data_version.h — change counters shared by every process that opens one
 * SQLite database: two 64-bit integers in a small file next to it
 * ("<database>-version"), mapped into memory. Each connection bumps the
 * first after every commit that wrote data (SQLite's WAL hook, so also
 * commits of the admin CLI in another process), and the second too when the
 * commit changed the accounts tables authentication reads (portals, apps,
 * app_allow, customers, tokens, installations, auth_codes). A reader that
 * reads the same value before a read and later knows that nothing (no
 * account) was committed in between: caches of stored rows tag their entries
 * with it (core/reply_cache.c the first, core/auth_cache.c the second, so
 * that a stream of writes to sites leaves the token cache warm). */
#ifndef PARAPET_DATA_VERSION_H
#define PARAPET_DATA_VERSION_H
#include <stdbool.h>
#include <stdint.h>

struct data_version;

/* NULL when the file cannot be created or mapped (readers then cache nothing). */
struct data_version *data_version_open(const char *db_path);
void data_version_close(struct data_version *v);
/* The current value, never 0; 0 when v is NULL. */
uint64_t data_version_read(const struct data_version *v);
/* The accounts counter, the same way. */
uint64_t data_version_read_accounts(const struct data_version *v);
/* After a commit that wrote; `accounts`: it changed an accounts table. */
void data_version_bump(struct data_version *v, bool accounts);

#endif
