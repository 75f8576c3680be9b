/* worker_store.c — see worker_store.h. */
#include "server/worker_store.h"

#include <pthread.h>

#include "store/select/select.h"

static pthread_key_t key;
static const struct store_config *config;

static void close_store(void *p)
{
    struct store *s = p;
    s->ops->close(s);
}

int worker_store_init(const struct store_config *cfg)
{
    config = cfg;
    return pthread_key_create(&key, close_store) == 0 ? 0 : -1;
}

struct store *worker_store(void)
{
    struct store *s = pthread_getspecific(key);
    if (!s && (s = store_open(config))) {
        s->ops->defer_durability(s, true); /* the HTTP layer waits for durability (http.c) */
        pthread_setspecific(key, s);
    }
    return s;
}
