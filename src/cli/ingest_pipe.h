/* ingest_pipe.h — NDJSON read and decoded on a thread of its own, in blocks
 * of lines, while the caller attributes and stores the previous block: on
 * two cores this nearly halves `parapet ingest`'s time (JSON decoding is
 * most of the work). */
#ifndef PARAPET_CLI_INGEST_PIPE_H
#define PARAPET_CLI_INGEST_PIPE_H

#include <stdint.h>
#include <stdio.h>

#include "telemetry/record.h"

enum { PIPE_BLOCK = 2048, PIPE_BLOCKS = 8 }; /* 3.4 MB a block */

/* One decoded line: its record, or why it is refused (rc 1). */
struct pipe_item {
    long line;
    int rc;
    struct tel_record rec;
    struct tel_locator loc;
    char msg[TEL_MSG_MAX];
};

struct pipe_block {
    size_t n;
    bool last; /* the input ends with this block */
    struct pipe_item items[PIPE_BLOCK];
};

struct ingest_pipe;

struct ingest_pipe *ingest_pipe_start(FILE *in, int64_t now);
/* The next block (NULL on failure); give it back with ingest_pipe_done. */
struct pipe_block *ingest_pipe_next(struct ingest_pipe *p);
void ingest_pipe_done(struct ingest_pipe *p, struct pipe_block *b);
/* Stops the reader (also early) and frees everything. */
void ingest_pipe_stop(struct ingest_pipe *p);

#endif
