/* data_version.c — see data_version.h. Atomic operations on a MAP_SHARED
 * page are coherent between processes that map the same file. */
#include "store/data_version.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ANY, ACCOUNTS, COUNTERS };

struct data_version {
    uint64_t *counter; /* [ANY], [ACCOUNTS] */
};

struct data_version *data_version_open(const char *db_path)
{
    char path[4096];
    if (!db_path || !*db_path || snprintf(path, sizeof path, "%s-version", db_path) >= (int)sizeof path)
        return NULL;
    /* Like SQLite's -wal and -shm files, it takes the database file's mode
     * and, made by root, its owner: every process that may write the
     * database must be able to bump the counter. */
    struct stat db;
    bool have_db = stat(db_path, &db) == 0;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, have_db ? (db.st_mode & 0666) : 0600);
    if (fd < 0) {
        fprintf(stderr, "parapet: cannot open %s; token and customer reads are not cached\n", path);
        return NULL;
    }
    if (have_db && geteuid() == 0 && fchown(fd, db.st_uid, db.st_gid) != 0)
        fprintf(stderr, "parapet: cannot give %s the owner of %s\n", path, db_path);
    struct stat st;
    void *p = MAP_FAILED;
    /* Only a short file is extended: ftruncate to the same size would keep
     * the values, but a concurrent opener must never see it shrink. (A file
     * of one counter, from before the accounts counter, grows a second.) */
    const off_t size = COUNTERS * sizeof(uint64_t);
    if (fstat(fd, &st) == 0 && (st.st_size >= size || ftruncate(fd, size) == 0))
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    struct data_version *v = p == MAP_FAILED ? NULL : malloc(sizeof *v);
    if (!v) {
        if (p != MAP_FAILED)
            munmap(p, COUNTERS * sizeof(uint64_t));
        fprintf(stderr, "parapet: %s cannot be mapped; token and customer reads are not cached\n", path);
        return NULL;
    }
    v->counter = p;
    return v;
}

void data_version_close(struct data_version *v)
{
    if (!v)
        return;
    munmap(v->counter, COUNTERS * sizeof(uint64_t));
    free(v);
}

uint64_t data_version_read(const struct data_version *v)
{
    /* +1: a fresh file reads 0, which means "unknown" to callers. Wraps
     * only after 2^64 commits. */
    return v ? __atomic_load_n(&v->counter[ANY], __ATOMIC_ACQUIRE) + 1 : 0;
}

uint64_t data_version_read_accounts(const struct data_version *v)
{
    return v ? __atomic_load_n(&v->counter[ACCOUNTS], __ATOMIC_ACQUIRE) + 1 : 0;
}

void data_version_bump(struct data_version *v, bool accounts)
{
    if (!v)
        return;
    if (accounts)
        __atomic_add_fetch(&v->counter[ACCOUNTS], 1, __ATOMIC_ACQ_REL);
    __atomic_add_fetch(&v->counter[ANY], 1, __ATOMIC_ACQ_REL);
}
