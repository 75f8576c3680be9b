/* deployer.h — a background deployer of `parapet serve`: a thread with its
 * own store connection that runs a pass (render stored state, check, install,
 * mark deploy states) at start, after wake-ups and every interval_s. A
 * wake-up is followed by a pass once no other came for 50 ms, and at the
 * latest 1 s after it while they keep coming: a burst of writes makes about
 * one pass a second (plus the pass's own time) instead of one per write. A
 * pass longer than 250 ms stretches that second to 4 times its length, so
 * that passes take at most a fifth of the time during a long burst.
 *
 * Every data plane (Knot DNS, FastNetMon, BIRD, nginx) is one deployer. A
 * pass must be idempotent: rendering is deterministic from stored state, and
 * a pass that finds nothing changed installs nothing. Writes wake the
 * deployers whose API path prefixes they touch (dispatch.c calls
 * deployers_wake_path after every committed write). */
#ifndef PARAPET_DEPLOYER_H
#define PARAPET_DEPLOYER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

enum { DEPLOYER_MAX = 8, DEPLOYER_PATHS_MAX = 4 };

struct deployer {
    const char *name; /* for the log: "dns", "bird", ... */
    /* API path prefixes whose committed writes wake it ("/api/specp/op/");
     * a segment "*" stands for any one segment (the customer id of
     * /api/spe/customer/{id}/op/);
     * NULL-terminated, at most DEPLOYER_PATHS_MAX. */
    const char *paths[DEPLOYER_PATHS_MAX + 1];
    /* One pass. Returns 0, or -1 when the pass failed as a whole (the states
     * stay as they were). msg gets one line for the log, or "" when there is
     * nothing to say (nothing changed). */
    int (*pass)(struct store *s, void *arg, char *msg, size_t msg_len);
    void *arg;
    unsigned interval_s;

    /* the thread's own (deployer.c) */
    int lock_fd; /* the data directory's lock of this deployer, once held */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool running, wake, stop;
    bool idle;           /* waiting for a wake-up (the only time it needs a signal) */
    unsigned long wakes; /* wake-ups so far */
    long pass_ms;        /* how long the last pass took (paces the next, deployer.c) */
    const struct store_config *store_cfg;
};

/* Processes that share a data directory (several `parapet serve` on one
 * machine, or on one shared file system) must not both render into it and
 * reload the same software. From this call on, a deployer runs its passes
 * only while it holds an exclusive lock (flock) on DIR/.deploy-NAME.lock:
 * the first process to start deploys, another stands by and takes over
 * within one interval when the first exits. Nodes with their own data
 * directories each deploy their own data plane. */
void deployers_lock_dir(const char *dir);

/* Starts d's thread (d must outlive deployer_stop); -1 on failure. */
int deployer_start(struct deployer *d, const struct store_config *store_cfg);
void deployer_wake(struct deployer *d);
/* Wakes every running deployer one of whose prefixes `path` starts with,
 * here and, through the announcer when one is set, on the other nodes. */
void deployers_wake_path(const char *path);
/* The same for this process only ("": every deployer): what the other
 * nodes' announcements call. */
void deployers_wake_local(const char *path);
/* Sets the function that tells other nodes about a write (NULL: none). */
void deployers_set_announcer(void (*announce)(const char *path));
/* Stops d's thread after its current pass; nothing when it is not running. */
void deployer_stop(struct deployer *d);

#endif
