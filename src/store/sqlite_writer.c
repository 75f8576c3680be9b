/* sqlite_writer.c — see sqlite_writer.h. */
#include "store/sqlite_writer.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "store/sqlite_db.h"

enum { MAX_WRITERS = 16 };

struct sqlite_writer {
    char path[PATH_MAX];
    int users;
    pthread_mutex_t mutex; /* held for the length of a write transaction */
    struct sqlite_conn conn;
    bool open;
};

static struct sqlite_writer writers[MAX_WRITERS];
static pthread_mutex_t writers_mutex = PTHREAD_MUTEX_INITIALIZER;

struct sqlite_writer *writer_get(const char *path)
{
    if (!path || !*path || strlen(path) >= PATH_MAX)
        return NULL;
    struct sqlite_writer *w = NULL, *free_slot = NULL;
    pthread_mutex_lock(&writers_mutex);
    for (int i = 0; i < MAX_WRITERS && !w; i++) {
        if (writers[i].users > 0 && strcmp(writers[i].path, path) == 0)
            w = &writers[i];
        else if (writers[i].users == 0 && !free_slot)
            free_slot = &writers[i];
    }
    if (!w && free_slot) {
        w = free_slot;
        memset(w, 0, sizeof *w);
        strcpy(w->path, path);
        pthread_mutex_init(&w->mutex, NULL);
    }
    if (w)
        w->users++;
    pthread_mutex_unlock(&writers_mutex);
    return w;
}

void writer_put(struct sqlite_writer *w)
{
    pthread_mutex_lock(&writers_mutex);
    if (--w->users == 0) {
        if (w->open)
            db_conn_close(&w->conn);
        w->open = false;
        pthread_mutex_destroy(&w->mutex);
    }
    pthread_mutex_unlock(&writers_mutex);
}

struct sqlite_conn *writer_enter(struct sqlite_writer *w, unsigned timeout_ms)
{
    if (pthread_mutex_trylock(&w->mutex) != 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += timeout_ms / 1000;
        until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        if (pthread_mutex_timedlock(&w->mutex, &until) != 0)
            return NULL;
    }
    if (!w->open && db_conn_open(&w->conn, w->path) != 0) {
        pthread_mutex_unlock(&w->mutex);
        return NULL;
    }
    w->open = true;
    return &w->conn;
}

void writer_leave(struct sqlite_writer *w)
{
    pthread_mutex_unlock(&w->mutex);
}
