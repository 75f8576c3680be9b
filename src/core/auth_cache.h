/* auth_cache.h — what authentication reads on every request (the token
 * record, the customer acted on), kept per worker thread. An entry is
 * trusted only while the store's accounts version is the one it was read
 * under (store_ops.accounts_version): any commit that changes an account,
 * by this process or another such as the admin CLI, invalidates every
 * entry, so a revoked token or app is refused on the very next request;
 * writes to anything else (sites, policies, telemetry) leave them. The
 * SQLite store lists the tables that count in sqlite/db.c (row_changed):
 * whoever makes authentication read another table adds it there.
 * Direct-mapped with a fixed number of slots; only records that were found
 * are kept. A version of 0 ("the store
 * cannot tell") disables the cache. */
#ifndef PARAPET_AUTH_CACHE_H
#define PARAPET_AUTH_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

bool auth_cache_get_token(uint64_t version, const char *digest, struct token *out);
void auth_cache_put_token(uint64_t version, const struct token *t);
bool auth_cache_get_customer(uint64_t version, const char *id, struct customer *out);
void auth_cache_put_customer(uint64_t version, const struct customer *c);

#endif
