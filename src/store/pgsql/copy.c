/* pgsql/copy.c — a COPY … FROM STDIN sent by a thread of its own
 * (pg_copy_start), so that the caller's work in C overlaps the server's
 * storing of the rows; the connection's next statement, COMMIT or ROLLBACK
 * waits for it first (pg_copy_wait), and fails when it did. The caller does
 * not touch the connection meanwhile: everything that does goes through
 * pg_query, pg_commit, pg_rollback or pg_close, which wait. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "store/pgsql/db.h"

struct pg_copy {
    pthread_t thread;
    PGconn *conn;
    const char *sql;
    char *rows; /* COPY's data, owned */
    size_t len;
    long expected;
    int rc;
};

static void *copy_main(void *arg)
{
    struct pg_copy *c = arg;
    PGresult *res = PQexec(c->conn, c->sql);
    bool copying = PQresultStatus(res) == PGRES_COPY_IN;
    c->rc = copying && PQputCopyData(c->conn, c->rows, (int)c->len) == 1 ? STORE_OK : STORE_ERROR;
    if (copying && PQputCopyEnd(c->conn, c->rc == STORE_OK ? NULL : "the rows could not be sent") != 1)
        c->rc = STORE_ERROR;
    for (; res; res = copying ? PQgetResult(c->conn) : NULL) { /* until libpq has no more results */
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_FATAL_ERROR || (st == PGRES_COMMAND_OK && atol(PQcmdTuples(res)) != c->expected)) {
            fprintf(stderr, "parapet: postgresql: %.40s…: %s", c->sql,
                    st == PGRES_FATAL_ERROR ? PQresultErrorMessage(res) : "not every row went in\n");
            c->rc = STORE_ERROR;
        }
        PQclear(res);
    }
    return NULL;
}

int pg_copy_start(struct store *s, const char *sql, char *rows, size_t len, long expected)
{
    struct pg_store *d = PG(s);
    struct pg_copy *c = pg_copy_wait(s) == STORE_OK ? calloc(1, sizeof *c) : NULL;
    if (!c || len > INT32_MAX) {
        free(c);
        free(rows);
        return STORE_ERROR;
    }
    *c = (struct pg_copy){.conn = d->conn, .sql = sql, .rows = rows, .len = len, .expected = expected};
    if (pthread_create(&c->thread, NULL, copy_main, c) != 0) {
        copy_main(c); /* no thread: at once */
        int rc = c->rc;
        free(c->rows);
        free(c);
        return rc;
    }
    d->copy = c;
    return STORE_OK;
}

int pg_copy_wait(struct store *s)
{
    struct pg_store *d = PG(s);
    struct pg_copy *c = d->copy;
    if (!c)
        return STORE_OK;
    pthread_join(c->thread, NULL);
    d->copy = NULL;
    int rc = c->rc;
    free(c->rows);
    free(c);
    return rc;
}
