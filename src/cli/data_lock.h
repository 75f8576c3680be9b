/* data_lock.h — who holds a data directory: every `parapet serve` holds
 * DIR/.parapet.lock shared for as long as it runs; `parapet admin restore`
 * takes it exclusively, so that it never replaces the database under a
 * running server and no server starts on a half-restored directory. */
#ifndef PARAPET_CLI_DATA_LOCK_H
#define PARAPET_CLI_DATA_LOCK_H

/* The shared hold (the directory is made when missing); kept until the
 * process exits. 0, or -1 after a message (a restore is under way). */
int data_dir_hold(const char *dir);

/* The exclusive hold: a descriptor to close when done, or -1 after a
 * message (a server runs on the directory). */
int data_dir_take(const char *dir);

#endif
