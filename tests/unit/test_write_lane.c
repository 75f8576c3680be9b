/* test_write_lane.c — server/write_lane.h: jobs run one after the other in
 * the order queued, on the lane's own thread; the lane says writes are
 * coming while jobs wait behind the one it runs, and no more once the queue
 * ran dry; stop runs what is queued, later submits are refused (the caller
 * runs them), and the lane starts again afterwards, one at a time. */
#include "server/write_lane.h"

#include <pthread.h>
#include <unistd.h>

#include "unit.h"

struct job {
    struct lane_job lane;
    int n;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int order[16], ran;
static pthread_t ran_on[16];
static bool gate_open;
static int coming[8], ncoming; /* 1: on, 0: off, as called */

static void run(struct lane_job *lj)
{
    struct job *j = (struct job *)lj;
    pthread_mutex_lock(&mu);
    while (j->n == 0 && !gate_open) /* job 0 holds the lane until the gate opens */
        pthread_cond_wait(&cv, &mu);
    ran_on[ran] = pthread_self();
    order[ran++] = j->n;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

static void on_coming(bool on)
{
    pthread_mutex_lock(&mu);
    if (ncoming < 8)
        coming[ncoming++] = on;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

static void reset(void)
{
    ran = ncoming = 0;
    gate_open = false;
}

static void open_gate(void)
{
    pthread_mutex_lock(&mu);
    gate_open = true;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

static void wait_until(int runs, int comings)
{
    pthread_mutex_lock(&mu);
    while (ran < runs || ncoming < comings)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

TEST(jobs_run_in_order_on_the_lane)
{
    reset();
    CHECK_INT(write_lane_start(on_coming), 0);
    CHECK_INT(write_lane_start(on_coming), -1); /* one lane at a time */
    struct job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (struct job){.lane.run = run, .n = i};
        CHECK(write_lane_submit(&jobs[i].lane));
    }
    usleep(20000); /* job 0 holds the lane: nothing else runs */
    CHECK_INT(ran, 0);
    open_gate();
    wait_until(4, 2);
    for (int i = 0; i < 4; i++) {
        CHECK_INT(order[i], i);
        CHECK(pthread_equal(ran_on[i], ran_on[0]));
    }
    CHECK(!pthread_equal(ran_on[0], pthread_self()));
    /* on while jobs 1-3 waited behind the one running, off once run dry */
    CHECK_INT(ncoming, 2);
    CHECK_INT(coming[0], 1);
    CHECK_INT(coming[1], 0);
    /* a lone job: nothing waited behind it, no hint */
    struct job lone = {.lane.run = run, .n = 9};
    CHECK(write_lane_submit(&lone.lane));
    wait_until(5, 2);
    usleep(20000);
    CHECK_INT(order[4], 9);
    CHECK_INT(ncoming, 2);
    write_lane_stop();
}

static void *open_gate_later(void *arg)
{
    (void)arg;
    usleep(20000);
    open_gate();
    return NULL;
}

TEST(stop_runs_what_is_queued)
{
    reset();
    CHECK_INT(write_lane_start(NULL), 0);
    struct job jobs[3];
    for (int i = 0; i < 3; i++) {
        jobs[i] = (struct job){.lane.run = run, .n = i};
        CHECK(write_lane_submit(&jobs[i].lane));
    }
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, open_gate_later, NULL), 0);
    write_lane_stop(); /* returns once all three ran */
    pthread_join(t, NULL);
    CHECK_INT(ran, 3);
    CHECK_INT(order[2], 2);
    struct job late = {.lane.run = run, .n = 7};
    CHECK(!write_lane_submit(&late.lane)); /* refused: its caller runs it */
    CHECK_INT(ran, 3);
    CHECK_INT(write_lane_start(NULL), 0); /* and again */
    CHECK(write_lane_submit(&late.lane));
    wait_until(4, 0);
    CHECK_INT(order[3], 7);
    write_lane_stop();
}

UNIT_MAIN(UNIT_CASE(jobs_run_in_order_on_the_lane), UNIT_CASE(stop_runs_what_is_queued))
