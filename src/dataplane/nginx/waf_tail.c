/* waf_tail.c — see waf_tail.h. */
#include "dataplane/nginx/waf_tail.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deploy/files.h"

static void reset_buffer(struct waf_tail *t)
{
    t->len = 0;
}

/* Opens the log; resumes at the saved place when it is this file's. */
static void open_log(struct waf_tail *t, bool resume)
{
    t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
    t->offset = 0;
    reset_buffer(t);
    struct stat st;
    if (t->fd < 0 || fstat(t->fd, &st) != 0) {
        if (t->fd >= 0)
            close(t->fd);
        t->fd = -1;
        return;
    }
    t->ino = st.st_ino;
    if (!resume)
        return;
    char *saved = files_read(t->state_path);
    unsigned long long ino = 0;
    long long off = 0;
    if (saved && sscanf(saved, "%llu %lld", &ino, &off) == 2 && (ino_t)ino == st.st_ino && off >= 0 &&
        off <= st.st_size)
        t->offset = (off_t)off;
    free(saved);
}

void waf_tail_init(struct waf_tail *t, const char *path, const char *state_path)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    snprintf(t->state_path, sizeof t->state_path, "%s", state_path);
    open_log(t, true);
}

void waf_tail_close(struct waf_tail *t)
{
    if (t->fd >= 0)
        close(t->fd);
    free(t->buf);
    t->fd = -1;
    t->buf = NULL;
}

/* Reads what follows the buffered bytes; 0 at the end of the file. */
static ssize_t fill(struct waf_tail *t)
{
    if (t->cap - t->len < 65536) {
        t->cap = t->cap ? t->cap * 2 : 131072;
        t->buf = realloc(t->buf, t->cap);
    }
    return pread(t->fd, t->buf + t->len, t->cap - t->len - 1, t->offset + (off_t)t->len);
}

/* Gives the whole lines of the file from the place on. */
static long read_lines(struct waf_tail *t, long max, int (*fn)(const char *, size_t, void *), void *arg)
{
    long given = 0;
    for (;;) {
        char *nl = t->len ? memchr(t->buf, '\n', t->len) : NULL;
        if (!nl) {
            if (given >= max)
                return given;
            ssize_t n = fill(t);
            if (n <= 0)
                return given;
            t->len += (size_t)n;
            continue;
        }
        if (given >= max)
            return given;
        size_t line = (size_t)(nl - t->buf);
        if (fn(t->buf, line, arg) != 0)
            return -1;
        given++;
        t->offset += (off_t)(line + 1);
        memmove(t->buf, nl + 1, t->len - line - 1);
        t->len -= line + 1;
    }
}

long waf_tail_read(struct waf_tail *t, long max_lines, int (*fn)(const char *line, size_t len, void *arg),
                   void *arg)
{
    if (t->fd < 0) {
        open_log(t, false);
        if (t->fd < 0)
            return 0;
    }
    struct stat now, mine;
    bool rotated = stat(t->path, &now) == 0 && now.st_ino != t->ino;
    if (fstat(t->fd, &mine) == 0 && mine.st_size < t->offset + (off_t)t->len) { /* truncated in place */
        t->offset = 0;
        reset_buffer(t);
    }
    long n = read_lines(t, max_lines, fn, arg);
    if (n < 0 || n >= max_lines || !rotated)
        return n;
    /* the renamed file is read to its end: on to the new one */
    close(t->fd);
    open_log(t, false);
    if (t->fd < 0)
        return n;
    long more = read_lines(t, max_lines - n, fn, arg);
    return more < 0 ? -1 : n + more;
}

int waf_tail_commit(struct waf_tail *t)
{
    if (t->fd < 0)
        return 0;
    char text[64];
    snprintf(text, sizeof text, "%llu %lld\n", (unsigned long long)t->ino, (long long)t->offset);
    return files_replace(t->state_path, text);
}
