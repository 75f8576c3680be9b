/* exec.c — see exec.h. */
#include "deploy/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int exec_capture(const char *const argv[], char *out, size_t size)
{
    int fds[2];
    if (size == 0 || pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    size_t len = 0;
    if (rc == 0) {
        char buf[4096];
        ssize_t n;
        while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
            size_t take = n > 0 ? (size_t)n : 0;
            if (take > size - 1 - len)
                take = size - 1 - len; /* keep draining so the child never blocks */
            memcpy(out + len, buf, take);
            len += take;
        }
    }
    out[len] = '\0';
    close(fds[0]);
    if (rc != 0) {
        snprintf(out, size, "cannot run %s: %s", argv[0], strerror(rc));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int exec_available(const char *program)
{
    if (strchr(program, '/'))
        return access(program, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char dir[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s/%s", (int)n, p, program);
        if (n > 0 && access(dir, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}
