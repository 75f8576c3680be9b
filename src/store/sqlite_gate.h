/* sqlite_gate.h — one in-process mutex per database file, held from BEGIN
 * IMMEDIATE to the end of the write transaction.
 *
 * SQLite admits one writer at a time anyway; without the gate the other
 * worker threads find the write lock taken and SQLite's busy handler puts
 * them to sleep for 1 ms, 2 ms, 5 ms… (measured: 0.27 sleeps per POST
 * /oauth/credit/token, p99 300-600 ms). Worse, while two connections
 * alternate their write transactions, each one begins before the other's
 * checkpoint has finished, so the WAL is never restarted: it grew to 14 MB
 * and every commit past 1000 WAL pages ran a checkpoint with two fdatasync
 * calls. Queued on a mutex, the next writer starts as soon as the previous
 * one (and its checkpoint) is done. Writers in other processes (parapet
 * admin) still meet SQLite's own locking and busy timeout. */
#ifndef PARAPET_SQLITE_GATE_H
#define PARAPET_SQLITE_GATE_H

#include <stdbool.h>

struct write_gate;

/* The gate of a database file (by its full path); NULL when there is none
 * (an unnamed database, or too many files open in one process). */
struct write_gate *gate_for(const char *path);
/* false when the gate could not be had within timeout_ms. */
bool gate_enter(struct write_gate *g, unsigned timeout_ms);
void gate_leave(struct write_gate *g);

#endif
