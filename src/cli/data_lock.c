/* data_lock.c — see data_lock.h. flock(2) locks go with the process: a
 * server that dies releases its hold. */
#include "cli/data_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static int lock_file(const char *dir, int how)
{
    char path[4200];
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "parapet: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    data_path(path, sizeof path, dir, ".parapet.lock");
    /* read-only is enough for flock, and mode 0644 lets a server running as
     * its own user lock a file root made (a restore run as root) */
    int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "parapet: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (flock(fd, how | LOCK_NB) != 0) {
        close(fd);
        return -2;
    }
    return fd;
}

int data_dir_hold(const char *dir)
{
    int fd = lock_file(dir, LOCK_SH);
    if (fd == -2)
        fprintf(stderr, "parapet: a restore into %s is under way (parapet admin restore); start the server after it\n",
                dir);
    return fd < 0 ? -1 : 0; /* the descriptor stays open: the hold lasts as long as the process */
}

int data_dir_take(const char *dir)
{
    int fd = lock_file(dir, LOCK_EX);
    if (fd == -2)
        fprintf(stderr, "parapet: %s is in use by a running server (parapet serve): stop it first\n", dir);
    return fd < 0 ? -1 : fd;
}
