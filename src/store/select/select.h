/* select.h — opening a store: picks the backend a store_config names. It
 * lives in a room of its own, above src/store/sqlite/ and src/store/pgsql/,
 * so that the store's interface (store/store.h) includes no backend. */
#ifndef PARAPET_STORE_SELECT_H
#define PARAPET_STORE_SELECT_H

#include "store/store.h"

/* Open one connection; NULL (with a message on stderr) on failure. The first
 * open of a fresh database applies the numbered migrations. */
struct store *store_open(const struct store_config *cfg);

#endif
