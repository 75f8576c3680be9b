/* pgsql/pg_array.c — see pgsql/pg_array.h. */
#include "store/pgsql/pg_array.h"

#include "store/pgsql/db.h"

int pg_run_columns(struct store *s, const char *sql, struct pg_array *col, int n, PGresult **res)
{
    struct pg_params p = {0};
    int rc = STORE_OK;
    for (int c = 0; c < n; c++) {
        const char *text = arr_end(&col[c]);
        if (!text)
            rc = STORE_ERROR;
        pp_text(&p, text);
    }
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
