/* pgsql/tel_waf.c — WAF log entries and their grouping into WAF events on
 * PostgreSQL, as sqlite/tel_waf.c does it: the entries of one domain port
 * belong to one event while they come less than TEL_WAF_GAP_S apart; a new
 * entry joins the event it is that close to, starts one when there is none,
 * and merges the events it bridges (entries may arrive out of order).
 * An entry costs two round trips (three when it starts an event). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "store/pgsql/db.h"

enum { MAX_MERGE = 64 };

/* Moves event `from` into `into`: its entries and counts, its span. */
static int merge_event(struct store *s, int64_t into, int64_t from)
{
    static const char logs[] = "UPDATE tel_waf_logs SET weid = $1 WHERE weid = $2";
    static const char counts[] =
        "INSERT INTO tel_waf_event_counts AS t (weid, dim, key, count) SELECT $1, dim, key, count "
        "FROM tel_waf_event_counts WHERE weid = $2 ON CONFLICT (weid, dim, key) DO UPDATE SET "
        "count = t.count + excluded.count";
    static const char span[] =
        "UPDATE tel_waf_events t SET start_time = least(t.start_time, f.start_time), "
        "end_time = greatest(t.end_time, f.end_time), attack_count = t.attack_count + f.attack_count, "
        "severity = greatest(t.severity, f.severity) FROM tel_waf_events f WHERE t.weid = $1 AND f.weid = $2";
    static const char drop_counts[] = "DELETE FROM tel_waf_event_counts WHERE weid = $2 AND $1::bigint IS NOT NULL";
    static const char drop_event[] = "DELETE FROM tel_waf_events WHERE weid = $2 AND $1::bigint IS NOT NULL";
    const char *steps[] = {logs, counts, span, drop_counts, drop_event};
    struct pg_params p = {0};
    pp_int(&p, into);
    pp_int(&p, from);
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (pg_exec(s, steps[i], &p, NULL) != STORE_OK)
            return STORE_ERROR;
    return STORE_OK;
}

/* Parses an int8[]'s text ({1,2,3}) into out[max]; how many. */
static size_t parse_ids(const char *text, int64_t *out, size_t max)
{
    size_t n = 0;
    const char *p = text + (*text == '{');
    while (*p && *p != '}' && n < max) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p)
            break;
        out[n++] = v;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* Whether the entry is known (by _id) and, when not, the events of its
 * port it is near, by end then weid (at most MAX_MERGE). */
static int lookup(struct store *s, const struct tel_waf_log *w, bool *known, int64_t *found, size_t *n)
{
    static const char sql[] =
        "SELECT EXISTS (SELECT 1 FROM tel_waf_logs WHERE log_id = $1), ARRAY(SELECT weid FROM tel_waf_events "
        "WHERE port_rid = $2 AND end_time > $3::bigint - $4::bigint AND start_time < $3::bigint + $4::bigint "
        "ORDER BY end_time, weid LIMIT 64)";
    struct pg_params p = {0};
    pp_text(&p, w->log_id);
    pp_int(&p, w->port_rid);
    pp_int(&p, w->timestamp);
    pp_int(&p, TEL_WAF_GAP_S);
    PGresult *res;
    int rc = pg_one(s, sql, &p, &res);
    if (rc != STORE_OK)
        return STORE_ERROR;
    *known = pg_int(res, 0, 0) != 0;
    *n = *known ? 0 : parse_ids(PQgetvalue(res, 0, 1), found, MAX_MERGE);
    PQclear(res);
    return STORE_OK;
}

/* A new event of the entry's port, empty until the entry is added. */
static int new_event(struct store *s, const struct tel_record *r, int64_t *weid)
{
    static const char sql[] =
        "INSERT INTO tel_waf_events (event_id, customer_id, site_rid, domain_rid, port_rid, domain_port_id, "
        "domain_name, start_time, end_time, attack_count, severity) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, 0, 0) RETURNING weid";
    const struct tel_waf_log *w = &r->u.waf;
    char event_id[ID_LEN + 1];
    random_hex(event_id, ID_LEN / 2);
    struct pg_params p = {0};
    pp_text(&p, event_id);
    pp_text(&p, r->place.customer_id);
    pp_int(&p, r->place.site_rid);
    pp_int(&p, w->domain_rid);
    pp_int(&p, w->port_rid);
    pp_text(&p, w->domain_port_id);
    pp_text(&p, w->domain_name);
    pp_int(&p, w->timestamp);
    PGresult *res;
    if (pg_one(s, sql, &p, &res) != STORE_OK)
        return STORE_ERROR;
    *weid = pg_int(res, 0, 0);
    PQclear(res);
    return STORE_OK;
}

/* The entry, its event's span, count and severity, and its event's counts
 * (attack type, country, URL path: three distinct keys) in one statement. */
static int add_entry(struct store *s, const struct tel_record *r, int64_t weid)
{
    static const char sql[] =
        "WITH entry AS (INSERT INTO tel_waf_logs (log_id, weid, site_rid, ts, severity, attack_type, country, "
        "path, entry) VALUES ($1, $2::bigint, $3, $4::bigint, $5::bigint, $6::text, $7::text, $8::text, $9)), "
        "event AS (UPDATE tel_waf_events SET start_time = least(start_time, $4), end_time = greatest(end_time, $4), "
        "attack_count = attack_count + 1, severity = greatest(severity, $5) WHERE weid = $2) "
        "INSERT INTO tel_waf_event_counts AS t (weid, dim, key, count) VALUES ($2, 1, $6, 1), ($2, 2, $7, 1), "
        "($2, 3, $8, 1) ON CONFLICT (weid, dim, key) DO UPDATE SET count = t.count + 1";
    const struct tel_waf_log *w = &r->u.waf;
    struct pg_params p = {0};
    pp_text(&p, w->log_id);
    pp_int(&p, weid);
    pp_int(&p, r->place.site_rid);
    pp_int(&p, w->timestamp);
    pp_int(&p, w->severity);
    pp_text(&p, w->attack_type);
    pp_text(&p, w->country);
    pp_text(&p, w->path ? w->path : "");
    pp_text(&p, w->entry);
    return pg_exec(s, sql, &p, NULL);
}

/* The usual entry in one statement: unknown, and near at most one event of
 * its port, which it joins, or none, when it starts one (inserted with the
 * entry already counted: the statement's UPDATE does not see rows it
 * inserted). Its counts are written when it was stored: *stored says. */
static int add_simple(struct store *s, const struct tel_record *r, bool *stored)
{
    static const char sql[] =
        "WITH near AS (SELECT ARRAY(SELECT weid FROM tel_waf_events WHERE port_rid = $9 "
        "AND end_time > $3::bigint - $10::bigint AND start_time < $3::bigint + $10::bigint "
        "ORDER BY end_time, weid LIMIT 2) AS ids WHERE NOT EXISTS (SELECT 1 FROM tel_waf_logs WHERE log_id = $1)), "
        "created AS (INSERT INTO tel_waf_events (event_id, customer_id, site_rid, domain_rid, port_rid, "
        "domain_port_id, domain_name, start_time, end_time, attack_count, severity) SELECT $11::text, $12::text, "
        "$2::bigint, $13::bigint, $9::bigint, $14::text, $15::text, $3, $3, 1, $4::bigint FROM near "
        "WHERE cardinality(ids) = 0 RETURNING weid), "
        "target AS (SELECT ids[1] AS weid, true AS joined FROM near WHERE cardinality(ids) = 1 "
        "UNION ALL SELECT weid, false FROM created), "
        "entry AS (INSERT INTO tel_waf_logs (log_id, weid, site_rid, ts, severity, attack_type, country, path, "
        "entry) SELECT $1, weid, $2, $3, $4, $5::text, $6::text, $7::text, $8::text FROM target), "
        "event AS (UPDATE tel_waf_events e SET start_time = least(e.start_time, $3), end_time = "
        "greatest(e.end_time, $3), attack_count = e.attack_count + 1, severity = greatest(e.severity, $4) "
        "FROM target WHERE target.joined AND e.weid = target.weid) "
        "INSERT INTO tel_waf_event_counts AS t (weid, dim, key, count) SELECT target.weid, d.dim, d.key, 1 "
        "FROM target, (VALUES (1, $5::text), (2, $6::text), (3, $7::text)) AS d(dim, key) "
        "ON CONFLICT (weid, dim, key) DO UPDATE SET count = t.count + 1";
    const struct tel_waf_log *w = &r->u.waf;
    char event_id[ID_LEN + 1];
    random_hex(event_id, ID_LEN / 2);
    struct pg_params p = {0};
    pp_text(&p, w->log_id);
    pp_int(&p, r->place.site_rid);
    pp_int(&p, w->timestamp);
    pp_int(&p, w->severity);
    pp_text(&p, w->attack_type);
    pp_text(&p, w->country);
    pp_text(&p, w->path ? w->path : "");
    pp_text(&p, w->entry);
    pp_int(&p, w->port_rid);
    pp_int(&p, TEL_WAF_GAP_S);
    pp_text(&p, event_id);
    pp_text(&p, r->place.customer_id);
    pp_int(&p, w->domain_rid);
    pp_text(&p, w->domain_port_id);
    pp_text(&p, w->domain_name);
    long counted;
    int rc = pg_exec(s, sql, &p, &counted);
    *stored = counted > 0;
    return rc;
}

/* 1 stored, 0 a duplicate (by _id), -1 failure. Entries that are known or
 * bridge events take the long way. */
int pg_tel_waf_add(struct store *s, const struct tel_record *r)
{
    bool known, stored;
    int64_t found[MAX_MERGE], weid;
    size_t n;
    if (add_simple(s, r, &stored) != STORE_OK)
        return -1;
    if (stored)
        return 1;
    if (lookup(s, &r->u.waf, &known, found, &n) != STORE_OK)
        return -1;
    if (known)
        return 0;
    if (n > 0) {
        weid = found[0];
        for (size_t i = 1; i < n; i++)
            if (merge_event(s, found[0], found[i]) != STORE_OK)
                return -1;
    } else if (new_event(s, r, &weid) != STORE_OK) {
        return -1;
    }
    return add_entry(s, r, weid) == STORE_OK ? 1 : -1;
}
