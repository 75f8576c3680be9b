/* waf_tail.h — follows an append-only log file (ModSecurity's serial audit
 * log) line by line, keeping its place in a small state file
 * ("<inode> <offset>\n") across restarts and log rotation:
 * - rotation by rename (logrotate's default; nginx reopens on USR1): the
 *   renamed file is read to its end through the open descriptor, then the
 *   new file from its start;
 * - truncation in place (copytruncate): read again from the start, once the
 *   file is seen shorter than the place (lines written after a truncation
 *   and before the next read that make it longer again are missed);
 * - at start, a saved place in the same file (same inode, not past its end)
 *   is resumed; otherwise the file is read from its start (what was left
 *   in a file rotated while parapet was down is not read). */
#ifndef PARAPET_WAF_TAIL_H
#define PARAPET_WAF_TAIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct waf_tail {
    char path[4096], state_path[4096];
    int fd;        /* -1 while the log does not exist */
    ino_t ino;     /* of the open file */
    off_t offset;  /* of the first byte not yet consumed */
    char *buf;     /* bytes read past offset, not yet a whole line */
    size_t len, cap;
};

void waf_tail_init(struct waf_tail *t, const char *path, const char *state_path);
void waf_tail_close(struct waf_tail *t);

/* Calls fn for each whole line (without its newline) appended since the
 * last call, at most max_lines of them; returns the number of lines given,
 * or -1 when fn failed (the place stays before that line). The place is
 * saved only by waf_tail_commit, once the lines are safely stored. */
long waf_tail_read(struct waf_tail *t, long max_lines, int (*fn)(const char *line, size_t len, void *arg),
                   void *arg);
/* Saves the place after the lines waf_tail_read gave: 0 or -1. */
int waf_tail_commit(struct waf_tail *t);

#endif
