/* pgsql/pg_array.h — array parameters in PostgreSQL's array text
 * ({1,2,"b",...}) for statements that take a batch's columns as arrays
 * (unnest): arr_int / arr_text / arr_key / arr_bytes append an element,
 * arr_end closes the text (NULL when memory ran out); free(a.p) after. */
#ifndef PARAPET_PGSQL_PG_ARRAY_H
#define PARAPET_PGSQL_PG_ARRAY_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/telemetry.h"

struct pg_array {
    char *p;
    size_t len, cap;
    bool failed;
};

static inline void arr_put(struct pg_array *a, const char *s, size_t n)
{
    if (a->failed)
        return;
    if (a->len + n + 2 > a->cap) {
        size_t cap = a->cap ? a->cap : 4096;
        while (a->len + n + 2 > cap)
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
    a->p[a->len] = '\0';
}

static inline void arr_sep(struct pg_array *a)
{
    arr_put(a, a->len ? "," : "{", 1);
}

static inline void arr_int(struct pg_array *a, int64_t v)
{
    char num[24];
    arr_sep(a);
    arr_put(a, num, (size_t)snprintf(num, sizeof num, "%lld", (long long)v));
}

/* A quoted element: backslash and double quote escaped. */
static inline void arr_text(struct pg_array *a, const char *v)
{
    arr_sep(a);
    arr_put(a, "\"", 1);
    for (const char *run = v; *run;) {
        size_t n = strcspn(run, "\"\\");
        arr_put(a, run, n);
        run += n;
        if (*run) {
            char esc[2] = {'\\', *run++};
            arr_put(a, esc, 2);
        }
    }
    arr_put(a, "\"", 1);
}

/* An address key as bytea's hex input (\x...), its backslash escaped. */
static inline void arr_key(struct pg_array *a, const uint8_t key[TEL_ADDR_KEY])
{
    static const char hex[] = "0123456789abcdef";
    char text[4 + 2 * TEL_ADDR_KEY + 1] = "\"\\\\x";
    for (int i = 0; i < TEL_ADDR_KEY; i++) {
        text[4 + 2 * i] = hex[key[i] >> 4];
        text[5 + 2 * i] = hex[key[i] & 15];
    }
    text[4 + 2 * TEL_ADDR_KEY] = '"';
    arr_sep(a);
    arr_put(a, text, sizeof text);
}

static inline const char *arr_end(struct pg_array *a)
{
    arr_put(a, a->len ? "}" : "{}", a->len ? 1 : 2);
    return a->failed ? NULL : a->p;
}

/* A bytea element of an array parameter (\x..., its backslash escaped). */
static inline void arr_bytes(struct pg_array *a, const uint8_t *v, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    arr_sep(a);
    arr_put(a, "\"\\\\x", 4);
    char pair[2];
    for (size_t i = 0; i < n; i++) {
        pair[0] = hex[v[i] >> 4];
        pair[1] = hex[v[i] & 15];
        arr_put(a, pair, 2);
    }
    arr_put(a, "\"", 1);
}

struct store;
/* Runs sql with the n columns closed (arr_end) as its $1..$n, then frees
 * and empties them: its result in *res when res is not NULL (pg_query),
 * else only its outcome (pg_exec). STORE_OK, or the failure's code. */
int pg_run_columns(struct store *s, const char *sql, struct pg_array *col, int n, PGresult **res);

#endif
