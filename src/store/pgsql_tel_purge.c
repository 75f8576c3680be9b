/* pgsql_tel_purge.c — telemetry retention on PostgreSQL, as
 * sqlite_tel_purge.c: rows older than the cut-off and rows of sites that no
 * longer exist go, a bounded number per call so that the caller can commit
 * between calls and never hold the writer for long. */
#include "store/pgsql_db.h"

/* Each statement deletes at most $3 rows older than $1 (or of a deleted
 * site; $2 is unused but keeps the parameters alike). The rows are picked
 * by ctid. WAF event counts go before their events, both picked in weid
 * order so that the events removed are among those whose counts went. */
#define GONE(alias) " OR NOT EXISTS (SELECT 1 FROM resources r WHERE r.rid = " alias ".site_rid)"
#define PICK(table, cond) \
    "DELETE FROM " table " WHERE ctid = ANY(ARRAY(SELECT x.ctid FROM " table " x WHERE " cond GONE("x") " LIMIT $3))"
static const char *const purge_sql[] = {
    PICK("tel_flows", "x.ts < $1") " AND $2::bigint IS NOT NULL",
    PICK("tel_flow_minutes", "x.minute < $1") " AND $2::bigint IS NOT NULL",
    PICK("tel_flow_hours", "x.hour < $1::bigint - 3600") " AND $2::bigint IS NOT NULL",
    PICK("tel_site_minutes", "x.minute < $1") " AND $2::bigint IS NOT NULL",
    PICK("tel_flow_days", "x.day < $1::bigint - 86400") " AND $2::bigint IS NOT NULL",
    PICK("tel_ddos_events", "coalesce(x.end_time, $2::bigint) < $1"),
    PICK("tel_flow_downs", "coalesce(x.end_time, $2::bigint) < $1"),
    PICK("tel_waf_logs", "x.ts < $1") " AND $2::bigint IS NOT NULL",
    "DELETE FROM tel_waf_event_counts WHERE weid IN (SELECT x.weid FROM tel_waf_events x WHERE x.end_time < $1" GONE(
        "x") " ORDER BY x.weid LIMIT $3) AND $2::bigint IS NOT NULL",
    "DELETE FROM tel_waf_events WHERE weid IN (SELECT x.weid FROM tel_waf_events x WHERE x.end_time < $1" GONE(
        "x") " ORDER BY x.weid LIMIT $3) AND $2::bigint IS NOT NULL",
    PICK("tel_bandwidth", "x.minute < $1") " AND $2::bigint IS NOT NULL",
};

int pg_tel_purge(struct store *s, int64_t before, long max_rows, long *removed)
{
    *removed = 0;
    for (size_t i = 0; i < sizeof purge_sql / sizeof *purge_sql && *removed < max_rows; i++) {
        struct pg_params p = {0};
        pp_int(&p, before);
        pp_int(&p, INT64_MAX); /* an ongoing event never ends before the cut-off */
        pp_int(&p, max_rows - *removed);
        long n;
        if (pg_exec(s, purge_sql[i], &p, &n) != STORE_OK)
            return STORE_ERROR;
        *removed += n;
    }
    return STORE_OK;
}
