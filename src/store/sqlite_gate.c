/* sqlite_gate.c — see sqlite_gate.h. */
#include "store/sqlite_gate.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

enum { MAX_GATES = 16 };

struct write_gate {
    char path[PATH_MAX];
    pthread_mutex_t mutex;
};

static struct write_gate gates[MAX_GATES];
static int n_gates;
static pthread_mutex_t gates_mutex = PTHREAD_MUTEX_INITIALIZER;

struct write_gate *gate_for(const char *path)
{
    if (!path || !*path || strlen(path) >= PATH_MAX)
        return NULL;
    struct write_gate *g = NULL;
    pthread_mutex_lock(&gates_mutex);
    for (int i = 0; i < n_gates && !g; i++)
        if (strcmp(gates[i].path, path) == 0)
            g = &gates[i];
    if (!g && n_gates < MAX_GATES) {
        g = &gates[n_gates++];
        strcpy(g->path, path);
        pthread_mutex_init(&g->mutex, NULL);
    }
    pthread_mutex_unlock(&gates_mutex);
    return g;
}

bool gate_enter(struct write_gate *g, unsigned timeout_ms)
{
    if (pthread_mutex_trylock(&g->mutex) == 0)
        return true;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    return pthread_mutex_timedlock(&g->mutex, &until) == 0;
}

void gate_leave(struct write_gate *g)
{
    pthread_mutex_unlock(&g->mutex);
}
