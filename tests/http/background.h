/* background.h — what one case file owns beyond its requests: processes it
 * starts with `start:` (e.g. bird, fastnetmon, nginx, a backend), each in a
 * process group of its own and stopped by its PID when the case ends,
 * whatever happened; and $CASE_TMP, a fresh directory removed at the end. */
#ifndef PARAPET_TEST_BACKGROUND_H
#define PARAPET_TEST_BACKGROUND_H

/* Creates $CASE_TMP; -1 on failure. */
int case_tmp_create(void);
/* Starts `sh -c cmd` in the background (stdout and stderr to
 * $CASE_TMP/start-N.log); does not wait for it. Returns 0 or -1. */
int case_background_start(const char *cmd);
/* SIGTERM to every started process group, SIGKILL after 5 s; then removes
 * $CASE_TMP. */
void case_end_cleanup(void);

#endif
