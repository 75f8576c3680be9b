/* test_exec.c — deploy/exec.h: a helper's output and exit status, and
 * serve's stop killing the helpers that run (a checker of a large
 * configuration would otherwise hold the stop for as long as it runs). */
#include <pthread.h>
#include <unistd.h>

#include "deploy/exec.h"
#include "unit.h"

TEST(output_and_status)
{
    char out[64];
    const char *echo[] = {"sh", "-c", "echo hello; echo oops >&2; exit 3", NULL};
    CHECK_INT(exec_capture(echo, out, sizeof out), 3);
    CHECK_STR(out, "hello\noops\n");
    const char *missing[] = {"/nonexistent/helper", NULL};
    CHECK_INT(exec_capture(missing, out, sizeof out), -1);
    CHECK(strstr(out, "cannot run /nonexistent/helper") != NULL);
}

struct call {
    int rc;
    char out[128];
};

static void *long_helper(void *arg)
{
    struct call *c = arg;
    const char *argv[] = {"sleep", "600", NULL};
    c->rc = exec_capture(argv, c->out, sizeof c->out);
    return NULL;
}

/* Last: after exec_stop_all no helper runs in this process. */
TEST(stop_kills_the_running_helpers)
{
    struct call c = {.rc = 99};
    pthread_t t;
    pthread_create(&t, NULL, long_helper, &c);
    usleep(300 * 1000); /* spawned (if not, it is refused below: the same end) */
    exec_stop_all();
    pthread_join(t, NULL); /* without the kill: 600 s */
    CHECK_INT(c.rc, -1);
    CHECK(strstr(c.out, "sleep: stopped (parapet is stopping)") != NULL ||
          strstr(c.out, "cannot run sleep") != NULL);
    char out[64];
    const char *echo[] = {"echo", "late", NULL};
    CHECK_INT(exec_capture(echo, out, sizeof out), -1); /* refused: stopping */
    CHECK(strstr(out, "cannot run echo") != NULL);
}

UNIT_MAIN(UNIT_CASE(output_and_status), UNIT_CASE(stop_kills_the_running_helpers))
