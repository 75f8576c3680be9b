/* pgsql/tel_ap.c — the reads of the Application Protection dashboards on
 * PostgreSQL, as sqlite/tel_ap.c: WAF events of a site, one event's counts
 * and log entries, and a site's bandwidth per minute. Rows of deleted sites
 * are never reached: an event is found only with its site (resources). */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "store/pgsql/db.h"

/* $1 customer, $2 site rid, $3 from, $4 to: the events overlapping [from, to]. */
#define WAF_EVENTS_WHERE                                                                                     \
    " FROM tel_waf_events WHERE site_rid = $2 AND customer_id = $1 AND start_time <= $4 AND end_time >= $3"

int pg_tel_waf_events_list(struct store *s, const struct tel_waf_event_query *q, json_t **rows, long *total)
{
    static const char count_sql[] = "SELECT count(*)" WAF_EVENTS_WHERE;
    static const char list_sql[] =
        "SELECT weid, event_id, site_rid, domain_name, domain_port_id, start_time, end_time, attack_count, "
        "severity" WAF_EVENTS_WHERE " ORDER BY start_time DESC, event_id LIMIT $5 OFFSET $6";
    *rows = NULL;
    struct pg_params p = {0};
    pp_text(&p, q->customer_id);
    pp_int(&p, q->site_rid);
    pp_int(&p, q->from);
    pp_int(&p, q->to);
    PGresult *res;
    int rc = pg_one(s, count_sql, &p, &res);
    if (rc != STORE_OK)
        return STORE_ERROR;
    *total = (long)pg_int(res, 0, 0);
    PQclear(res);
    pp_limit(&p, q->limit);
    pp_offset(&p, q->offset);
    return pg_rows_json(s, list_sql, &p, rows);
}

int pg_tel_waf_event_get(struct store *s, const char *event_id, struct tel_waf_event_ref *out)
{
    static const char sql[] =
        "SELECT e.weid, e.site_rid, e.event_id, e.customer_id, e.start_time, e.end_time FROM tel_waf_events e "
        "JOIN resources r ON r.rid = e.site_rid WHERE e.event_id = $1";
    memset(out, 0, sizeof *out);
    struct pg_params p = {0};
    pp_text(&p, event_id);
    PGresult *res;
    int rc = pg_one(s, sql, &p, &res);
    if (rc != STORE_OK)
        return rc;
    out->weid = pg_int(res, 0, 0);
    out->site_rid = pg_int(res, 0, 1);
    pg_text(res, 0, 2, out->event_id, sizeof out->event_id);
    pg_text(res, 0, 3, out->customer_id, sizeof out->customer_id);
    out->start_time = pg_int(res, 0, 4);
    out->end_time = pg_int(res, 0, 5);
    PQclear(res);
    return STORE_OK;
}

int pg_tel_waf_event_counts(struct store *s, int64_t weid, int dim, long limit, json_t **rows, int64_t *all)
{
    static const char sum_sql[] =
        "SELECT coalesce(sum(count), 0)::bigint FROM tel_waf_event_counts WHERE weid = $1 AND dim = $2";
    static const char top_sql[] = "SELECT key, count FROM tel_waf_event_counts WHERE weid = $1 AND dim = $2 "
                                  "ORDER BY count DESC, key LIMIT $3";
    *rows = NULL;
    struct pg_params p = {0};
    pp_int(&p, weid);
    pp_int(&p, dim);
    PGresult *res;
    if (pg_one(s, sum_sql, &p, &res) != STORE_OK)
        return STORE_ERROR;
    *all = pg_int(res, 0, 0);
    PQclear(res);
    pp_limit(&p, limit);
    return pg_rows_json(s, top_sql, &p, rows);
}

/* Ties go to the smaller key byte by byte, as on SQLite, whatever the
 * database's collation. */
int pg_tel_waf_top_source(struct store *s, int64_t weid, const char *country, char ip[64])
{
    static const char sql[] = "SELECT substr(key, 3) FROM tel_waf_event_counts WHERE weid = $1 AND dim = $3 "
                              "AND left(key, 2) = $2 ORDER BY count DESC, key COLLATE \"C\" LIMIT 1";
    ip[0] = '\0';
    struct pg_params p = {0};
    pp_int(&p, weid);
    pp_text(&p, country);
    pp_int(&p, TEL_WAF_COUNTRY_SOURCE);
    PGresult *res;
    int rc = pg_one(s, sql, &p, &res);
    if (rc == STORE_OK) {
        pg_text(res, 0, 0, ip, 64);
        PQclear(res);
    }
    return rc == STORE_NOT_FOUND ? STORE_OK : rc;
}

/* The entry texts of a result's first column as an array of objects. */
static json_t *entries_json(const PGresult *res)
{
    json_t *out = json_array();
    for (int i = 0; out && i < PQntuples(res); i++) {
        json_t *entry = json_loadb(PQgetvalue(res, i, 0), (size_t)PQgetlength(res, i, 0), 0, NULL);
        if (entry)
            json_array_append_new(out, entry);
    }
    return out;
}

int pg_tel_waf_logs_list(struct store *s, int64_t weid, int64_t from, int64_t to, long offset, long limit,
                         json_t **entries, long *total)
{
    static const char count_sql[] = "SELECT count(*) FROM tel_waf_logs WHERE weid = $1 AND ts BETWEEN $2 AND $3";
    static const char list_sql[] = "SELECT entry FROM tel_waf_logs WHERE weid = $1 AND ts BETWEEN $2 AND $3 "
                                   "ORDER BY ts, lid LIMIT $4 OFFSET $5";
    *entries = NULL;
    struct pg_params p = {0};
    pp_int(&p, weid);
    pp_int(&p, from);
    pp_int(&p, to);
    PGresult *res;
    if (pg_one(s, count_sql, &p, &res) != STORE_OK)
        return STORE_ERROR;
    *total = (long)pg_int(res, 0, 0);
    PQclear(res);
    pp_limit(&p, limit);
    pp_offset(&p, offset);
    int rc;
    if (!(res = pg_query(s, list_sql, &p, &rc)))
        return rc;
    *entries = entries_json(res);
    PQclear(res);
    return *entries ? STORE_OK : STORE_ERROR;
}

int pg_tel_waf_logs_each(struct store *s, int64_t weid, long limit, tel_waf_entry_fn fn, void *arg)
{
    static const char sql[] = "SELECT entry FROM tel_waf_logs WHERE weid = $1 ORDER BY ts, lid LIMIT $2";
    struct pg_params p = {0};
    pp_int(&p, weid);
    pp_limit(&p, limit);
    int rc;
    PGresult *res = pg_query(s, sql, &p, &rc);
    if (!res)
        return rc;
    for (int i = 0; i < PQntuples(res); i++)
        if (fn(arg, PQgetvalue(res, i, 0)) != 0)
            break;
    PQclear(res);
    return STORE_OK;
}

struct bw_read {
    struct tel_bw_minute *v;
    size_t n, cap;
    bool overflow;
};

/* Adds a sample (a row) to its minute: the last one, or a new one. */
static int read_sample(void *arg, const PGresult *res, int row)
{
    struct bw_read *b = arg;
    int64_t minute = pg_int(res, row, 0);
    if (!b->n || b->v[b->n - 1].minute != minute) {
        if (GROW_FOR(b->v, b->cap, b->n, 1024) != 0)
            return -1;
        b->v[b->n++] = (struct tel_bw_minute){.minute = minute};
    }
    struct tel_bw_minute *m = &b->v[b->n - 1];
    b->overflow |= __builtin_add_overflow(m->raw_in, pg_int(res, row, 1), &m->raw_in);
    b->overflow |= __builtin_add_overflow(m->raw_out, pg_int(res, row, 2), &m->raw_out);
    b->overflow |= __builtin_add_overflow(m->clean_in, pg_int(res, row, 3), &m->clean_in);
    b->overflow |= __builtin_add_overflow(m->clean_out, pg_int(res, row, 4), &m->clean_out);
    return 0;
}

/* A site's bandwidth a minute, its nodes' samples summed here as they come
 * (pg_each_row): summed by PostgreSQL they would go through numeric (the
 * sum of bigint), and a month's 43,200 minutes cost more than the rows'
 * reading. */
int pg_tel_bandwidth_minutes(struct store *s, int64_t site_rid, int64_t from, int64_t to, struct tel_bw_minute **out,
                             size_t *n)
{
    static const char sql[] = "SELECT minute, raw_in, raw_out, clean_in, clean_out FROM tel_bandwidth WHERE "
                              "site_rid = $1 AND minute >= $2 AND minute < $3 ORDER BY minute";
    struct pg_params p = {.binary_results = true};
    pp_int(&p, site_rid);
    pp_int(&p, from);
    pp_int(&p, to);
    struct bw_read b = {0};
    int rc = pg_each_row(s, sql, &p, read_sample, &b);
    if (rc == STORE_OK && b.overflow) /* as SQLite's sum() refuses it */
        rc = STORE_ERROR;
    if (rc != STORE_OK) {
        free(b.v);
        b.v = NULL;
        b.n = 0;
    }
    *out = b.v;
    *n = b.n;
    return rc;
}
