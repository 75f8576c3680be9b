/* worker_store.h — one store connection per worker thread, opened on the
 * thread's first request and closed when the thread ends. */
#ifndef PARAPET_WORKER_STORE_H
#define PARAPET_WORKER_STORE_H

#include "store/store.h"

int worker_store_init(const struct store_config *cfg);
struct store *worker_store(void); /* NULL if the store cannot be opened */

#endif
