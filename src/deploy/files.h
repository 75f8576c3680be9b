/* files.h — the file operations a deploy needs: directories, whole-file
 * reads, atomic replacement, and a lock between processes. */
#ifndef PARAPET_DEPLOY_FILES_H
#define PARAPET_DEPLOY_FILES_H

#include <stdbool.h>

/* mkdir -p with mode 0750; returns 0 or -1. */
int files_mkdirs(const char *path);
/* The whole file (malloc'd, NUL-terminated), or NULL if it cannot be read. */
char *files_read(const char *path);
/* Writes text to path via path.tmp, fsync and rename; returns 0 or -1. */
int files_replace(const char *path, const char *text);
/* Writes text to path only when no file is there yet; returns 0 or -1. */
int files_create(const char *path, const char *text);
bool files_exist(const char *path);
/* An exclusive lock held until files_unlock; returns an fd or -1. */
int files_lock(const char *path);
void files_unlock(int fd);

#endif
