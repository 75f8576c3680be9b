/* background.c — see background.h. */
#include "http/background.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http/harness.h"

enum { MAX_STARTED = 16 };

static pid_t started[MAX_STARTED];
static int nstarted;
static char tmp[64];

int case_tmp_create(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/parapet-case-XXXXXX");
    if (!mkdtemp(tmp)) {
        tmp[0] = '\0';
        return -1;
    }
    var_set("CASE_TMP", tmp);
    return 0;
}

int case_background_start(const char *cmd)
{
    if (nstarted >= MAX_STARTED || !tmp[0])
        return -1;
    char log[128];
    snprintf(log, sizeof log, "%s/start-%d.log", tmp, nstarted + 1);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);                    /* its children are stopped with it */
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* and it with the runner */
        if (!freopen(log, "a", stdout) || dup2(fileno(stdout), 2) < 0)
            _exit(126);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no race with the child's own call */
    started[nstarted++] = pid;
    return 0;
}

static bool reaped(pid_t pid)
{
    int st;
    return waitpid(pid, &st, WNOHANG) != 0;
}

void case_end_cleanup(void)
{
    for (int i = nstarted - 1; i >= 0; i--) {
        pid_t pid = started[i];
        kill(-pid, SIGTERM);
        bool gone = false;
        for (int k = 0; k < 50 && !(gone = reaped(pid)); k++)
            nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
        kill(-pid, SIGKILL); /* what is left of the group */
        if (!gone)
            waitpid(pid, NULL, 0);
    }
    nstarted = 0;
    if (tmp[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "    could not remove %s\n", tmp);
        tmp[0] = '\0';
    }
}
