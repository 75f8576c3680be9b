/* write_lane.h — one thread that runs the handlers of write requests one
 * after the other, for a store that takes one writer at a time (SQLite).
 *
 * Why: with the handlers run by the poll threads themselves, a poll thread
 * that wants the write lock while another holds it sleeps on the lock, and
 * every write hands the lock to another thread (a futex wake and a context
 * switch each). With two cores the server then used no more CPU than with
 * one poll thread (~126%, the machine ~19% idle), and the lock's owner was
 * busy ~68% of the time. The lane takes the queued writes back to back on
 * one thread that keeps the lock warm, while the poll threads go on with
 * TLS, parsing and the reads of other connections.
 *
 * A job is queued by a poll thread (whose connection is suspended) and run
 * on the lane's thread. */
#ifndef PARAPET_WRITE_LANE_H
#define PARAPET_WRITE_LANE_H

#include <stdbool.h>

struct lane_job {
    void (*run)(struct lane_job *job); /* on the lane's thread */
    struct lane_job *next;
};

/* Starts the lane's thread; -1 if it cannot or one already runs. The lane
 * calls writes_coming(true) on its thread when jobs wait behind the one it
 * takes, and writes_coming(false) once the queue has run dry (the HTTP
 * layer tells the store: store_ops.writes_coming, so that group commit
 * gathers them); NULL: no calls. */
int write_lane_start(void (*writes_coming)(bool on));

/* Queues the job; false when the lane is not running (not started, or
 * stopping): the caller then runs the job itself. */
bool write_lane_submit(struct lane_job *job);

/* Runs the jobs still queued, then ends the thread; later submits are
 * refused. */
void write_lane_stop(void);

#endif
