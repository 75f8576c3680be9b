/* admin_backup.c — `parapet admin backup --to FILE` and `parapet admin
 * restore --from FILE [--replace]`: the SQLite database of a data
 * directory, copied with SQLite's online backup API.
 *
 * The copy is made in one backup step, which reads the whole database in
 * one read transaction: a snapshot of one moment, while a server keeps
 * reading and writing (WAL: readers and the writer do not wait for each
 * other). A stepwise copy would restart each time another connection
 * writes, and might never end under a stream of writes. Each copy is
 * written to a temporary name (mode 0600: it holds secrets' digests and
 * TSIG keys), checked (PRAGMA quick_check), synced and then renamed, so
 * that FILE is either absent or complete. Over PostgreSQL
 * the tool is pg_dump; backup says so, with the server's version. */
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/data_lock.h"
#include "store/migrations.h"
#include "store/schema_guard.h"

static const struct opt backup_opts[] = {{.name = "to"}, {.name = NULL}};
static const struct opt restore_opts[] = {{.name = "from"}, {.name = "replace", .flag = true}, {.name = NULL}};

enum { BUSY_WAIT_MS = 10000 };

static sqlite3 *open_db(const char *path, int flags)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        fprintf(stderr, "parapet: cannot open %s: %s\n", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, BUSY_WAIT_MS);
    return db;
}

/* One integer a query answers, or -1. */
static long long query_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Whether db passes PRAGMA quick_check (every page and index readable and
 * well formed; says what is wrong otherwise). */
static bool sound(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    bool ok = false;
    if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(st, 0);
        ok = r && strcmp(r, "ok") == 0;
        if (!ok)
            fprintf(stderr, "parapet: %s fails its check: %s\n", name, r ? r : "?");
    } else {
        fprintf(stderr, "parapet: %s is not a readable SQLite database: %s\n", name, sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return ok;
}

static int sync_path(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* The directory part of path, synced (a rename is durable once it is). */
static void sync_dir_of(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    sync_path(dir);
}

/* Copies the database of src (a connection) into the new file dest: a
 * temporary file, checked and synced, renamed to dest. Fills *version
 * (newest migration in the copy) and *bytes. 0, or -1 after a message. */
static int copy_to(sqlite3 *src, const char *src_name, const char *dest, long long *version, long long *bytes)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.partial-%ld", dest, (long)getpid());
    unlink(tmp);
    sqlite3 *out = open_db(tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!out)
        return -1;
    sqlite3_backup *b = sqlite3_backup_init(out, "main", src, "main");
    int rc = b ? SQLITE_OK : sqlite3_errcode(out);
    if (b) {
        /* all pages in one step: one read transaction, one snapshot */
        for (int tries = 0; (rc = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED; tries++) {
            if (tries == BUSY_WAIT_MS / 10)
                break;
            sqlite3_sleep(10);
        }
        sqlite3_backup_finish(b);
    }
    bool ok = rc == SQLITE_DONE;
    if (!ok)
        fprintf(stderr, "parapet: copying %s failed: %s\n", src_name, sqlite3_errstr(rc));
    ok = ok && sound(out, tmp);
    *version = ok ? query_int(out, "SELECT coalesce(max(version), 0) FROM schema_migrations") : -1;
    if (ok && *version < 0) {
        fprintf(stderr, "parapet: %s holds no parapet database (no schema_migrations)\n", src_name);
        ok = false;
    }
    /* one file without its WAL: the copy stands alone */
    ok = ok && sqlite3_exec(out, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_close(out);
    struct stat st;
    if (ok && (chmod(tmp, 0600) != 0 || sync_path(tmp) != 0 || stat(tmp, &st) != 0 || rename(tmp, dest) != 0)) {
        fprintf(stderr, "parapet: cannot write %s: %s\n", dest, strerror(errno));
        ok = false;
    }
    if (!ok) {
        unlink(tmp);
        return -1;
    }
    sync_dir_of(dest);
    *bytes = (long long)st.st_size;
    return 0;
}

/* PostgreSQL: pg_dump is the tool; the server's version says which. */
static int backup_pgsql(const char *url)
{
    PGconn *c = PQconnectdb(url);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "parapet: cannot reach the PostgreSQL store: %s", PQerrorMessage(c));
        PQfinish(c);
        return 1;
    }
    int v = PQserverVersion(c);
    PQfinish(c);
    fprintf(stderr,
            "parapet: the store is PostgreSQL %d.%d: back it up with pg_dump from PostgreSQL %d or newer while "
            "the servers run, e.g. pg_dump --format=custom --file FILE 'URL' (and pg_restore into an empty "
            "database); parapet admin backup copies SQLite stores only\n",
            v / 10000, v % 10000, v / 10000);
    return 1;
}

static int cmd_backup(const char *data, json_t *a)
{
    const char *to = arg_required(a, "to");
    if (!to)
        return 2;
    struct store_config cfg;
    cli_store_config(data, &cfg);
    if (strcmp(cfg.backend, "sqlite") != 0)
        return backup_pgsql(cfg.path);
    if (access(to, F_OK) == 0) {
        fprintf(stderr, "parapet: %s exists: back up to a new file\n", to);
        return 1;
    }
    if (access(cfg.path, F_OK) != 0) {
        fprintf(stderr, "parapet: no database at %s\n", cfg.path);
        return 1;
    }
    sqlite3 *src = open_db(cfg.path, SQLITE_OPEN_READWRITE); /* WAL readers need the shared index */
    if (!src)
        return 1;
    long long version, bytes;
    int rc = copy_to(src, cfg.path, to, &version, &bytes);
    sqlite3_close(src);
    if (rc != 0)
        return 1;
    return admin_print(json_pack("{s:s,s:s,s:I,s:I,s:s}", "backup", to, "from", cfg.path, "bytes", bytes,
                                 "schema_version", version, "check", "ok"));
}

/* Removes path and its WAL companions (-wal, -shm): a WAL left beside a
 * new database file would be replayed into it. */
static int remove_db(const char *path)
{
    char p[4200];
    static const char *const suffix[] = {"-wal", "-shm", ""};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        if (unlink(p) != 0 && errno != ENOENT) {
            fprintf(stderr, "parapet: cannot remove %s: %s\n", p, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* The restored file belongs to whoever owns the data directory (restore run
 * as root for a server running as its own user). */
static void own_like_dir(const char *data, const char *path)
{
    struct stat d;
    if (geteuid() == 0 && stat(data, &d) == 0 && chown(path, d.st_uid, d.st_gid) != 0)
        fprintf(stderr, "parapet: cannot give %s to the data directory's owner: %s\n", path, strerror(errno));
}

/* With --replace, the database in place is first copied aside (its WAL
 * included) to DB.replaced-TIME, then removed. */
static int set_aside(const char *db, char *aside, size_t size)
{
    snprintf(aside, size, "%s.replaced-%lld", db, (long long)time(NULL));
    sqlite3 *old = open_db(db, SQLITE_OPEN_READWRITE);
    long long version, bytes;
    int rc = old ? copy_to(old, db, aside, &version, &bytes) : -1;
    sqlite3_close(old);
    if (rc != 0) {
        fprintf(stderr, "parapet: the database in place could not be set aside; nothing was restored\n");
        return -1;
    }
    return remove_db(db);
}

static int cmd_restore(const char *data, json_t *a)
{
    const char *from = arg_required(a, "from");
    if (!from)
        return 2;
    struct store_config cfg;
    cli_store_config(data, &cfg);
    if (strcmp(cfg.backend, "sqlite") != 0) {
        fprintf(stderr, "parapet: the store is PostgreSQL: restore it with pg_restore\n");
        return 1;
    }
    if (access(from, R_OK) != 0) {
        fprintf(stderr, "parapet: cannot read %s: %s\n", from, strerror(errno));
        return 1;
    }
    int lock = data_dir_take(data); /* no server runs on it, none starts meanwhile */
    if (lock < 0)
        return 1;
    int rc = 1;
    char aside[4300] = "";
    sqlite3 *src = open_db(from, SQLITE_OPEN_READONLY);
    long long from_version = src && sound(src, from)
                                 ? query_int(src, "SELECT coalesce(max(version), 0) FROM schema_migrations")
                                 : -2;
    if (from_version == -1)
        fprintf(stderr, "parapet: %s holds no parapet database (no schema_migrations)\n", from);
    if (from_version < 0 || schema_guard(from, (int)from_version, migrations, migrations_count) != 0)
        goto done;
    if (access(cfg.path, F_OK) == 0) {
        if (!arg_flag(a, "replace")) {
            fprintf(stderr, "parapet: %s exists: --replace sets it aside (as %s.replaced-TIME) and restores\n",
                    cfg.path, cfg.path);
            goto done;
        }
        if (set_aside(cfg.path, aside, sizeof aside) != 0)
            goto done;
    } else if (remove_db(cfg.path) != 0) { /* a stray WAL of a removed database */
        goto done;
    }
    long long version, bytes;
    if (copy_to(src, from, cfg.path, &version, &bytes) != 0)
        goto done;
    own_like_dir(data, cfg.path);
    rc = admin_print(json_pack("{s:s,s:s,s:I,s:I,s:s?}", "restored", cfg.path, "from", from, "bytes", bytes,
                               "schema_version", version, "replaced", aside[0] ? aside : NULL));
done:
    sqlite3_close(src);
    close(lock);
    return rc;
}

int admin_backup(const char *object, const char *data, int argc, char **argv)
{
    bool backup = strcmp(object, "backup") == 0;
    json_t *a = args_parse(argc, argv, backup ? backup_opts : restore_opts);
    if (!a)
        return 2;
    int rc = backup ? cmd_backup(data, a) : cmd_restore(data, a);
    json_decref(a);
    return rc;
}
