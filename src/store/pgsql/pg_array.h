/* pgsql/pg_array.h — PostgreSQL's binary formats for a batch's columns,
 * sent as they are stored (nothing to escape here, nor to parse or hex to
 * decode on the server's side):
 * - a column as a one-dimensional array without NULLs (array_recv's
 *   format), a binary parameter of a statement that unnests it:
 *   arr_int / arr_text / arr_bytes append an element (int8, text, bytea:
 *   one type a column), pg_run_columns sends the columns;
 * - a field of a row of COPY's binary format (wire_field, wire_int,
 *   wire_text), the same as an array's element.
 * A field is its length as a big-endian int32 and its bytes; int8 is 8
 * big-endian bytes, text and bytea their bytes. free(a.p) after. */
#ifndef PARAPET_PGSQL_PG_ARRAY_H
#define PARAPET_PGSQL_PG_ARRAY_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/telemetry.h"

/* Element types (pg_type's OIDs) and the array header's size. */
enum { PG_OID_BYTEA = 17, PG_OID_INT8 = 20, PG_OID_TEXT = 25, PG_ARRAY_HEAD = 20 };

struct pg_array {
    char *p;
    size_t len, cap;
    bool failed;
    int32_t n;     /* elements (an array) */
    uint32_t type; /* their type, set by the first */
};

static inline void arr_put(struct pg_array *a, const void *s, size_t n)
{
    if (a->failed)
        return;
    if (a->len + n > a->cap) {
        size_t cap = a->cap ? a->cap : 4096;
        while (a->len + n > cap)
            cap *= 2;
        char *grown = realloc(a->p, cap);
        if (!grown) {
            a->failed = true;
            return;
        }
        a->p = grown;
        a->cap = cap;
    }
    memcpy(a->p + a->len, s, n);
    a->len += n;
}

static inline void pg_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static inline void wire_field(struct pg_array *w, const void *v, size_t len)
{
    uint8_t word[4];
    pg_put_be32(word, (uint32_t)len);
    arr_put(w, word, 4);
    arr_put(w, v, len);
}

static inline void wire_int(struct pg_array *w, int64_t v)
{
    uint8_t be[8];
    pg_put_be32(be, (uint32_t)((uint64_t)v >> 32));
    pg_put_be32(be + 4, (uint32_t)v);
    wire_field(w, be, 8);
}

static inline void wire_text(struct pg_array *w, const char *v)
{
    wire_field(w, v, strlen(v));
}

/* The room of the header, at the first element. */
static inline void arr_element(struct pg_array *a, uint32_t type)
{
    if (!a->n++) {
        static const char head[PG_ARRAY_HEAD];
        a->type = type;
        arr_put(a, head, PG_ARRAY_HEAD);
    }
}

static inline void arr_int(struct pg_array *a, int64_t v)
{
    arr_element(a, PG_OID_INT8);
    wire_int(a, v);
}

static inline void arr_text(struct pg_array *a, const char *v)
{
    arr_element(a, PG_OID_TEXT);
    wire_text(a, v);
}

static inline void arr_bytes(struct pg_array *a, const uint8_t *v, size_t n)
{
    arr_element(a, PG_OID_BYTEA);
    wire_field(a, v, n);
}

/* A key (a site, a domain port) and a time, of a batch's rows. */
struct pg_key_time {
    int64_t key, t;
};

/* Sorts v[0..n) by key and time and appends its runs to run[0..3) as
 * (key, first time - pad, last time + pad): a run is a key's times each
 * less than gap after the one before. For reads of the stored rows near a
 * batch's, one index range a run. */
void pg_time_runs(struct pg_key_time *v, size_t n, int64_t gap, int64_t pad, struct pg_array run[3]);

struct store;
struct pg_params;
/* Runs sql with the n columns (each at least one element) as its binary
 * $1..$n, then frees and empties them: its result in *res when res is not
 * NULL (pg_query; NULL on failure), else only its outcome (pg_exec). STORE_OK, or the
 * failure's code (STORE_ERROR when memory ran out). */
int pg_run_columns(struct store *s, const char *sql, struct pg_array *col, int n, PGresult **res);
/* The array a as a binary parameter of p (its header filled in; a keeps
 * the bytes): false when memory ran out or a has no element. */
bool arr_param(struct pg_array *a, struct pg_params *p);

#endif
