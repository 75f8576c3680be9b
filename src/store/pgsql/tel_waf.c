/* pgsql/tel_waf.c — WAF log entries and their grouping into WAF events on
 * PostgreSQL, as sqlite/tel_waf.c does it: the entries of one domain port
 * belong to one event while they come less than TEL_WAF_GAP_S apart; a new
 * entry joins the event it is that close to, starts one when there is none,
 * and merges the events it bridges (entries may arrive out of order).
 *
 * The entries of an ingest call go in slices of up to WAF_SLICE, in a few
 * statements a slice whatever its size:
 * 1. which of their _ids are stored already (duplicates, as is an _id's
 *    second entry within the slice);
 * 2. the stored events of their ports near them (a superset of those the
 *    entries can reach);
 * 3. in C, the entries one by one in their order, exactly as when each was
 *    stored on its own (place): the event each joins, the events they start
 *    and the events they merge into the one that ends first;
 * 4. the writes: the new events (each as it was inserted when it started,
 *    at its first entry's time: the webhook trigger reads that row; in the
 *    order they started, so their weids too), the entries and their counts
 *    summed per event and key, the merged events' entries and counts moved
 *    and their rows deleted, and the events' spans, counts and severities.
 * A slice of one entry tries the one statement of before first (add_alone).
 * Write transactions run one at a time (pgsql/db.h), so what 1 and 2 read
 * stays true until the slice is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "store/pgsql/db.h"
#include "store/pgsql/pg_array.h"

enum { WAF_SLICE = 8192 };
enum { DUPLICATE = -1, UNPLACED = -2 }; /* what an entry's event is before place() */

/* An event a slice reads (stored before) or starts. */
struct waf_event {
    int64_t weid, port_rid, start, end, count, severity;
    const struct tel_record *first; /* the entry that started it; NULL: stored before */
    char event_id[ID_LEN + 1];
    long into;    /* the event it was merged into (an index), or -1 */
    bool changed; /* its row is to be written */
};

struct waf_slice {
    const struct tel_record *entry[WAF_SLICE]; /* in their order */
    long event[WAF_SLICE];                     /* each entry's event (an index), or DUPLICATE */
    size_t n;
    struct waf_event *ev; /* the stored ones first, by port and start, then the new ones */
    size_t n_ev;
    size_t *live; /* the events not merged, by port and start */
    size_t n_live;
};

/* ---- 1: duplicates ---- */

struct id_pos {
    const char *id;
    size_t k;
};

static int cmp_id_pos(const void *pa, const void *pb)
{
    const struct id_pos *a = pa, *b = pb;
    int c = strcmp(a->id, b->id);
    return c ? c : (a->k > b->k) - (a->k < b->k);
}

static int cmp_str(const void *pa, const void *pb)
{
    return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Marks the entries whose _id is stored, or taken by an earlier entry of
 * the slice, as DUPLICATE, the others UNPLACED; how many are new. */
static int mark_duplicates(struct store *s, struct waf_slice *sl, size_t *n_new)
{
    static const char sql[] = "SELECT log_id FROM tel_waf_logs WHERE log_id = ANY($1::text[])";
    struct pg_array ids = {0};
    for (size_t k = 0; k < sl->n; k++)
        arr_text(&ids, sl->entry[k]->u.waf.log_id);
    PGresult *res;
    if (pg_run_columns(s, sql, &ids, 1, &res) != STORE_OK)
        return STORE_ERROR;
    size_t n_known = (size_t)PQntuples(res);
    const char **known = malloc((n_known + 1) * sizeof *known);
    struct id_pos *order = malloc(sl->n * sizeof *order);
    int rc = known && order ? STORE_OK : STORE_ERROR;
    for (size_t i = 0; rc == STORE_OK && i < n_known; i++)
        known[i] = PQgetvalue(res, (int)i, 0);
    for (size_t k = 0; rc == STORE_OK && k < sl->n; k++)
        order[k] = (struct id_pos){sl->entry[k]->u.waf.log_id, k};
    *n_new = 0;
    if (rc == STORE_OK) {
        qsort(known, n_known, sizeof *known, cmp_str);
        qsort(order, sl->n, sizeof *order, cmp_id_pos);
        for (size_t i = 0; i < sl->n; i++) {
            bool again = i > 0 && strcmp(order[i].id, order[i - 1].id) == 0;
            bool dup = again || bsearch(&order[i].id, known, n_known, sizeof *known, cmp_str);
            sl->event[order[i].k] = dup ? DUPLICATE : UNPLACED;
            *n_new += !dup;
        }
    }
    free(order);
    free(known);
    PQclear(res);
    return rc;
}

/* ---- 2: the stored events near the entries ---- */

/* Reads the stored events near the slice's new entries: per port, the
 * entries' times in runs less than the gap apart, and the events near a
 * run (all those near one of its entries, and maybe a few more: place()
 * looks at them one by one). Into sl->ev, by port and start. The LATERAL
 * subquery with OFFSET 0 is not pulled up into a join: each run is an
 * index scan (tel_waf_events_by_port), where a semi-join would read the
 * whole table once it has many rows. */
static int load_near(struct store *s, struct waf_slice *sl)
{
    static const char sql[] =
        "SELECT DISTINCT e.weid, e.port_rid, e.start_time, e.end_time, e.attack_count, e.severity "
        "FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS r(port_rid, lo, hi) CROSS JOIN LATERAL "
        "(SELECT * FROM tel_waf_events WHERE port_rid = r.port_rid AND end_time > r.lo AND start_time < r.hi "
        "OFFSET 0) AS e ORDER BY e.port_rid, e.start_time";
    struct pg_key_time *pt = malloc(sl->n * sizeof *pt);
    if (!pt)
        return STORE_ERROR;
    size_t n = 0;
    for (size_t k = 0; k < sl->n; k++)
        if (sl->event[k] == UNPLACED)
            pt[n++] = (struct pg_key_time){sl->entry[k]->u.waf.port_rid, sl->entry[k]->u.waf.timestamp};
    struct pg_array col[3] = {0};
    pg_time_runs(pt, n, TEL_WAF_GAP_S, TEL_WAF_GAP_S, col);
    free(pt);
    PGresult *res;
    if (pg_run_columns(s, sql, col, 3, &res) != STORE_OK)
        return STORE_ERROR;
    size_t rows = (size_t)PQntuples(res), cap = rows + sl->n; /* an entry starts one event at most */
    sl->ev = malloc(cap * sizeof *sl->ev);
    sl->live = malloc(cap * sizeof *sl->live);
    if (!sl->ev || !sl->live) {
        PQclear(res);
        return STORE_ERROR;
    }
    for (size_t i = 0; i < rows; i++) {
        sl->live[i] = i;
        sl->ev[i] = (struct waf_event){.weid = pg_int(res, (int)i, 0),
                                       .port_rid = pg_int(res, (int)i, 1),
                                       .start = pg_int(res, (int)i, 2),
                                       .end = pg_int(res, (int)i, 3),
                                       .count = pg_int(res, (int)i, 4),
                                       .severity = pg_int(res, (int)i, 5),
                                       .into = -1};
    }
    PQclear(res);
    sl->n_ev = sl->n_live = rows;
    return STORE_OK;
}

/* ---- 3: the grouping, in C ---- */

/* The first live position at or after (port_rid, start). */
static size_t live_bound(const struct waf_slice *sl, int64_t port_rid, int64_t start)
{
    size_t lo = 0, hi = sl->n_live;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const struct waf_event *e = &sl->ev[sl->live[mid]];
        if (e->port_rid < port_rid || (e->port_rid == port_rid && e->start < start))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The live events of the port near t: positions [*lo, *hi). A port's
 * events never overlap (an entry that bridges two merges them), so by
 * start they are by end too, and those near t are the last ones starting
 * before t + gap that end after t - gap. */
static void near_events(const struct waf_slice *sl, int64_t port_rid, int64_t t, size_t *lo, size_t *hi)
{
    *hi = *lo = live_bound(sl, port_rid, t + TEL_WAF_GAP_S);
    while (*lo > 0 && sl->ev[sl->live[*lo - 1]].port_rid == port_rid &&
           sl->ev[sl->live[*lo - 1]].end > t - TEL_WAF_GAP_S)
        (*lo)--;
}

/* A new event at live position pos, started by entry k. */
static size_t start_event(struct waf_slice *sl, size_t k, size_t pos)
{
    const struct tel_waf_log *w = &sl->entry[k]->u.waf;
    size_t i = sl->n_ev++;
    sl->ev[i] = (struct waf_event){.port_rid = w->port_rid, .start = w->timestamp, .end = w->timestamp,
                                   .first = sl->entry[k], .into = -1};
    random_hex(sl->ev[i].event_id, ID_LEN / 2);
    memmove(&sl->live[pos + 1], &sl->live[pos], (sl->n_live - pos) * sizeof *sl->live);
    sl->live[pos] = i;
    sl->n_live++;
    return i;
}

static void add_span(struct waf_event *e, int64_t start, int64_t end, int64_t count, int64_t severity)
{
    e->start = start < e->start ? start : e->start;
    e->end = end > e->end ? end : e->end;
    e->count += count;
    e->severity = severity > e->severity ? severity : e->severity;
    e->changed = true;
}

/* Whether event a's weid is below b's: the stored ones' are below the new
 * ones', drawn in the order they started. */
static bool weid_below(const struct waf_slice *sl, size_t a, size_t b)
{
    const struct waf_event *x = &sl->ev[a], *y = &sl->ev[b];
    if (!x->first != !y->first)
        return !x->first;
    return x->first ? a < b : x->weid < y->weid;
}

/* Merges the live events at [lo, hi) into the one that ends first (by
 * weid on a tie, as ORDER BY end_time, weid did), which takes position lo
 * (its start is now the group's). */
static size_t merge_events(struct waf_slice *sl, size_t lo, size_t hi)
{
    size_t into = sl->live[lo];
    for (size_t p = lo + 1; p < hi; p++) {
        size_t i = sl->live[p];
        const struct waf_event *e = &sl->ev[i], *first = &sl->ev[into];
        if (e->end < first->end || (e->end == first->end && weid_below(sl, i, into)))
            into = i;
    }
    for (size_t p = lo; p < hi; p++) {
        struct waf_event *from = &sl->ev[sl->live[p]];
        if (sl->live[p] == into)
            continue;
        add_span(&sl->ev[into], from->start, from->end, from->count, from->severity);
        from->into = (long)into;
    }
    sl->live[lo] = into;
    memmove(&sl->live[lo + 1], &sl->live[hi], (sl->n_live - hi) * sizeof *sl->live);
    sl->n_live -= hi - lo - 1;
    return into;
}

/* Entry k joins the event it is near, merging those it bridges, or starts one. */
static void place(struct waf_slice *sl, size_t k)
{
    const struct tel_waf_log *w = &sl->entry[k]->u.waf;
    size_t lo, hi;
    near_events(sl, w->port_rid, w->timestamp, &lo, &hi);
    size_t i = lo == hi ? start_event(sl, k, lo) : merge_events(sl, lo, hi);
    add_span(&sl->ev[i], w->timestamp, w->timestamp, 1, w->severity);
    sl->event[k] = (long)i;
}

static void plan(struct waf_slice *sl)
{
    for (size_t k = 0; k < sl->n; k++)
        if (sl->event[k] == UNPLACED)
            place(sl, k);
}

/* The event that event i ends in (itself when not merged). */
static const struct waf_event *final_event(const struct waf_slice *sl, long i)
{
    while (sl->ev[i].into >= 0)
        i = sl->ev[i].into;
    return &sl->ev[i];
}

/* ---- 4: the writes ---- */

static int cmp_id(const void *pa, const void *pb)
{
    return strcmp(((const struct id_pos *)pa)->id, ((const struct id_pos *)pb)->id);
}

/* The events the slice started, also those merged since, as each was
 * inserted when it started: in that order, so that their weids are drawn
 * in it, as before. Their weids, found by event_id. */
static int insert_events(struct store *s, struct waf_slice *sl)
{
    static const char sql[] =
        "INSERT INTO tel_waf_events (event_id, customer_id, site_rid, domain_rid, port_rid, domain_port_id, "
        "domain_name, start_time, end_time, attack_count, severity) SELECT event_id, customer_id, site_rid, "
        "domain_rid, port_rid, domain_port_id, domain_name, ts, ts, 0, 0 FROM unnest($1::text[], $2::text[], "
        "$3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::bigint[]) WITH ORDINALITY "
        "AS u(event_id, customer_id, site_rid, domain_rid, port_rid, domain_port_id, domain_name, ts, ord) "
        "ORDER BY ord RETURNING event_id, weid";
    struct pg_array col[8] = {0};
    struct id_pos *made = malloc((sl->n_ev + 1) * sizeof *made);
    if (!made)
        return STORE_ERROR;
    size_t n_new = 0;
    for (size_t i = 0; i < sl->n_ev; i++) {
        const struct waf_event *e = &sl->ev[i];
        if (!e->first)
            continue;
        const struct tel_waf_log *w = &e->first->u.waf;
        made[n_new++] = (struct id_pos){e->event_id, i};
        arr_text(&col[0], e->event_id);
        arr_text(&col[1], e->first->place.customer_id);
        arr_int(&col[2], e->first->place.site_rid);
        arr_int(&col[3], w->domain_rid);
        arr_int(&col[4], w->port_rid);
        arr_text(&col[5], w->domain_port_id);
        arr_text(&col[6], w->domain_name);
        arr_int(&col[7], w->timestamp);
    }
    PGresult *res = NULL;
    int rc = n_new ? pg_run_columns(s, sql, col, 8, &res) : STORE_OK;
    if (rc == STORE_OK && n_new) {
        qsort(made, n_new, sizeof *made, cmp_id);
        if ((size_t)PQntuples(res) != n_new)
            rc = STORE_ERROR;
        for (int r = 0; rc == STORE_OK && r < PQntuples(res); r++) {
            struct id_pos key = {PQgetvalue(res, r, 0), 0};
            const struct id_pos *hit = bsearch(&key, made, n_new, sizeof *made, cmp_id);
            if (hit)
                sl->ev[hit->k].weid = pg_int(res, r, 1);
            else
                rc = STORE_ERROR;
        }
    }
    PQclear(res);
    free(made);
    return rc;
}

/* The new entries (some) in their order, and their counts (attack type,
 * country, URL path, source: telemetry_ap.h) summed per event and key. */
static int insert_entries(struct store *s, const struct waf_slice *sl)
{
    static const char sql[] =
        "WITH u AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], "
        "$5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) WITH ORDINALITY "
        "AS u(log_id, weid, site_rid, ts, severity, attack_type, country, path, entry, src_ip, ord)), "
        "logs AS (INSERT INTO tel_waf_logs (log_id, weid, site_rid, ts, severity, attack_type, country, path, entry) "
        "SELECT log_id, weid, site_rid, ts, severity, attack_type, country, path, entry FROM u ORDER BY ord) "
        "INSERT INTO tel_waf_event_counts AS t (weid, dim, key, count) SELECT u.weid, d.dim, d.key, count(*) FROM u "
        "CROSS JOIN LATERAL (VALUES (1, u.attack_type), (2, u.country), (3, u.path), "
        "(4, nullif(u.country, '') || u.src_ip)) AS d(dim, key) WHERE d.key IS NOT NULL "
        "GROUP BY 1, 2, 3 ON CONFLICT (weid, dim, key) DO UPDATE SET count = t.count + excluded.count";
    struct pg_array col[10] = {0};
    for (size_t k = 0; k < sl->n; k++) {
        if (sl->event[k] == DUPLICATE)
            continue;
        const struct tel_record *r = sl->entry[k];
        const struct tel_waf_log *w = &r->u.waf;
        arr_text(&col[0], w->log_id);
        arr_int(&col[1], final_event(sl, sl->event[k])->weid);
        arr_int(&col[2], r->place.site_rid);
        arr_int(&col[3], w->timestamp);
        arr_int(&col[4], w->severity);
        arr_text(&col[5], w->attack_type);
        arr_text(&col[6], w->country);
        arr_text(&col[7], w->path ? w->path : "");
        arr_text(&col[8], w->entry);
        arr_text(&col[9], w->src_ip);
    }
    return pg_run_columns(s, sql, col, 10, NULL);
}

/* The merged events: their entries and counts go to the event they ended
 * in, their rows go. */
static int move_merged(struct store *s, const struct waf_slice *sl)
{
    static const char sql[] =
        "WITH m AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS m(from_weid, into_weid)), "
        "logs AS (UPDATE tel_waf_logs l SET weid = m.into_weid FROM m WHERE l.weid = m.from_weid), "
        "events AS (DELETE FROM tel_waf_events e USING m WHERE e.weid = m.from_weid), "
        "counts AS (DELETE FROM tel_waf_event_counts c USING m WHERE c.weid = m.from_weid "
        "RETURNING m.into_weid, c.dim, c.key, c.count) "
        "INSERT INTO tel_waf_event_counts AS t (weid, dim, key, count) SELECT into_weid, dim, key, sum(count) "
        "FROM counts GROUP BY 1, 2, 3 ON CONFLICT (weid, dim, key) DO UPDATE SET count = t.count + excluded.count";
    struct pg_array col[2] = {0};
    size_t n = 0;
    for (size_t i = 0; i < sl->n_ev; i++)
        if (sl->ev[i].into >= 0) {
            arr_int(&col[0], sl->ev[i].weid);
            arr_int(&col[1], final_event(sl, (long)i)->weid);
            n++;
        }
    if (n == 0)
        return STORE_OK;
    return pg_run_columns(s, sql, col, 2, NULL);
}

/* The spans, counts and severities of the events the slice changed. */
static int update_events(struct store *s, const struct waf_slice *sl)
{
    static const char sql[] =
        "UPDATE tel_waf_events e SET start_time = u.start_time, end_time = u.end_time, attack_count = "
        "u.attack_count, severity = u.severity FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], "
        "$5::bigint[]) AS u(weid, start_time, end_time, attack_count, severity) WHERE e.weid = u.weid";
    struct pg_array col[5] = {0};
    size_t n = 0;
    for (size_t i = 0; i < sl->n_ev; i++) {
        const struct waf_event *e = &sl->ev[i];
        if (e->into >= 0 || !e->changed)
            continue;
        arr_int(&col[0], e->weid);
        arr_int(&col[1], e->start);
        arr_int(&col[2], e->end);
        arr_int(&col[3], e->count);
        arr_int(&col[4], e->severity);
        n++;
    }
    if (n == 0)
        return STORE_OK;
    return pg_run_columns(s, sql, col, 5, NULL);
}

/* A lone entry in one statement, when it is new and near at most one event
 * of its port, which it joins, or none, when it starts one (inserted with
 * the entry already counted: the statement's UPDATE does not see rows it
 * inserted). *stored says whether it was; if not, it is a duplicate or a
 * bridge, for store_slice. A call with one WAF entry (a data plane's quiet
 * minute) costs one round trip then, not five. */
static int add_alone(struct store *s, const struct tel_record *r, bool *stored)
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
        "FROM target, (VALUES (1, $5::text), (2, $6::text), (3, $7::text), "
        "(4, nullif($6::text, '') || $16::text)) AS d(dim, key) WHERE d.key IS NOT NULL "
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
    pp_text(&p, w->src_ip);
    long counted;
    int rc = pg_exec(s, sql, &p, &counted);
    *stored = counted > 0;
    return rc;
}

/* One slice: its entries' duplicates, events and writes; *stored its new entries. */
static int store_slice(struct store *s, struct waf_slice *sl, long *stored)
{
    sl->ev = NULL;
    sl->live = NULL;
    bool alone = false;
    if (sl->n == 1 && add_alone(s, sl->entry[0], &alone) != STORE_OK)
        return STORE_ERROR;
    if (alone) {
        (*stored)++;
        sl->n = 0;
        return STORE_OK;
    }
    size_t n_new;
    int rc = mark_duplicates(s, sl, &n_new);
    if (rc != STORE_OK || n_new == 0) {
        sl->n = 0;
        return rc;
    }
    rc = load_near(s, sl);
    if (rc == STORE_OK) {
        plan(sl);
        rc = insert_events(s, sl);
    }
    if (rc == STORE_OK)
        rc = insert_entries(s, sl);
    if (rc == STORE_OK)
        rc = move_merged(s, sl);
    if (rc == STORE_OK)
        rc = update_events(s, sl);
    if (rc == STORE_OK)
        *stored += (long)n_new;
    free(sl->ev);
    free(sl->live);
    sl->n = 0;
    return rc;
}

/* Stores the WAF entries among recs[0..n), in their order, as if one by
 * one; *entries counts them, *stored the new ones (the others are
 * duplicates by _id). */
int pg_tel_waf_store(struct store *s, const struct tel_record *recs, size_t n, long *entries, long *stored)
{
    *entries = *stored = 0;
    struct waf_slice *sl = NULL;
    int rc = STORE_OK;
    for (size_t i = 0; i < n && rc == STORE_OK; i++) {
        if (recs[i].kind != TEL_WAF_LOG)
            continue;
        if (!sl && !(sl = calloc(1, sizeof *sl)))
            return STORE_ERROR;
        sl->entry[sl->n++] = &recs[i];
        (*entries)++;
        if (sl->n == WAF_SLICE)
            rc = store_slice(s, sl, stored);
    }
    if (rc == STORE_OK && sl && sl->n)
        rc = store_slice(s, sl, stored);
    free(sl);
    return rc;
}
