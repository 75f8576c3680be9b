/* pgsql/db.c — connection handling for the PostgreSQL backend: connecting
 * and reconnecting, migrations under a lock, prepared statements, and
 * transactions (the rules are in pgsql/db.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/metrics.h"
#include "store/migrations.h"
#include "store/pgsql/db.h"
#include "store/pgsql/pgsql.h"
#include "store/pgsql/version_watch.h"
#include "store/schema_guard.h"

extern const struct store_ops pgsql_ops; /* pgsql/ops.c */

/* Advisory lock keys ("PRPT" and two roles). */
static const char migrate_lock_sql[] = "SELECT pg_advisory_lock(1347571796001)";
static const char migrate_unlock_sql[] = "SELECT pg_advisory_unlock(1347571796001)";

/* SQLSTATE class 23: integrity constraint violations. */
static bool is_conflict(const PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    return state && strncmp(state, "23", 2) == 0;
}

static int log_error(struct store *s, const char *what, const PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(PG(s)->conn);
    fprintf(stderr, "parapet: postgresql: %s: %s", what, msg && *msg ? msg : "failed\n");
    return STORE_ERROR;
}

/* ---- parameters and columns ---- */

void pp_text(struct pg_params *p, const char *v)
{
    if (p->n >= PG_MAX_PARAMS)
        return;
    p->values[p->n] = v;
    p->lengths[p->n] = 0;
    p->formats[p->n] = 0;
    p->n++;
}

void pp_int(struct pg_params *p, int64_t v)
{
    if (p->n >= PG_MAX_PARAMS)
        return;
    snprintf(p->num[p->n], sizeof p->num[p->n], "%" PRId64, v);
    pp_text(p, p->num[p->n]);
}

void pp_bytes(struct pg_params *p, const void *b, int len)
{
    if (p->n >= PG_MAX_PARAMS)
        return;
    p->values[p->n] = b;
    p->lengths[p->n] = len;
    p->formats[p->n] = 1;
    p->n++;
}

void pp_limit(struct pg_params *p, long limit)
{
    if (limit < 0)
        pp_text(p, NULL);
    else
        pp_int(p, limit);
}

void pp_offset(struct pg_params *p, long offset)
{
    pp_int(p, offset < 0 ? 0 : offset);
}

int64_t pg_int(const PGresult *r, int row, int col)
{
    const char *v = PQgetvalue(r, row, col);
    if (PQfformat(r, col) == 1) {
        /* binary: big-endian, as wide as its type (bool 1, int2/4/8) */
        int len = PQgetlength(r, row, col);
        if (len < 1 || len > 8)
            return 0;
        uint64_t u = (v[0] & 0x80) ? UINT64_MAX : 0;
        for (int i = 0; i < len; i++)
            u = u << 8 | (uint8_t)v[i];
        return (int64_t)u;
    }
    if (*v == 't')
        return 1;
    return *v == 'f' ? 0 : strtoll(v, NULL, 10);
}

const uint8_t *pg_bytes(const PGresult *r, int row, int col, size_t *len)
{
    *len = 0;
    if (PQfformat(r, col) != 1)
        return NULL;
    *len = (size_t)PQgetlength(r, row, col);
    return (const uint8_t *)PQgetvalue(r, row, col);
}

void pg_text(const PGresult *r, int row, int col, char *dst, size_t size)
{
    size_t n = (size_t)PQgetlength(r, row, col);
    if (n >= size)
        n = size - 1;
    memcpy(dst, PQgetvalue(r, row, col), n);
    dst[n] = '\0';
}

/* ---- statements ---- */

/* The slot of a statement on this connection, preparing it on first use;
 * "" for one planned each time it runs (pg_params.plan_each_time). */
static int prepared_slot(struct store *s, const char *sql, const struct pg_params *p, char name[16])
{
    struct pg_store *d = PG(s);
    name[0] = '\0';
    if (p && p->plan_each_time)
        return 0;
    size_t h = ((uintptr_t)sql >> 3) % PG_STMT_SLOTS;
    for (size_t probe = 0; probe < PG_STMT_SLOTS; probe++) {
        size_t i = (h + probe) % PG_STMT_SLOTS;
        snprintf(name, 16, "s%zu", i);
        if (d->prepared[i] == sql)
            return 0;
        if (!d->prepared[i]) {
            PGresult *res = PQprepare(d->conn, name, sql, 0, NULL);
            bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
            if (!ok)
                log_error(s, sql, res);
            PQclear(res);
            if (!ok)
                return -1;
            d->prepared[i] = sql;
            return 0;
        }
    }
    return -1;
}

static bool changes_rows(const PGresult *res)
{
    const char *tag = PQcmdStatus((PGresult *)res);
    return (strncmp(tag, "INSERT", 6) == 0 || strncmp(tag, "UPDATE", 6) == 0 ||
            strncmp(tag, "DELETE", 6) == 0) &&
           atol(PQcmdTuples((PGresult *)res)) > 0;
}

static int ensure_connected(struct store *s);

/* Prepares (once per connection) and runs sql; NULL when it could not be
 * sent (the connection is gone). */
static PGresult *exec_prepared(struct store *s, const char *sql, const struct pg_params *p)
{
    char name[16];
    if (PQstatus(PG(s)->conn) != CONNECTION_OK || prepared_slot(s, sql, p, name) != 0)
        return NULL;
    if (!name[0])
        return PQexecParams(PG(s)->conn, sql, p->n, NULL, p->values, p->lengths, p->formats, p->binary_results);
    return PQexecPrepared(PG(s)->conn, name, p ? p->n : 0, p ? p->values : NULL, p ? p->lengths : NULL,
                          p ? p->formats : NULL, p && p->binary_results);
}

static const char commit_sql[] = "COMMIT";
static const char begin_write_sql[] = "BEGIN";

/* A write transaction's start, sent after its BEGIN with its first
 * statement (exec_in_tx): the write lock (shared for credential writes),
 * the change counter, and for the HTTP layer's writes an asynchronous
 * commit (durable through the group flush: pgsql/flush.c), in one prepared
 * statement. The counter may be read inside the transaction: a write runs
 * READ COMMITTED, so each later statement's snapshot is at least as new as
 * the value read (store.h, data_version); it is read before the lock is
 * granted, as when it was read before BEGIN. [shared][deferred] */
#define WRITE_START(lock, tail)                                                                            \
    "SELECT " lock "(" PG_WRITE_LOCK_KEY "), (SELECT last_value + 1 FROM data_version)" tail
#define ASYNC_COMMIT ", set_config('synchronous_commit', 'off', true)"
static const char *const write_start_sql[2][2] = {
    {WRITE_START("pg_advisory_xact_lock", ""), WRITE_START("pg_advisory_xact_lock", ASYNC_COMMIT)},
    {WRITE_START("pg_advisory_xact_lock_shared", ""), WRITE_START("pg_advisory_xact_lock_shared", ASYNC_COMMIT)},
};

static bool is_write_start(const char *sql)
{
    for (size_t i = 0; i < 4; i++)
        if (write_start_sql[i / 2][i % 2] == sql)
            return true;
    return false;
}

/* One statement of a pipeline: its SQL (a prepared statement's key) and
 * parameters (NULL: none). */
struct pg_step {
    const char *sql;
    const struct pg_params *p;
};

enum { PG_PIPE_MAX = PG_LATER_MAX + 2 };

/* Sends the statement sql, prepared as `name` (prepared_slot; "": planned now). */
static int send_step(PGconn *c, const char *sql, const char *name, const struct pg_params *p)
{
    if (!name[0])
        return PQsendQueryParams(c, sql, p->n, NULL, p->values, p->lengths, p->formats, p->binary_results);
    return PQsendQueryPrepared(c, name, p ? p->n : 0, p ? p->values : NULL, p ? p->lengths : NULL,
                               p ? p->formats : NULL, p && p->binary_results);
}

/* The result of pre[got] in exec_after: true when it succeeded (the
 * counter a write start reads goes to d->version). */
static bool pre_result(struct store *s, const struct pg_step *pre, const PGresult *res)
{
    ExecStatusType st = PQresultStatus(res);
    /* a COMMIT of a transaction that failed answers "ROLLBACK" */
    bool ok = (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) &&
              !(pre->sql == commit_sql && strcmp(PQcmdStatus((PGresult *)res), "ROLLBACK") == 0);
    if (ok && is_write_start(pre->sql) && PQntuples(res) == 1)
        PG(s)->version = (uint64_t)pg_int(res, 0, 1);
    return ok;
}

/* Runs the prepared statements of `pre` (only their success counts, and
 * the counter a write start reads: d->version) and then `sql` (NULL: none)
 * in one round trip (libpq's pipeline mode, one sync at the end). 0 with
 * *last the result of `sql` (NULL if none came back), or -1 when something
 * could not be sent or a statement of `pre` failed (logged). */
static int exec_after(struct store *s, const struct pg_step *pre, size_t npre, const char *sql,
                      const struct pg_params *p, PGresult **last)
{
    PGconn *c = PG(s)->conn;
    char names[PG_PIPE_MAX][16], name[16];
    *last = NULL;
    if (npre > PG_PIPE_MAX || PQstatus(c) != CONNECTION_OK)
        return -1;
    for (size_t i = 0; i < npre; i++)
        if (prepared_slot(s, pre[i].sql, pre[i].p, names[i]) != 0)
            return -1;
    if ((sql && prepared_slot(s, sql, p, name) != 0) || !PQenterPipelineMode(c))
        return -1;
    bool sent = true;
    for (size_t i = 0; i < npre && sent; i++)
        sent = send_step(c, pre[i].sql, names[i], pre[i].p) == 1;
    if (sql)
        sent = sent && send_step(c, sql, name, p) == 1;
    sent = sent && PQpipelineSync(c) == 1;
    bool pre_ok = sent;
    for (size_t got = 0; sent;) {
        PGresult *res = PQgetResult(c);
        if (!res) {
            if (PQstatus(c) != CONNECTION_OK) {
                pre_ok = pre_ok && got >= npre;
                break;
            }
            continue;
        }
        if (PQresultStatus(res) == PGRES_PIPELINE_SYNC) {
            PQclear(res);
            break;
        }
        if (got < npre) {
            if (!pre_result(s, &pre[got], res) && pre_ok) {
                log_error(s, pre[got].sql, res);
                pre_ok = false;
            }
            PQclear(res);
        } else {
            PQclear(*last);
            *last = res;
        }
        got++;
    }
    PQexitPipelineMode(c);
    if (!pre_ok) {
        PQclear(*last);
        *last = NULL;
        return -1;
    }
    return 0;
}

/* ---- statements sent later (pg_exec_later) ---- */

/* Copies p's values into one allocation owned by l. */
static int later_keep(struct pg_later *l, const char *sql, const struct pg_params *p)
{
    size_t size = 0, len[PG_MAX_PARAMS];
    for (int i = 0; i < p->n; i++) {
        len[i] = !p->values[i] ? 0 : p->formats[i] ? (size_t)p->lengths[i] : strlen(p->values[i]) + 1;
        size += len[i];
    }
    l->buf = malloc(size ? size : 1);
    if (!l->buf)
        return -1;
    l->sql = sql;
    l->p = *p;
    char *at = l->buf;
    for (int i = 0; i < p->n; i++) {
        l->p.values[i] = p->values[i] ? memcpy(at, p->values[i], len[i]) : NULL;
        at += len[i];
    }
    return 0;
}

static void later_drop(struct pg_store *d)
{
    for (int i = 0; i < d->nlater; i++)
        free(d->later[i].buf);
    d->nlater = 0;
}

/* The statements waiting to be sent, as the first steps of a pipeline. */
static size_t later_steps(struct pg_store *d, struct pg_step *steps)
{
    for (int i = 0; i < d->nlater; i++)
        steps[i] = (struct pg_step){d->later[i].sql, &d->later[i].p};
    return (size_t)d->nlater;
}

int pg_exec_later(struct store *s, const char *sql, const struct pg_params *p)
{
    struct pg_store *d = PG(s);
    if (pg_copy_wait(s) != STORE_OK)
        return STORE_ERROR;
    /* the first statement of a write goes at once, with its write lock */
    if (!d->in_tx || !d->write_tx || d->lock_pending || d->nlater == PG_LATER_MAX ||
        PQtransactionStatus(d->conn) != PQTRANS_INTRANS || later_keep(&d->later[d->nlater], sql, p) != 0)
        return pg_exec(s, sql, p, NULL);
    d->nlater++;
    d->wrote = true; /* it inserts, updates or deletes: COMMIT then bumps the counter */
    return STORE_OK;
}

/* A statement of a transaction begun, with the statements waiting to be
 * sent before it (one round trip in all). */
static PGresult *exec_with_later(struct store *s, const char *sql, const struct pg_params *p)
{
    struct pg_store *d = PG(s);
    struct pg_step pre[PG_LATER_MAX];
    PGresult *res = NULL;
    size_t n = later_steps(d, pre);
    exec_after(s, pre, n, sql, p, &res);
    later_drop(d);
    return res;
}

/* A write transaction sends nothing until its first statement (or its
 * change counter is asked for): then BEGIN, its start (write_start_sql)
 * and that statement go in one round trip. The start's lock is granted
 * before the statement's snapshot is taken (READ COMMITTED: a snapshot per
 * statement), so it sees every write that held the lock before. */
static int start_write(struct store *s, const char *sql, const struct pg_params *p, PGresult **res)
{
    struct pg_store *d = PG(s);
    const struct pg_step pre[] = {{begin_write_sql, NULL},
                                  {write_start_sql[d->lock_shared][d->deferred], NULL}};
    d->begin_pending = d->lock_pending = false;
    return exec_after(s, pre, 2, sql, p, res);
}

static PGresult *exec_in_tx(struct store *s, const char *sql, const struct pg_params *p)
{
    PGresult *res = NULL;
    if (PG(s)->nlater)
        return exec_with_later(s, sql, p);
    if (!PG(s)->lock_pending)
        return exec_prepared(s, sql, p);
    start_write(s, sql, p, &res);
    return res;
}

void pg_credential_writes(struct store *s)
{
    if (PG(s)->lock_pending)
        PG(s)->lock_shared = true;
}

static int begin_now(struct store *s);

PGresult *pg_query(struct store *s, const char *sql, const struct pg_params *p, int *rc)
{
    struct pg_store *d = PG(s);
    *rc = STORE_ERROR;
    if (pg_copy_wait(s) != STORE_OK)
        return NULL;
    if (d->begin_pending && !d->write_tx && begin_now(s) != STORE_OK)
        return NULL;
    /* A statement outside a transaction (a background loop's lookup), or
     * the first of a write transaction, opens a broken connection again
     * itself: nothing else would. */
    bool first = !d->in_tx || d->lock_pending;
    if (first && PQstatus(d->conn) != CONNECTION_OK && ensure_connected(s) != 0)
        return NULL;
    PGresult *res = exec_in_tx(s, sql, p);
    if (first && PQstatus(d->conn) != CONNECTION_OK && ensure_connected(s) == 0) {
        /* the server had closed the connection (a restart) before this
         * statement reached it: once more, on a new one */
        PQclear(res);
        d->begin_pending = d->lock_pending = d->in_tx;
        res = exec_in_tx(s, sql, p);
    }
    if (!res)
        return NULL;
    ExecStatusType st = PQresultStatus(res);
    if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
        if (changes_rows(res))
            PG(s)->wrote = true;
        *rc = STORE_OK;
        return res;
    }
    if (is_conflict(res))
        *rc = STORE_CONFLICT;
    else
        log_error(s, sql, res);
    PQclear(res);
    return NULL;
}

int pg_each_row(struct store *s, const char *sql, const struct pg_params *p,
                int (*fn)(void *arg, const PGresult *res, int row), void *arg)
{
    struct pg_store *d = PG(s);
    int rc = STORE_OK;
    if (!d->in_tx || d->write_tx) { /* not a read transaction's: as pg_query */
        PGresult *res = pg_query(s, sql, p, &rc);
        for (int i = 0; res && i < PQntuples(res) && rc == STORE_OK; i++)
            if (fn(arg, res, i) != 0)
                rc = STORE_ERROR;
        PQclear(res);
        return rc;
    }
    char name[16];
    if (pg_copy_wait(s) != STORE_OK || (d->begin_pending && begin_now(s) != STORE_OK) ||
        PQstatus(d->conn) != CONNECTION_OK || prepared_slot(s, sql, p, name) != 0 ||
        send_step(d->conn, sql, name, p) != 1)
        return log_error(s, sql, NULL);
    PQsetSingleRowMode(d->conn);
    /* every result is read, whatever fn answers: the connection is then free */
    for (PGresult *res; (res = PQgetResult(d->conn)); PQclear(res)) {
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_SINGLE_TUPLE) {
            if (rc == STORE_OK && fn(arg, res, 0) != 0)
                rc = STORE_ERROR;
        } else if (st != PGRES_TUPLES_OK && rc == STORE_OK) {
            rc = log_error(s, sql, res);
        }
    }
    return rc;
}

int pg_exec(struct store *s, const char *sql, const struct pg_params *p, long *changed)
{
    int rc;
    PGresult *res = pg_query(s, sql, p, &rc);
    if (changed)
        *changed = res ? atol(PQcmdTuples(res)) : 0;
    PQclear(res);
    return rc;
}

int pg_one(struct store *s, const char *sql, const struct pg_params *p, PGresult **out)
{
    int rc;
    *out = NULL;
    PGresult *res = pg_query(s, sql, p, &rc);
    if (!res)
        return rc;
    if (PQntuples(res) == 0) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    *out = res;
    return STORE_OK;
}

enum { OID_BOOL = 16, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23 };

int pg_rows_json(struct store *s, const char *sql, const struct pg_params *p, json_t **out)
{
    int rc;
    *out = NULL;
    PGresult *res = pg_query(s, sql, p, &rc);
    if (!res)
        return rc;
    json_t *rows = json_array();
    int ncols = PQnfields(res);
    for (int i = 0; i < PQntuples(res); i++) {
        json_t *row = json_object();
        for (int c = 0; c < ncols; c++) {
            Oid type = PQftype(res, c);
            json_t *v;
            if (PQgetisnull(res, i, c))
                v = json_null();
            else if (type == OID_INT8 || type == OID_INT4 || type == OID_INT2 || type == OID_BOOL)
                v = json_integer(pg_int(res, i, c));
            else
                v = json_stringn(PQgetvalue(res, i, c), (size_t)PQgetlength(res, i, c));
            json_object_set_new(row, PQfname(res, c), v);
        }
        json_array_append_new(rows, row);
    }
    PQclear(res);
    *out = rows;
    return STORE_OK;
}

/* A simple-protocol command (several statements allowed; the last one's
 * status counts). */
static int run_simple(struct store *s, const char *sql)
{
    PGresult *res = PQexec(PG(s)->conn, sql);
    ExecStatusType st = PQresultStatus(res);
    int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? STORE_OK : log_error(s, sql, res);
    /* COMMIT of a transaction that failed answers "ROLLBACK" */
    if (rc == STORE_OK && strcmp(PQcmdStatus(res), "ROLLBACK") == 0 && strcmp(sql, "ROLLBACK") != 0)
        rc = STORE_ERROR;
    PQclear(res);
    return rc;
}

/* ---- migrations ---- */

/* Applies every embedded migration newer than the database, each in its
 * own transaction, under a session lock so that nodes starting together
 * apply each one once. */
static int migrate(struct store *s)
{
    if (run_simple(s, migrate_lock_sql) != STORE_OK)
        return -1;
    int rc = run_simple(s, "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                           "name text NOT NULL, applied_at bigint NOT NULL)");
    if (rc == STORE_OK) {
        PGresult *res = PQexec(PG(s)->conn, "SELECT coalesce(max(version), 0) FROM schema_migrations");
        int applied = PQresultStatus(res) == PGRES_TUPLES_OK ? atoi(PQgetvalue(res, 0, 0)) : 0;
        PQclear(res);
        if (schema_guard("the PostgreSQL database", applied, pg_migrations, pg_migrations_count) != 0)
            rc = STORE_ERROR;
    }
    for (int i = 0; rc == STORE_OK && i < pg_migrations_count; i++) {
        const struct migration *m = &pg_migrations[i];
        char version[16];
        snprintf(version, sizeof version, "%d", m->version);
        const char *vals[] = {version};
        PGresult *res = PQexecParams(PG(s)->conn, "SELECT 1 FROM schema_migrations WHERE version = $1", 1, NULL,
                                     vals, NULL, NULL, 0);
        bool ok = PQresultStatus(res) == PGRES_TUPLES_OK, done = ok && PQntuples(res) > 0;
        PQclear(res);
        if (!ok) {
            rc = log_error(s, "schema_migrations", NULL);
            break;
        }
        if (done)
            continue;
        char now[24];
        snprintf(now, sizeof now, "%lld", (long long)time(NULL));
        const char *ins[] = {version, m->name, now};
        rc = run_simple(s, "BEGIN");
        if (rc == STORE_OK && (rc = run_simple(s, m->sql)) != STORE_OK)
            fprintf(stderr, "parapet: postgresql: migration %s failed\n", m->name);
        if (rc == STORE_OK) {
            res = PQexecParams(PG(s)->conn, "INSERT INTO schema_migrations VALUES ($1, $2, $3)", 3, NULL, ins,
                               NULL, NULL, 0);
            rc = PQresultStatus(res) == PGRES_COMMAND_OK ? STORE_OK : log_error(s, "schema_migrations", res);
            PQclear(res);
        }
        rc = rc == STORE_OK ? run_simple(s, "COMMIT") : (run_simple(s, "ROLLBACK"), STORE_ERROR);
    }
    run_simple(s, migrate_unlock_sql);
    return rc == STORE_OK ? 0 : -1;
}

/* Text order and case folding must be the bytewise ones SQLite uses (names
 * are unique without regard to ASCII case; lists sort by code point). */
static int check_collation(struct store *s)
{
    PGresult *res = PQexec(PG(s)->conn, "SELECT datcollate FROM pg_database WHERE datname = current_database()");
    bool ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
    const char *coll = ok ? PQgetvalue(res, 0, 0) : "";
    ok = ok && (strcmp(coll, "C") == 0 || strcmp(coll, "POSIX") == 0 || strncmp(coll, "C.", 2) == 0);
    if (!ok)
        fprintf(stderr,
                "parapet: postgresql: the database's collation is '%s'; parapet needs C "
                "(createdb --locale=C --template=template0 NAME)\n",
                coll);
    PQclear(res);
    return ok ? 0 : -1;
}

/* ---- opening, reconnecting ---- */

/* NOTICEs ("already exists, skipping") are not for the operator's log. */
static void ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* Every session's settings: UTC; durable commits whatever the server's
 * default; and no JIT compilation. parapet's statements are short, and
 * their costs are estimated for parameters unknown when planning: the
 * stored-flow read of an ingest slice (pgsql/tel_ingest.c) was estimated
 * at 150,000, and its JIT compilation took 5 ms where it runs in 0.1 ms
 * (8.5 s of PostgreSQL's CPU over a month of telemetry). */
static const char session_sql[] = "SET TIME ZONE 'UTC'; SET synchronous_commit = on; SET jit = off";

static int connect_db(struct pg_store *d)
{
    if (d->conn)
        PQfinish(d->conn);
    memset(d->prepared, 0, sizeof d->prepared);
    d->conn = PQconnectdb(d->conninfo);
    if (PQstatus(d->conn) != CONNECTION_OK) {
        fprintf(stderr, "parapet: postgresql: cannot connect: %s", PQerrorMessage(d->conn));
        return -1;
    }
    PQsetNoticeProcessor(d->conn, ignore_notice, NULL);
    PGresult *res = PQexec(d->conn, session_sql);
    PQclear(res);
    return 0;
}

/* Every operation of the table is there (a missing one would crash a handler). */
static bool ops_complete(void)
{
    const void *const *op = (const void *const *)&pgsql_ops;
    for (size_t i = 0; i < sizeof pgsql_ops / sizeof(void *); i++)
        if (!op[i]) {
            fprintf(stderr, "parapet: postgresql: this build's backend lacks store operation %zu\n", i);
            return false;
        }
    return true;
}

struct store *pgsql_store_open(const char *conninfo)
{
    if (!ops_complete())
        return NULL;
    struct pg_store *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->base.ops = &pgsql_ops;
    d->conninfo = strdup(conninfo);
    if (!d->conninfo || connect_db(d) != 0 || check_collation(&d->base) != 0 || migrate(&d->base) != 0) {
        pg_close(&d->base);
        return NULL;
    }
    return &d->base;
}

void pg_close(struct store *s)
{
    struct pg_store *d = PG(s);
    pg_copy_wait(s);
    if (d->conn)
        PQfinish(d->conn);
    free(d->conninfo);
    free(d);
}

/* A connection that broke (the server restarted, the network dropped) is
 * opened again at the next transaction; until then every call fails. */
static int ensure_connected(struct store *s)
{
    struct pg_store *d = PG(s);
    if (PQstatus(d->conn) == CONNECTION_OK)
        return 0;
    memset(d->prepared, 0, sizeof d->prepared);
    PQreset(d->conn);
    if (PQstatus(d->conn) != CONNECTION_OK)
        return -1;
    PQsetNoticeProcessor(d->conn, ignore_notice, NULL);
    PGresult *res = PQexec(d->conn, session_sql);
    PQclear(res);
    return 0;
}

/* ---- transactions ---- */

/* A read transaction's change counter is read before BEGIN (when the
 * watcher does not know it), in a transaction of its own: the
 * transaction's snapshot is taken by its first statement after BEGIN, so
 * whatever it reads is at least as new as the counter says (store.h,
 * data_version). Both go in one round trip (libpq's pipeline mode, a sync
 * after each so that they are two transactions). */
static const char version_sql[] = "SELECT last_value + 1 FROM data_version";
static const char begin_read_sql[] = "BEGIN ISOLATION LEVEL REPEATABLE READ";

static int begin_pipelined(struct store *s, int64_t *version)
{
    PGconn *c = PG(s)->conn;
    const char *steps[] = {version_sql, NULL, begin_read_sql, NULL};
    if (!PQenterPipelineMode(c))
        return log_error(s, "pipeline", NULL);
    bool sent = true;
    int syncs = 0;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && sent; i++) {
        if (!steps[i]) {
            if (i == 0 || steps[i - 1]) { /* a sync ends each group */
                sent = PQpipelineSync(c) == 1;
                syncs++;
            }
            continue;
        }
        sent = PQsendQueryParams(c, steps[i], 0, NULL, NULL, NULL, NULL, 0) == 1;
    }
    int rc = sent ? STORE_OK : log_error(s, "pipeline", NULL);
    /* read everything sent: each query's result then NULL; each sync's marker */
    for (int got_syncs = 0; sent && got_syncs < syncs;) {
        PGresult *res = PQgetResult(c);
        if (!res) {
            if (PQstatus(c) != CONNECTION_OK) {
                rc = log_error(s, "pipeline", NULL);
                break;
            }
            continue;
        }
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_PIPELINE_SYNC)
            got_syncs++;
        else if (got_syncs == 0 && st == PGRES_TUPLES_OK && PQntuples(res) == 1)
            *version = pg_int(res, 0, 0); /* the first group is the counter's */
        else if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && rc == STORE_OK)
            rc = log_error(s, "begin", res);
        PQclear(res);
    }
    PQexitPipelineMode(c);
    return rc;
}

/* The BEGIN of a read transaction begun without one (pg_begin): sent with
 * its first statement, once the connection is sound (a server restarted
 * since closed it: a new one, as pg_begin would have made). */
static int begin_now(struct store *s)
{
    struct pg_store *d = PG(s);
    d->begin_pending = false;
    int rc = ensure_connected(s) == 0 ? run_simple(s, begin_read_sql) : STORE_ERROR;
    if (rc != STORE_OK && PQstatus(d->conn) != CONNECTION_OK && ensure_connected(s) == 0)
        rc = run_simple(s, begin_read_sql);
    return rc;
}

int pg_begin(struct store *s, bool write)
{
    struct pg_store *d = PG(s);
    if (d->in_tx)
        return STORE_ERROR;
    uint64_t known;
    if (write) { /* everything goes with the first statement (start_write) */
        /* A server that shut down (or restarted) has sent its notice and
         * closed the connection: reading what is there finds that without
         * a round trip (two reads: the notice, then the end), so a write
         * that cannot begin is refused here (503), not by its first
         * statement (500). */
        for (int i = 0; i < 2 && PQstatus(d->conn) == CONNECTION_OK; i++)
            PQconsumeInput(d->conn);
        if (ensure_connected(s) != 0)
            return STORE_ERROR;
        d->in_tx = d->begin_pending = d->lock_pending = d->write_tx = true;
        d->wrote = d->lock_shared = false;
        d->version = 0;
        clock_gettime(CLOCK_MONOTONIC, &d->began);
        return STORE_OK;
    }
    if (pg_version_watch_start(d->conninfo) == 0 && pg_version_known(&known)) {
        d->in_tx = d->begin_pending = true;
        d->wrote = d->write_tx = d->lock_pending = false;
        d->version = known;
        return STORE_OK;
    }
    if (ensure_connected(s) != 0)
        return STORE_ERROR;
    int64_t version = 0;
    int rc = begin_pipelined(s, &version);
    if (rc != STORE_OK && PQstatus(d->conn) != CONNECTION_OK && ensure_connected(s) == 0)
        rc = begin_pipelined(s, &version); /* closed by the server since (a restart): a new one */
    if (rc != STORE_OK) {
        if (PQstatus(d->conn) == CONNECTION_OK && PQtransactionStatus(d->conn) != PQTRANS_IDLE)
            run_simple(s, "ROLLBACK");
        return rc;
    }
    d->in_tx = true;
    d->wrote = d->write_tx = d->lock_pending = false;
    d->version = (uint64_t)version;
    return STORE_OK;
}

/* The change counter's bump, and the WAL position after the commit (the
 * ticket of a deferred commit: pgsql/flush.c); the bump is announced to
 * every node's watcher (version_watch.h). A deferred commit's bump is
 * announced by the group flush that makes it durable instead: NOTIFY takes
 * a transaction id, so the bump's own transaction would commit
 * synchronously, each one waiting for a WAL flush of its own while holding
 * the database's one notification lock (the writes of every thread then
 * went at the disk's flush rate). */
static const char bump_notify_sql[] = "SELECT v, (pg_current_wal_insert_lsn() - '0/0')::text, "
                                      "pg_notify('parapet_version', v::text) FROM nextval('data_version') v";
static const char bump_sql[] = "SELECT v, (pg_current_wal_insert_lsn() - '0/0')::text FROM nextval('data_version') v";

int pg_commit(struct store *s)
{
    struct pg_store *d = PG(s);
    if (!d->in_tx)
        return STORE_ERROR;
    if (pg_copy_wait(s) != STORE_OK) /* the transaction lacks rows it was given */
        return pg_rollback(s), STORE_ERROR;
    d->in_tx = false;
    if (d->begin_pending) { /* nothing was read or written */
        d->begin_pending = d->lock_pending = false;
        d->ticket = 0;
        return STORE_OK;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    d->ticket = 0;
    if (!d->wrote)
        return run_simple(s, "COMMIT");
    /* The counter's bump after the commit, so that a reader who sees the new
     * value also sees the new rows (pgsql/db.h); both in one round trip. A
     * failed COMMIT answers ROLLBACK, and its bump costs nothing but a
     * needless drop of the caches. */
    PGresult *res = NULL;
    char name[16];
    const char *bump = d->deferred && d->write_tx ? bump_sql : bump_notify_sql;
    if (PQstatus(d->conn) != CONNECTION_OK)
        return later_drop(d), d->wrote = false, STORE_ERROR;
    /* a failed transaction can prepare nothing (and a failed prepare fails
     * it): its COMMIT answers ROLLBACK, an error */
    if (PQtransactionStatus(d->conn) == PQTRANS_INERROR || prepared_slot(s, bump, NULL, name) != 0)
        return later_drop(d), d->wrote = false, run_simple(s, commit_sql);
    /* the statements kept for later, the COMMIT, then the bump */
    struct pg_step pre[PG_LATER_MAX + 1];
    size_t npre = later_steps(d, pre);
    pre[npre++] = (struct pg_step){commit_sql, NULL};
    int rc = exec_after(s, pre, npre, bump, NULL, &res) == 0 && res ? STORE_OK : STORE_ERROR;
    later_drop(d);
    /* a kept statement that failed skipped the COMMIT: the transaction is still open */
    if (rc != STORE_OK && PQstatus(d->conn) == CONNECTION_OK && PQtransactionStatus(d->conn) != PQTRANS_IDLE)
        run_simple(s, "ROLLBACK");
    if (rc == STORE_OK) {
        if (!(d->deferred && d->write_tx)) {
            /* the commit waited for its own WAL flush: one commit per sync */
            clock_gettime(CLOCK_MONOTONIC, &t1);
            metrics_store_sync(1, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
        }
        if (res && PQntuples(res) == 1)
            pg_version_saw((uint64_t)pg_int(res, 0, 0) + 1); /* this node's reads see it at once */
        if (d->deferred && d->write_tx) /* no position: wait for a flush of everything (UINT64_MAX > flushed) */
            d->ticket = res && PQntuples(res) == 1 ? strtoull(PQgetvalue(res, 0, 1), NULL, 10) : UINT64_MAX;
        PQclear(res);
        if (d->write_tx) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            metrics_store_write((double)(now.tv_sec - d->began.tv_sec) +
                                (double)(now.tv_nsec - d->began.tv_nsec) / 1e9);
        }
    }
    d->wrote = false;
    return rc;
}

int pg_rollback(struct store *s)
{
    struct pg_store *d = PG(s);
    pg_copy_wait(s);
    if (!d->in_tx)
        return STORE_OK;
    d->in_tx = false;
    d->wrote = false;
    later_drop(d);
    if (d->begin_pending) {
        d->begin_pending = d->lock_pending = false;
        return STORE_OK;
    }
    return PQstatus(d->conn) == CONNECTION_OK ? run_simple(s, "ROLLBACK") : STORE_OK;
}

uint64_t pg_data_version(struct store *s)
{
    struct pg_store *d = PG(s);
    if (!d->in_tx)
        return 0;
    if (d->lock_pending) { /* a write that sent nothing yet: its start, now */
        PGresult *res = NULL;
        if ((PQstatus(d->conn) != CONNECTION_OK && ensure_connected(s) != 0) || start_write(s, NULL, NULL, &res) != 0)
            return 0;
    }
    return d->version;
}

