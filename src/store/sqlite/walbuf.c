/* sqlite/walbuf.c — see sqlite/walbuf.h. */
#include "store/sqlite/walbuf.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/write_fence.h"

/* The WAL format (https://sqlite.org/fileformat2.html#walformat): a 32-byte
 * header, then frames of a 24-byte header and a page; bytes 4-7 of a frame
 * header (big-endian) hold the database size in pages after a commit, in
 * the last frame of the commit only. */
enum { WAL_HEADER = 32, FRAME_HEADER = 24 };
/* SQLite's unix VFS writes at most 128 KiB - 1 per pwrite call (it masks the
 * count with 0x1ffff, and a masked count of 0 reads as "disk full"): 64 KiB
 * holds the frames of a 15-page commit, and a larger one is written in
 * several calls. */
enum { BUFFER_CAP = 64 * 1024 };

struct wal_file {
    sqlite3_file base;  /* pMethods: wal_methods */
    sqlite3_file *real; /* SQLite's own file, in the space after this struct */
    unsigned char *buf; /* writes not yet made, from file offset `start` */
    size_t len;
    sqlite3_int64 start;
    sqlite3_int64 header_at; /* the last frame header written (page expected next), or -1 */
    bool header_commits;     /* and whether it ends a commit */
};

static sqlite3_vfs *real_vfs;
static sqlite3_vfs shim_vfs;
static atomic_ulong calls_made, writes_given;

static int flush(struct wal_file *f)
{
    if (f->len == 0)
        return SQLITE_OK;
    atomic_fetch_add_explicit(&calls_made, 1, memory_order_relaxed);
    int rc = f->real->pMethods->xWrite(f->real, f->buf, (int)f->len, f->start);
    f->len = 0;
    return rc;
}

/* Adds a write to the buffer, writing the buffer first when it does not
 * follow on or would overflow. */
static int gather(struct wal_file *f, const void *data, int amt, sqlite3_int64 off)
{
    if (f->len && (off != f->start + (sqlite3_int64)f->len || f->len + (size_t)amt > BUFFER_CAP)) {
        int rc = flush(f);
        if (rc != SQLITE_OK)
            return rc;
    }
    if ((size_t)amt > BUFFER_CAP) {
        atomic_fetch_add_explicit(&calls_made, 1, memory_order_relaxed);
        return f->real->pMethods->xWrite(f->real, data, amt, off);
    }
    if (!f->buf && !(f->buf = malloc(BUFFER_CAP)))
        return SQLITE_IOERR_NOMEM;
    if (f->len == 0)
        f->start = off;
    memcpy(f->buf + f->len, data, (size_t)amt);
    f->len += (size_t)amt;
    return SQLITE_OK;
}

static int wal_write(sqlite3_file *file, const void *data, int amt, sqlite3_int64 off)
{
    struct wal_file *f = (struct wal_file *)file;
    atomic_fetch_add_explicit(&writes_given, 1, memory_order_relaxed);
    int rc;
    if (amt == FRAME_HEADER && off >= WAL_HEADER) {
        const unsigned char *h = data;
        f->header_at = off;
        f->header_commits = (h[4] | h[5] | h[6] | h[7]) != 0;
        return gather(f, data, amt, off);
    }
    bool page = f->header_at >= 0 && off == f->header_at + FRAME_HEADER;
    bool commits = page && f->header_commits;
    f->header_at = -1;
    if (page || (off == 0 && amt == WAL_HEADER)) {
        rc = gather(f, data, amt, off);
        /* the commit's frames are on the file before SQLite publishes them */
        return rc == SQLITE_OK && commits ? flush(f) : rc;
    }
    /* a write of a kind the WAL format does not describe: straight through */
    rc = flush(f);
    if (rc != SQLITE_OK)
        return rc;
    atomic_fetch_add_explicit(&calls_made, 1, memory_order_relaxed);
    return f->real->pMethods->xWrite(f->real, data, amt, off);
}

/* Every other method writes the buffer first, then is SQLite's own. */
#define REAL(f) (((struct wal_file *)(f))->real)
#define FLUSHED(f)                                                                                              \
    do {                                                                                                        \
        int flush_rc = flush((struct wal_file *)(f));                                                          \
        if (flush_rc != SQLITE_OK)                                                                              \
            return flush_rc;                                                                                    \
    } while (0)

static int wal_close(sqlite3_file *file)
{
    struct wal_file *f = (struct wal_file *)file;
    int rc = flush(f);
    free(f->buf);
    f->buf = NULL;
    int close_rc = f->real->pMethods->xClose(f->real);
    return rc != SQLITE_OK ? rc : close_rc;
}

static int wal_read(sqlite3_file *f, void *data, int amt, sqlite3_int64 off)
{
    FLUSHED(f);
    return REAL(f)->pMethods->xRead(REAL(f), data, amt, off);
}

static int wal_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    FLUSHED(f);
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

/* SQLite's own syncs of the WAL (before a checkpoint; at every commit
 * without the shared writer): a failure stops writes as group commit's
 * does (write_fence.h). */
static int wal_sync(sqlite3_file *f, int flags)
{
    FLUSHED(f);
    int rc = REAL(f)->pMethods->xSync(REAL(f), flags);
    if (rc != SQLITE_OK)
        write_fence_trip("the database's -wal file (SQLite's own sync)", 0);
    return rc;
}

static int wal_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
    FLUSHED(f);
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int wal_lock(sqlite3_file *f, int level)
{
    FLUSHED(f);
    return REAL(f)->pMethods->xLock(REAL(f), level);
}

static int wal_unlock(sqlite3_file *f, int level)
{
    FLUSHED(f);
    return REAL(f)->pMethods->xUnlock(REAL(f), level);
}

static int wal_check_reserved(sqlite3_file *f, int *out)
{
    FLUSHED(f);
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int wal_file_control(sqlite3_file *f, int op, void *arg)
{
    FLUSHED(f);
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int wal_sector_size(sqlite3_file *f)
{
    return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int wal_device_characteristics(sqlite3_file *f)
{
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

/* SQLite maps shared memory and pages of the database file, never of its
 * WAL; these pass on what a WAL file of SQLite's own would answer. */
static int wal_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **out)
{
    if (REAL(f)->pMethods->iVersion < 2)
        return SQLITE_IOERR_SHMMAP;
    return REAL(f)->pMethods->xShmMap(REAL(f), region, size, extend, out);
}

static int wal_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
    if (REAL(f)->pMethods->iVersion < 2)
        return SQLITE_IOERR_SHMLOCK;
    return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}

static void wal_shm_barrier(sqlite3_file *f)
{
    if (REAL(f)->pMethods->iVersion >= 2)
        REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int wal_shm_unmap(sqlite3_file *f, int delete_flag)
{
    if (REAL(f)->pMethods->iVersion < 2)
        return SQLITE_OK;
    return REAL(f)->pMethods->xShmUnmap(REAL(f), delete_flag);
}

static int wal_fetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **out)
{
    *out = NULL; /* "no mapping": SQLite reads instead */
    if (REAL(f)->pMethods->iVersion < 3)
        return SQLITE_OK;
    FLUSHED(f);
    return REAL(f)->pMethods->xFetch(REAL(f), off, amt, out);
}

static int wal_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
    if (REAL(f)->pMethods->iVersion < 3)
        return SQLITE_OK;
    return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static sqlite3_io_methods wal_methods = {
    .iVersion = 3,
    .xClose = wal_close,
    .xRead = wal_read,
    .xWrite = wal_write,
    .xTruncate = wal_truncate,
    .xSync = wal_sync,
    .xFileSize = wal_file_size,
    .xLock = wal_lock,
    .xUnlock = wal_unlock,
    .xCheckReservedLock = wal_check_reserved,
    .xFileControl = wal_file_control,
    .xSectorSize = wal_sector_size,
    .xDeviceCharacteristics = wal_device_characteristics,
    .xShmMap = wal_shm_map,
    .xShmLock = wal_shm_lock,
    .xShmBarrier = wal_shm_barrier,
    .xShmUnmap = wal_shm_unmap,
    .xFetch = wal_fetch,
    .xUnfetch = wal_unfetch,
};

/* A WAL file is wrapped; every other file is SQLite's own, opened in place
 * (szOsFile leaves room for either). */
static int shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags)
{
    (void)vfs;
    if (!(flags & SQLITE_OPEN_WAL))
        return real_vfs->xOpen(real_vfs, name, file, flags, out_flags);
    struct wal_file *f = (struct wal_file *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    f->header_at = -1;
    int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out_flags);
    /* a failed open leaves pMethods NULL, so SQLite does not close it */
    if (rc == SQLITE_OK && f->real->pMethods)
        f->base.pMethods = &wal_methods;
    return rc;
}

/* The rest of the VFS is SQLite's. */
static int shim_delete(sqlite3_vfs *v, const char *name, int sync_dir)
{
    (void)v;
    return real_vfs->xDelete(real_vfs, name, sync_dir);
}

static int shim_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
    (void)v;
    return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int shim_full_pathname(sqlite3_vfs *v, const char *name, int n, char *out)
{
    (void)v;
    return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static void *shim_dl_open(sqlite3_vfs *v, const char *name)
{
    (void)v;
    return real_vfs->xDlOpen(real_vfs, name);
}

static void shim_dl_error(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    real_vfs->xDlError(real_vfs, n, out);
}

static void (*shim_dl_sym(sqlite3_vfs *v, void *lib, const char *sym))(void)
{
    (void)v;
    return real_vfs->xDlSym(real_vfs, lib, sym);
}

static void shim_dl_close(sqlite3_vfs *v, void *lib)
{
    (void)v;
    real_vfs->xDlClose(real_vfs, lib);
}

static int shim_randomness(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return real_vfs->xRandomness(real_vfs, n, out);
}

static int shim_sleep(sqlite3_vfs *v, int us)
{
    (void)v;
    return real_vfs->xSleep(real_vfs, us);
}

static int shim_current_time(sqlite3_vfs *v, double *out)
{
    (void)v;
    return real_vfs->xCurrentTime(real_vfs, out);
}

static int shim_last_error(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return real_vfs->xGetLastError ? real_vfs->xGetLastError(real_vfs, n, out) : 0;
}

static int shim_current_time_int64(sqlite3_vfs *v, sqlite3_int64 *out)
{
    (void)v;
    return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

static int registered = -1;

static void register_once(void)
{
    real_vfs = sqlite3_vfs_find(NULL);
    if (!real_vfs || real_vfs->iVersion < 2 || !real_vfs->xCurrentTimeInt64)
        return;
    int size = real_vfs->szOsFile + (int)sizeof(struct wal_file);
    shim_vfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = size,
        .mxPathname = real_vfs->mxPathname,
        .zName = "parapet-walbuf",
        .xOpen = shim_open,
        .xDelete = shim_delete,
        .xAccess = shim_access,
        .xFullPathname = shim_full_pathname,
        .xDlOpen = shim_dl_open,
        .xDlError = shim_dl_error,
        .xDlSym = shim_dl_sym,
        .xDlClose = shim_dl_close,
        .xRandomness = shim_randomness,
        .xSleep = shim_sleep,
        .xCurrentTime = shim_current_time,
        .xGetLastError = shim_last_error,
        .xCurrentTimeInt64 = shim_current_time_int64,
    };
    registered = sqlite3_vfs_register(&shim_vfs, 1) == SQLITE_OK ? 0 : -1;
}

int walbuf_register(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_once);
    return registered;
}

void walbuf_counts(unsigned long *made, unsigned long *given)
{
    *made = atomic_load(&calls_made);
    *given = atomic_load(&writes_given);
}
