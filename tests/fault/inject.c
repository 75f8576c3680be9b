/* inject.c — an LD_PRELOAD library of the fault tests (tests/fault/run):
 * fails the Nth write, fsync, fdatasync or rename of a file under a
 * directory, as the kernel would report a failing disk (EIO) or a full one
 * (ENOSPC). Only the process that loaded it first counts and fails calls:
 * the checkers a server runs (nginx -t, knotc, bird -p) inherit
 * LD_PRELOAD but pass through.
 *
 * Environment:
 *   FAULT_DIR    the directory (absolute); calls on other files pass through
 *   FAULT_OPS    which calls count, comma-separated (default
 *                "write,fsync,fdatasync,rename"; "write" covers write,
 *                pwrite, pwrite64 and writev)
 *   FAULT_NTH    the counted call that fails (1 is the first; 0 or unset:
 *                none, only count)
 *   FAULT_STICKY 1: every counted call from the Nth on fails (a disk that
 *                stays full or broken)
 *   FAULT_ERRNO  EIO (default) or ENOSPC
 *   FAULT_LOG    a file (outside FAULT_DIR) that gets one line per failed
 *                call: "NTH OP PATH", and at exit "count N": the calls
 *                counted (the injection points of the run), and how many
 *                calls of each kind were made under FAULT_DIR
 * It sees calls made through the dynamic linker (libc's own stdio writes
 * do not come through here). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum op { OP_WRITE = 1, OP_FSYNC = 2, OP_FDATASYNC = 4, OP_RENAME = 8 };

static char dir[PATH_MAX];
static size_t dir_len;
static unsigned ops = OP_WRITE | OP_FSYNC | OP_FDATASYNC | OP_RENAME;
static unsigned long nth;
static bool sticky;
static int fail_errno = EIO;
static int log_fd = -1;
static pid_t owner;
static atomic_ulong counted;
static atomic_ulong seen[4]; /* calls under the directory by kind, counted or not */

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);

__attribute__((constructor)) static void setup(void)
{
    real_write = dlsym(RTLD_NEXT, "write");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
    real_writev = dlsym(RTLD_NEXT, "writev");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_rename = dlsym(RTLD_NEXT, "rename");
    real_renameat = dlsym(RTLD_NEXT, "renameat");
    const char *d = getenv("FAULT_DIR");
    if (!d || !*d || strlen(d) >= sizeof dir)
        return;
    snprintf(dir, sizeof dir, "%s", d);
    dir_len = strlen(dir);
    while (dir_len > 1 && dir[dir_len - 1] == '/')
        dir[--dir_len] = '\0';
    const char *o = getenv("FAULT_OPS");
    if (o && *o)
        ops = (strstr(o, "write") ? OP_WRITE : 0) | (strstr(o, "fdatasync") ? OP_FDATASYNC : 0) |
              (strstr(o, "rename") ? OP_RENAME : 0);
    /* "fsync" is also a part of "fdatasync": look for it on its own */
    if (o && *o) {
        char list[256];
        snprintf(list, sizeof list, ",%s,", o);
        if (strstr(list, ",fsync,"))
            ops |= OP_FSYNC;
    }
    const char *n = getenv("FAULT_NTH");
    nth = n ? strtoul(n, NULL, 10) : 0;
    const char *s = getenv("FAULT_STICKY");
    sticky = s && strcmp(s, "1") == 0;
    const char *e = getenv("FAULT_ERRNO");
    fail_errno = e && strcmp(e, "ENOSPC") == 0 ? ENOSPC : EIO;
    const char *l = getenv("FAULT_LOG");
    if (l && *l)
        log_fd = open(l, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    owner = getpid();
}

__attribute__((destructor)) static void finish(void)
{
    if (log_fd < 0 || getpid() != owner)
        return;
    char line[160];
    int len = snprintf(line, sizeof line, "count %lu write %lu fsync %lu fdatasync %lu rename %lu\n",
                       atomic_load(&counted), atomic_load(&seen[0]), atomic_load(&seen[1]), atomic_load(&seen[2]),
                       atomic_load(&seen[3]));
    real_write(log_fd, line, (size_t)len);
}

static bool under_dir(const char *path)
{
    return dir_len && strncmp(path, dir, dir_len) == 0 && (path[dir_len] == '/' || path[dir_len] == '\0');
}

/* The path of a regular file's descriptor, or "" (sockets, pipes…). */
static void fd_path(int fd, char *out, size_t size)
{
    out[0] = '\0';
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, size - 1);
    out[n > 0 ? n : 0] = '\0';
}

/* Whether this call (of kind `op`, on `path`) is the one to fail. */
static bool should_fail(enum op op, const char *path, const char *name)
{
    if (!under_dir(path) || getpid() != owner)
        return false;
    atomic_fetch_add(&seen[__builtin_ctz((unsigned)op)], 1);
    if (!(ops & op))
        return false;
    unsigned long k = atomic_fetch_add(&counted, 1) + 1;
    if (!nth || (sticky ? k < nth : k != nth))
        return false;
    if (log_fd >= 0) {
        char line[PATH_MAX + 64];
        int len = snprintf(line, sizeof line, "%lu %s %s\n", k, name, path);
        real_write(log_fd, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1);
    }
    errno = fail_errno;
    return true;
}

static bool fd_fails(enum op op, int fd, const char *name)
{
    if (!dir_len || fd == log_fd)
        return false;
    char path[PATH_MAX];
    fd_path(fd, path, sizeof path);
    return path[0] && should_fail(op, path, name);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    return fd_fails(OP_WRITE, fd, "write") ? -1 : real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    return fd_fails(OP_WRITE, fd, "pwrite") ? -1 : real_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    return fd_fails(OP_WRITE, fd, "pwrite") ? -1 : real_pwrite64(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
    return fd_fails(OP_WRITE, fd, "writev") ? -1 : real_writev(fd, iov, n);
}

int fsync(int fd)
{
    return fd_fails(OP_FSYNC, fd, "fsync") ? -1 : real_fsync(fd);
}

int fdatasync(int fd)
{
    return fd_fails(OP_FDATASYNC, fd, "fdatasync") ? -1 : real_fdatasync(fd);
}

/* The absolute form of a path given to rename (relative: to the cwd). */
static void absolute(const char *p, char *out, size_t size)
{
    char cwd[PATH_MAX];
    if (p[0] == '/' || !getcwd(cwd, sizeof cwd) || strlen(cwd) + strlen(p) + 2 > size)
        snprintf(out, size, "%s", p);
    else
        strcat(strcat(strcpy(out, cwd), "/"), p);
}

int rename(const char *from, const char *to)
{
    char path[PATH_MAX];
    absolute(to, path, sizeof path);
    return dir_len && should_fail(OP_RENAME, path, "rename") ? -1 : real_rename(from, to);
}

int renameat(int from_dir, const char *from, int to_dir, const char *to)
{
    char path[PATH_MAX];
    absolute(to, path, sizeof path);
    bool plain = to_dir == AT_FDCWD || to[0] == '/';
    return dir_len && plain && should_fail(OP_RENAME, path, "rename") ? -1
                                                                       : real_renameat(from_dir, from, to_dir, to);
}
