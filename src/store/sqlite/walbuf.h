/* sqlite/walbuf.h — a VFS shim that writes each commit's WAL frames with
 * one system call.
 *
 * SQLite writes a WAL frame as two pwrite calls (its 24-byte header, then
 * the page), so a commit of 10 pages cost 20 calls, ~2.5 us each on ext4,
 * all of it while the writer is held. The shim registers itself as the
 * default VFS over SQLite's own ("unix"); a WAL file opened through it
 * gathers consecutive writes in a buffer and writes them at once when the
 * frame that ends a commit is complete (its header carries the database
 * size, zero in every other frame). Any other use of the file (read, sync,
 * size, truncate, lock, close) and any write that does not follow on
 * writes the buffer first, so the file reads as if every write had gone
 * straight through. The commit is visible to other connections only after
 * its last frame was written (SQLite updates the shared WAL index after the
 * frames), so no reader can reach a frame still in the buffer. Other files
 * (the database, its shared memory, temporary files) go straight to
 * SQLite's VFS. */
#ifndef PARAPET_SQLITE_WALBUF_H
#define PARAPET_SQLITE_WALBUF_H

/* Registers the shim as the default VFS (once; later calls do nothing).
 * 0, or -1 when SQLite has no default VFS to wrap (then nothing changes). */
int walbuf_register(void);

/* Write calls the shim made to WAL files so far, and writes it was given:
 * for tests and the benchmark's figures. */
void walbuf_counts(unsigned long *calls_made, unsigned long *writes_given);

#endif
