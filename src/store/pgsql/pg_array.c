/* pgsql/pg_array.c — see pgsql/pg_array.h. */
#include "store/pgsql/pg_array.h"

#include <limits.h>

#include "store/pgsql/db.h"

static int cmp_key_time(const void *pa, const void *pb)
{
    const struct pg_key_time *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->t > b->t) - (a->t < b->t);
}

void pg_time_runs(struct pg_key_time *v, size_t n, int64_t gap, int64_t pad, struct pg_array run[3])
{
    qsort(v, n, sizeof *v, cmp_key_time);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && v[j].key == v[i].key && v[j].t - v[j - 1].t < gap)
            j++;
        arr_int(&run[0], v[i].key);
        arr_int(&run[1], v[i].t - pad);
        arr_int(&run[2], v[j - 1].t + pad);
        i = j;
    }
}

bool arr_param(struct pg_array *a, struct pg_params *p)
{
    if (a->failed || !a->n || a->len > INT_MAX)
        return false;
    uint8_t *h = (uint8_t *)a->p;
    pg_put_be32(h, 1);      /* dimensions */
    pg_put_be32(h + 4, 0);  /* no NULLs */
    pg_put_be32(h + 8, a->type);
    pg_put_be32(h + 12, (uint32_t)a->n);
    pg_put_be32(h + 16, 1); /* lower bound */
    pp_bytes(p, a->p, (int)a->len);
    return true;
}

int pg_run_columns(struct store *s, const char *sql, struct pg_array *col, int n, PGresult **res)
{
    struct pg_params p = {0};
    int rc = STORE_OK;
    if (res)
        *res = NULL;
    for (int c = 0; c < n; c++)
        if (!arr_param(&col[c], &p))
            rc = STORE_ERROR;
    if (rc == STORE_OK && res)
        *res = pg_query(s, sql, &p, &rc);
    else if (rc == STORE_OK)
        rc = pg_exec(s, sql, &p, NULL);
    for (int c = 0; c < n; c++) {
        free(col[c].p);
        col[c] = (struct pg_array){0};
    }
    return rc;
}
