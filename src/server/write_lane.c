/* write_lane.c — see write_lane.h. */
#include "server/write_lane.h"

#include <pthread.h>
#include <stdio.h>

static struct {
    pthread_mutex_t mutex;
    pthread_cond_t queued;
    struct lane_job *head, *tail;
    bool running, stopping;
    void (*writes_coming)(bool on);
    pthread_t thread;
} lane = {.mutex = PTHREAD_MUTEX_INITIALIZER, .queued = PTHREAD_COND_INITIALIZER};

static void writes_coming(bool on)
{
    if (lane.writes_coming)
        lane.writes_coming(on);
}

static void *lane_main(void *arg)
{
    (void)arg;
    bool busy = false;
    pthread_mutex_lock(&lane.mutex);
    for (;;) {
        if (!lane.head && busy) { /* the queue ran dry: the store need not wait for more */
            pthread_mutex_unlock(&lane.mutex);
            writes_coming(busy = false);
            pthread_mutex_lock(&lane.mutex);
            continue;
        }
        while (!lane.head && !lane.stopping)
            pthread_cond_wait(&lane.queued, &lane.mutex);
        struct lane_job *job = lane.head;
        if (!job)
            break; /* stopping, and nothing left */
        lane.head = job->next;
        if (!lane.head)
            lane.tail = NULL;
        bool more = lane.head != NULL;
        pthread_mutex_unlock(&lane.mutex);
        if (more && !busy)
            writes_coming(busy = true);
        job->next = NULL;
        job->run(job);
        pthread_mutex_lock(&lane.mutex);
    }
    pthread_mutex_unlock(&lane.mutex); /* busy is false here: the queue ran dry first */
    return NULL;
}

int write_lane_start(void (*coming)(bool on))
{
    pthread_mutex_lock(&lane.mutex);
    if (lane.running) { /* one lane a process: a second server runs its writes itself */
        pthread_mutex_unlock(&lane.mutex);
        return -1;
    }
    lane.stopping = false;
    lane.writes_coming = coming;
    lane.head = lane.tail = NULL;
    int rc = pthread_create(&lane.thread, NULL, lane_main, NULL);
    lane.running = rc == 0;
    pthread_mutex_unlock(&lane.mutex);
    if (rc != 0)
        fprintf(stderr, "parapet: cannot start the write lane's thread; writes run on the poll threads\n");
    return rc == 0 ? 0 : -1;
}

bool write_lane_submit(struct lane_job *job)
{
    pthread_mutex_lock(&lane.mutex);
    bool taken = lane.running && !lane.stopping;
    if (taken) {
        job->next = NULL;
        if (lane.tail)
            lane.tail->next = job;
        else
            lane.head = job;
        lane.tail = job;
        pthread_cond_signal(&lane.queued);
    }
    pthread_mutex_unlock(&lane.mutex);
    return taken;
}

void write_lane_stop(void)
{
    pthread_mutex_lock(&lane.mutex);
    bool running = lane.running;
    lane.stopping = true;
    pthread_cond_signal(&lane.queued);
    pthread_mutex_unlock(&lane.mutex);
    if (running)
        pthread_join(lane.thread, NULL);
    pthread_mutex_lock(&lane.mutex);
    lane.running = false;
    pthread_mutex_unlock(&lane.mutex);
}
