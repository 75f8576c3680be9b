/* pgsql/tel_purge.c — telemetry retention on PostgreSQL, as
 * sqlite/tel_purge.c: rows older than the cut-off and rows of sites that no
 * longer exist go, a bounded number per call so that the caller can commit
 * between calls and never hold the writer for long. */
#include <stdlib.h>

#include "store/pgsql/db.h"

/* Each statement deletes at most $3 rows older than $1 (or of a deleted
 * site; $2 is unused but keeps the parameters alike). The rows are picked
 * by ctid; in the tables partitioned by month, tel_partitions_purge()
 * (pg/010) drops the months wholly before the cut-off and picks rows by
 * ctid within each remaining month. WAF event counts go before their events, both picked in weid
 * order so that the events removed are among those whose counts went. */
#define GONE(alias) " OR NOT EXISTS (SELECT 1 FROM resources r WHERE r.rid = " alias ".site_rid)"
#define PICK(table, cond)                                                                                    \
    "DELETE FROM " table " WHERE ctid = ANY(ARRAY(SELECT x.ctid FROM " table                                 \
    " x WHERE " cond GONE("x") " LIMIT $3))"
#define PART(table, col, cutoff)                                                                             \
    "SELECT tel_partitions_purge('" table "', '" col "', " cutoff ", $3) WHERE $2::bigint IS NOT NULL"
static const char *const purge_sql[] = {
    /* the tables partitioned by month (pg/010): whole months dropped */
    PART("tel_flows", "ts", "$1::bigint"),
    PART("tel_dst_minutes", "minute", "$1::bigint"),
    PART("tel_dst_hours", "hour", "$1::bigint - 3600"),
    PART("tel_dst_days", "day", "$1::bigint - 86400"),
    PART("tel_flow_hours", "hour", "$1::bigint - 3600"),
    PART("tel_site_hours", "hour", "$1::bigint - 3600"),
    PART("tel_flow_days", "day", "$1::bigint - 86400"),
    PICK("tel_ddos_events", "coalesce(x.end_time, $2::bigint) < $1"),
    PICK("tel_flow_downs", "coalesce(x.end_time, $2::bigint) < $1"),
    PICK("tel_waf_logs", "x.ts < $1") " AND $2::bigint IS NOT NULL",
    "DELETE FROM tel_waf_event_counts WHERE weid IN (SELECT x.weid FROM tel_waf_events x WHERE x.end_time < "
    "$1" GONE("x") " ORDER BY x.weid LIMIT $3) AND $2::bigint IS NOT NULL",
    "DELETE FROM tel_waf_events WHERE weid IN (SELECT x.weid FROM tel_waf_events x WHERE x.end_time < "
    "$1" GONE("x") " ORDER BY x.weid LIMIT $3) AND $2::bigint IS NOT NULL",
    PART("tel_bandwidth", "minute", "$1::bigint"),
};

int pg_tel_purge(struct store *s, int64_t before, long max_rows, long *removed)
{
    *removed = 0;
    for (size_t i = 0; i < sizeof purge_sql / sizeof *purge_sql && *removed < max_rows; i++) {
        struct pg_params p = {0};
        pp_int(&p, before);
        pp_int(&p, INT64_MAX); /* an ongoing event never ends before the cut-off */
        pp_int(&p, max_rows - *removed);
        int rc;
        PGresult *res = pg_query(s, purge_sql[i], &p, &rc);
        if (!res)
            return STORE_ERROR;
        /* DELETE: the rows it removed; tel_partitions_purge(): its answer */
        *removed += PQresultStatus(res) != PGRES_TUPLES_OK ? atol(PQcmdTuples(res))
                    : PQntuples(res) == 1                  ? pg_int(res, 0, 0)
                                                           : 0;
        PQclear(res);
    }
    return STORE_OK;
}
