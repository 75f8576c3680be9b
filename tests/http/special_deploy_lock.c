/* special_deploy_lock.c — two `parapet serve` processes on one data
 * directory (deploy/deployer.h): the first deploys, the second stands by,
 * and takes over once the first has stopped. Both are servers of their own,
 * on a data directory of their own, with only the DNS deployer on (no
 * knotd: a pass that cannot validate still runs, and says so). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http/harness.h"
#include "http/special.h"

#define FAIL(...) (check_fail("deploy lock", __VA_ARGS__), 1)

static const char deploy_opts[] = "--dns-listen 127.0.0.1@%d --dns-deploy-interval 1 --no-nginx-deploy "
                                  "--no-fastnetmon-deploy --no-bird-deploy";

/* Whether the file holds `text`, waiting up to `secs` for it to appear. */
static bool log_says(const char *path, const char *text, int secs)
{
    for (int i = 0; i <= secs * 10; i++) {
        FILE *f = fopen(path, "r");
        bool found = false;
        char line[1024];
        while (f && !found && fgets(line, sizeof line, f))
            found = strstr(line, text) != NULL;
        if (f)
            fclose(f);
        if (found)
            return true;
        nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    }
    return false;
}

int deploy_lock(struct fixture *fx)
{
    char dir[] = "/tmp/parapet-deploylock-XXXXXX";
    if (!mkdtemp(dir))
        return FAIL("mkdtemp");
    char data[300], log_a[300], log_b[300], opts[512];
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(log_a, sizeof log_a, "%s/a.log", dir);
    snprintf(log_b, sizeof log_b, "%s/b.log", dir);
    snprintf(opts, sizeof opts, deploy_opts, free_port());
    int bad = 0;
    pid_t a = server_start(fx->bin, data, free_port(), opts, log_a);
    bad |= a < 0 ? FAIL("the first server did not start") : 0;
    /* the first pass has taken the lock before the second server starts */
    bad |= !bad && !log_says(log_a, "dns deploy", 30) ? FAIL("the first server never deployed (%s)", log_a) : 0;
    pid_t b = bad ? -1 : server_start(fx->bin, data, free_port(), opts, log_b);
    bad |= !bad && b < 0 ? FAIL("the second server did not start") : 0;
    bad |= !bad && !log_says(log_b, "dns deploy: another process deploys", 10)
               ? FAIL("the second server did not stand by (%s)", log_b)
               : 0;
    bad |= !bad && log_says(log_a, "stands by", 0) ? FAIL("the first server stood by too (%s)", log_a) : 0;
    if (a > 0)
        bad |= server_stop(a) != 0 ? FAIL("the first server stopped uncleanly") : 0;
    bad |= !bad && !log_says(log_b, "dns deploy: the other process has stopped; this one deploys now", 10)
               ? FAIL("the second server did not take over (%s)", log_b)
               : 0;
    if (b > 0)
        bad |= server_stop(b) != 0 ? FAIL("the second server stopped uncleanly") : 0;
    if (!bad) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        (void)!system(cmd);
    }
    return bad;
}
