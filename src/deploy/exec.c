/* exec.c — see exec.h. */
#include "deploy/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The helpers running now, for exec_stop_all: serve's stop must not wait
 * for a check that takes minutes (fastnetmon --configuration_check on a
 * large configuration of a loaded machine: 35 s measured). */
enum { RUNNING_MAX = 32 };
static struct {
    pthread_mutex_t mu;
    pid_t pids[RUNNING_MAX];
    bool stopping;
} running = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void running_set(pid_t old, pid_t new)
{
    for (int i = 0; i < RUNNING_MAX; i++)
        if (running.pids[i] == old) {
            running.pids[i] = new;
            return;
        }
}

void exec_stop_all(void)
{
    pthread_mutex_lock(&running.mu);
    running.stopping = true;
    for (int i = 0; i < RUNNING_MAX; i++)
        if (running.pids[i] > 0)
            kill(running.pids[i], SIGKILL); /* checkers and reload commands: nothing half-done to keep */
    pthread_mutex_unlock(&running.mu);
}

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
    pid_t pid = 0;
    pthread_mutex_lock(&running.mu); /* a stop between the spawn and the record would miss it */
    int rc = running.stopping ? ECANCELED : posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    if (rc == 0)
        running_set(0, pid); /* (more than RUNNING_MAX at once: that one is not stopped early) */
    pthread_mutex_unlock(&running.mu);
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
    int status, waited;
    while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    pthread_mutex_lock(&running.mu);
    running_set(pid, 0);
    bool stopping = running.stopping;
    pthread_mutex_unlock(&running.mu);
    if (waited < 0)
        return -1;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && stopping)
        snprintf(out, size, "%s: stopped (parapet is stopping)", argv[0]);
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
