/* exec.h — runs a helper program (knotc) without a shell and collects what
 * it prints. */
#ifndef PARAPET_EXEC_H
#define PARAPET_EXEC_H

#include <stddef.h>

/* Runs argv[0] (looked up in PATH) with argv, stdin from /dev/null, and its
 * stdout and stderr together in out[size] (truncated, NUL-terminated).
 * Returns the exit status, or -1 when it could not run or was killed. */
int exec_capture(const char *const argv[], char *out, size_t size);

/* Kills every helper exec_capture is running (their callers get -1) and
 * makes later calls fail at once: serve's stop, before it joins the
 * deployers. */
void exec_stop_all(void);

/* Whether `program` can be found (a path, or a name in PATH). */
int exec_available(const char *program);

#endif
