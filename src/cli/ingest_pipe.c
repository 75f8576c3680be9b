/* ingest_pipe.c — see ingest_pipe.h. PIPE_BLOCKS blocks circulate: the
 * reader fills free ones while the caller empties full ones, in order. More
 * than two, so that the reader goes on while the caller stores a long
 * burst (a transaction's roll-ups are written at its COMMIT). */
#include "cli/ingest_pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/decode_simd.h"
#include "telemetry/ingest.h"

struct ingest_pipe {
    FILE *in;
    int64_t now;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct pipe_block *free_list[PIPE_BLOCKS], *full[PIPE_BLOCKS];
    int n_free, n_full;
    bool stop;
    long line;
    struct tel_simd *simd; /* the reader thread's */
};

static void decode_line(struct ingest_pipe *p, const char *text, size_t len, struct pipe_item *it)
{
    it->line = p->line;
    it->rc = tel_decode_line(p->simd, text, len, p->now, &it->rec, &it->loc, it->msg, sizeof it->msg);
    if (it->rc == 0)
        tel_decoded_to_text(&it->rec, &it->loc); /* off the storing thread */
}

/* Fills b from the input: up to a block of non-blank lines, stopping after
 * a refused one (nothing after it is needed). */
static void fill(struct ingest_pipe *p, struct pipe_block *b, char **line, size_t *cap)
{
    b->n = 0;
    b->last = false;
    ssize_t n;
    while (b->n < PIPE_BLOCK) {
        if ((n = getline(line, cap, p->in)) < 0) {
            b->last = true;
            return;
        }
        p->line++;
        if (strspn(*line, " \t\r\n") == (size_t)n)
            continue;
        struct pipe_item *it = &b->items[b->n++];
        decode_line(p, *line, (size_t)n, it);
        if (it->rc != 0) {
            b->last = true;
            return;
        }
    }
}

static void *reader(void *arg)
{
    struct ingest_pipe *p = arg;
    char *line = NULL;
    size_t cap = 0;
    for (bool last = false; !last;) {
        pthread_mutex_lock(&p->mu);
        while (!p->n_free && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            break;
        }
        struct pipe_block *b = p->free_list[--p->n_free];
        pthread_mutex_unlock(&p->mu);
        fill(p, b, &line, &cap);
        last = b->last;
        pthread_mutex_lock(&p->mu);
        p->full[p->n_full++] = b;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    free(line);
    return NULL;
}

struct ingest_pipe *ingest_pipe_start(FILE *in, int64_t now)
{
    struct ingest_pipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->in = in;
    p->now = now;
    p->simd = tel_simd_new(); /* NULL: jansson alone */
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (int i = 0; i < PIPE_BLOCKS; i++)
        if ((p->free_list[p->n_free] = calloc(1, sizeof(struct pipe_block))))
            p->n_free++;
    if (p->n_free < PIPE_BLOCKS || pthread_create(&p->thread, NULL, reader, p) != 0) {
        for (int i = 0; i < p->n_free; i++)
            free(p->free_list[i]);
        tel_simd_free(p->simd);
        free(p);
        return NULL;
    }
    return p;
}

struct pipe_block *ingest_pipe_next(struct ingest_pipe *p)
{
    pthread_mutex_lock(&p->mu);
    while (!p->n_full)
        pthread_cond_wait(&p->cv, &p->mu);
    struct pipe_block *b = p->full[0];
    memmove(p->full, p->full + 1, (size_t)--p->n_full * sizeof *p->full);
    pthread_mutex_unlock(&p->mu);
    return b;
}

/* Releases what the items still own (WAF entries of records not added). */
static void clear_block(struct pipe_block *b)
{
    for (size_t i = 0; i < b->n; i++) {
        tel_locator_clear(&b->items[i].loc);
    }
    b->n = 0;
}

void ingest_pipe_done(struct ingest_pipe *p, struct pipe_block *b)
{
    clear_block(b);
    pthread_mutex_lock(&p->mu);
    p->free_list[p->n_free++] = b;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void ingest_pipe_stop(struct ingest_pipe *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    for (int i = 0; i < p->n_full; i++) {
        clear_block(p->full[i]);
        free(p->full[i]);
    }
    for (int i = 0; i < p->n_free; i++)
        free(p->free_list[i]);
    tel_simd_free(p->simd);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}
