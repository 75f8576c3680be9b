/* sqlite/tel_waf.c — WAF log entries and their grouping into WAF events on
 * SQLite. The entries of one domain port belong to one event while they
 * come less than TEL_WAF_GAP_S apart: a new entry joins the event it is
 * that close to, starts one when there is none, and merges the events it
 * bridges (entries may arrive out of order).
 *
 * An entry's row is written at once (its _id is the duplicate check); what
 * it adds to its event (span, attack count, severity, the counts by type,
 * country, URL and source) is kept in memory for the write transaction and written
 * once per event and key before it commits (sq_tel_waf_flush), as the flow
 * roll-ups are. The kept span is the event's true one (its row's may lag):
 * an entry inside it belongs to that event alone (events of a port are at
 * least the gap apart), so needs no lookup; otherwise the nearby rows are
 * read and the kept spans put over theirs. A merge writes what is kept first
 * and then runs in SQL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"
#include "store/sqlite/db.h"
#include "store/tel_sums.h"

enum { MAX_MERGE = 64 };

static int exec_bind2(struct store *s, const char *sql, int64_t a, int64_t b)
{
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, a);
    sqlite3_bind_int64(st, 2, b);
    return db_exec_stmt(s, st);
}

/* Moves event `from` into `into`: its entries and counts, its span. */
static int merge_event(struct store *s, int64_t into, int64_t from)
{
    static const char logs[] = "UPDATE tel_waf_logs SET weid = ?1 WHERE weid = ?2";
    static const char counts[] =
        "INSERT INTO tel_waf_event_counts (weid, dim, key, count) SELECT ?1, dim, key, count "
        "FROM tel_waf_event_counts WHERE weid = ?2 AND true ON CONFLICT DO UPDATE SET count = count + excluded.count";
    static const char span[] =
        "UPDATE tel_waf_events SET start_time = min(start_time, (SELECT start_time FROM tel_waf_events WHERE weid = ?2)), "
        "end_time = max(end_time, (SELECT end_time FROM tel_waf_events WHERE weid = ?2)), "
        "attack_count = attack_count + (SELECT attack_count FROM tel_waf_events WHERE weid = ?2), "
        "severity = max(severity, (SELECT severity FROM tel_waf_events WHERE weid = ?2)) WHERE weid = ?1";
    static const char drop_counts[] = "DELETE FROM tel_waf_event_counts WHERE weid = ?2 AND ?1 IS NOT NULL";
    static const char drop_event[] = "DELETE FROM tel_waf_events WHERE weid = ?2 AND ?1 IS NOT NULL";
    const char *steps[] = {logs, counts, span, drop_counts, drop_event};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (exec_bind2(s, steps[i], into, from) != STORE_OK)
            return STORE_ERROR;
    return STORE_OK;
}

/* What this transaction added to an event: its true span and severity,
 * the entries it gained. */
struct kept_event {
    int64_t weid, port_rid, start, end, added;
    int severity;
};

/* A count by type, country, URL or source of an event, summed in tel_sums' flows;
 * keys longer than COUNT_KEY go to SQL at once (a sum either way). */
enum { COUNT_KEY = 128, KEPT_EVENTS = 256, KEPT_COUNTS = 1 << 16 };
struct count_item {
    struct count_key {
        int64_t weid;
        int32_t dim;
        char key[COUNT_KEY];
    } key;
    struct tel_counts c;
};

struct sq_waf_pending {
    struct kept_event ev[KEPT_EVENTS];
    size_t n;
    struct tel_sums counts;
};

static int cmp_count(const void *pa, const void *pb)
{
    const struct count_key *a = pa, *b = pb;
    if (a->weid != b->weid)
        return a->weid < b->weid ? -1 : 1;
    if (a->dim != b->dim)
        return a->dim - b->dim;
    return strcmp(a->key, b->key);
}

static int count_sql(struct store *s, int64_t weid, int dim, const char *key, int64_t n)
{
    static const char sql[] = "INSERT INTO tel_waf_event_counts (weid, dim, key, count) VALUES (?1, ?2, ?3, ?4) "
                              "ON CONFLICT DO UPDATE SET count = count + excluded.count";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    sqlite3_bind_int(st, 2, dim);
    BIND_TEXT(st, 3, key);
    sqlite3_bind_int64(st, 4, n);
    return db_exec_stmt(s, st);
}

/* Writes what is kept and forgets it (the map keeps its memory). */
static int write_kept(struct store *s, struct sq_waf_pending *w)
{
    static const char event_sql[] =
        "UPDATE tel_waf_events SET start_time = min(start_time, ?2), end_time = max(end_time, ?3), "
        "attack_count = attack_count + ?4, severity = max(severity, ?5) WHERE weid = ?1";
    int rc = STORE_OK;
    for (size_t i = 0; i < w->n && rc == STORE_OK; i++) {
        const struct kept_event *e = &w->ev[i];
        sqlite3_stmt *st = db_stmt(s, event_sql);
        if (!st)
            return STORE_ERROR;
        sqlite3_bind_int64(st, 1, e->weid);
        sqlite3_bind_int64(st, 2, e->start);
        sqlite3_bind_int64(st, 3, e->end);
        sqlite3_bind_int64(st, 4, e->added);
        sqlite3_bind_int(st, 5, e->severity);
        rc = db_exec_stmt(s, st);
    }
    if (rc == STORE_OK && tel_sums_sort(&w->counts, cmp_count) != 0)
        rc = STORE_ERROR;
    for (size_t i = 0; i < w->counts.n && rc == STORE_OK; i++) {
        const struct count_item *c = tel_sums_sorted(&w->counts, i);
        rc = count_sql(s, c->key.weid, c->key.dim, c->key.key, c->c.flows);
    }
    w->n = 0;
    tel_sums_clear(&w->counts);
    return rc;
}

int sq_tel_waf_flush(struct store *s, struct sq_waf_pending *w)
{
    return w ? write_kept(s, w) : STORE_OK;
}

void sq_tel_waf_free(struct sq_waf_pending *w)
{
    if (!w)
        return;
    tel_sums_free(&w->counts);
    free(w);
}

static struct kept_event *kept(struct sq_waf_pending *w, int64_t weid)
{
    for (size_t i = 0; i < w->n; i++)
        if (w->ev[i].weid == weid)
            return &w->ev[i];
    return NULL;
}

/* Keeps an event whose row holds the span start..end and severity. */
static struct kept_event *keep(struct store *s, struct sq_waf_pending *w, int64_t weid, int64_t port_rid,
                               int64_t start, int64_t end, int severity)
{
    if (w->n == KEPT_EVENTS && write_kept(s, w) != STORE_OK)
        return NULL;
    struct kept_event *e = &w->ev[w->n++];
    *e = (struct kept_event){.weid = weid, .port_rid = port_rid, .start = start, .end = end, .severity = severity};
    return e;
}

static int keep_row(struct store *s, struct sq_waf_pending *w, int64_t weid, int64_t port_rid,
                    struct kept_event **out)
{
    static const char sql[] = "SELECT start_time, end_time, severity FROM tel_waf_events WHERE weid = ?1";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, weid);
    int rc = db_row_result(s, sqlite3_step(st), "waf event span");
    int64_t start = 0, end = 0;
    int severity = 0;
    if (rc == STORE_OK) {
        start = sqlite3_column_int64(st, 0);
        end = sqlite3_column_int64(st, 1);
        severity = sqlite3_column_int(st, 2);
    }
    sqlite3_reset(st);
    if (rc != STORE_OK)
        return STORE_ERROR;
    return (*out = keep(s, w, weid, port_rid, start, end, severity)) ? STORE_OK : STORE_ERROR;
}

static bool near(int64_t start, int64_t end, int64_t t)
{
    return end > t - TEL_WAF_GAP_S && start < t + TEL_WAF_GAP_S;
}

struct found {
    int64_t weid, start, end;
    int severity;
};

static int cmp_found(const void *pa, const void *pb)
{
    const struct found *a = pa, *b = pb;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return a->weid < b->weid ? -1 : a->weid > b->weid;
}

/* The events near t of this port as the rows give them (by end_time, weid:
 * the first is the one the others merge into), up to MAX_MERGE. */
static int near_rows(struct store *s, int64_t port_rid, int64_t t, struct found *found, size_t *n)
{
    static const char sql[] =
        "SELECT weid, start_time, end_time, severity FROM tel_waf_events WHERE port_rid = ?1 AND end_time > ?2 - ?3 "
        "AND start_time < ?2 + ?3 ORDER BY end_time, weid";
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    sqlite3_bind_int64(st, 1, port_rid);
    sqlite3_bind_int64(st, 2, t);
    sqlite3_bind_int64(st, 3, TEL_WAF_GAP_S);
    int step;
    *n = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW && *n < MAX_MERGE)
        found[(*n)++] = (struct found){.weid = sqlite3_column_int64(st, 0),
                                       .start = sqlite3_column_int64(st, 1),
                                       .end = sqlite3_column_int64(st, 2),
                                       .severity = sqlite3_column_int(st, 3)};
    sqlite3_reset(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return db_log_error(s, "waf event lookup");
    return STORE_OK;
}

static int new_event(struct store *s, struct sq_waf_pending *w, const struct tel_record *r,
                     struct kept_event **out)
{
    static const char sql[] =
        "INSERT INTO tel_waf_events (event_id, customer_id, site_rid, domain_rid, port_rid, domain_port_id, "
        "domain_name, start_time, end_time, attack_count, severity) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, 0, 0)";
    const struct tel_waf_log *l = &r->u.waf;
    char event_id[ID_LEN + 1];
    random_hex(event_id, ID_LEN / 2);
    sqlite3_stmt *st = db_stmt(s, sql);
    if (!st)
        return STORE_ERROR;
    BIND_TEXT(st, 1, event_id);
    BIND_TEXT(st, 2, r->place.customer_id);
    sqlite3_bind_int64(st, 3, r->place.site_rid);
    sqlite3_bind_int64(st, 4, l->domain_rid);
    sqlite3_bind_int64(st, 5, l->port_rid);
    BIND_TEXT(st, 6, l->domain_port_id);
    BIND_TEXT(st, 7, l->domain_name);
    sqlite3_bind_int64(st, 8, l->timestamp);
    if (db_exec_stmt(s, st) != STORE_OK)
        return STORE_ERROR;
    int64_t weid = sqlite3_last_insert_rowid(DB(s)->db);
    return (*out = keep(s, w, weid, l->port_rid, l->timestamp, l->timestamp, 0)) ? STORE_OK : STORE_ERROR;
}

/* The kept event an entry at t of this port belongs to (merging the ones
 * it bridges), or a new one. */
static int event_for(struct store *s, struct sq_waf_pending *w, const struct tel_record *r,
                     struct kept_event **out)
{
    const struct tel_waf_log *l = &r->u.waf;
    int64_t t = l->timestamp;
    for (size_t i = 0; i < w->n; i++) {
        struct kept_event *e = &w->ev[i];
        if (e->port_rid == l->port_rid && e->start <= t && t <= e->end) {
            *out = e;
            return STORE_OK;
        }
    }
    struct found found[MAX_MERGE + KEPT_EVENTS];
    size_t n;
    if (near_rows(s, l->port_rid, t, found, &n) != STORE_OK)
        return STORE_ERROR;
    /* the kept spans over the rows' (a kept span holds its row's) */
    size_t rows = n;
    for (size_t i = 0; i < w->n; i++) {
        const struct kept_event *e = &w->ev[i];
        if (e->port_rid != l->port_rid || !near(e->start, e->end, t))
            continue;
        size_t j = 0;
        while (j < rows && found[j].weid != e->weid)
            j++;
        if (j == rows)
            j = n++;
        found[j] = (struct found){.weid = e->weid, .start = e->start, .end = e->end, .severity = e->severity};
    }
    if (n == 0)
        return new_event(s, w, r, out);
    qsort(found, n, sizeof *found, cmp_found);
    if (n == 1) {
        struct kept_event *e = kept(w, found[0].weid);
        *out = e ? e
                 : keep(s, w, found[0].weid, l->port_rid, found[0].start, found[0].end, found[0].severity);
        return *out ? STORE_OK : STORE_ERROR;
    }
    /* a bridge: the rows made true, then merged in SQL as they stand */
    if (write_kept(s, w) != STORE_OK || near_rows(s, l->port_rid, t, found, &n) != STORE_OK)
        return STORE_ERROR;
    for (size_t i = 1; i < n; i++)
        if (merge_event(s, found[0].weid, found[i].weid) != STORE_OK)
            return STORE_ERROR;
    return keep_row(s, w, found[0].weid, l->port_rid, out);
}

static int count_up(struct store *s, struct sq_waf_pending *w, int64_t weid, int dim, const char *key)
{
    size_t len = strlen(key);
    if (len >= COUNT_KEY)
        return count_sql(s, weid, dim, key, 1);
    struct count_item c;
    memset(&c, 0, sizeof c);
    c.key.weid = weid;
    c.key.dim = dim;
    memcpy(c.key.key, key, len);
    c.c.flows = 1;
    return tel_sums_add(&w->counts, &c) == 0 ? STORE_OK : STORE_ERROR;
}

/* 1 stored, 0 a duplicate (by _id), -1 failure. *pending is this
 * transaction's (made on first use; sq_tel_waf_flush, sq_tel_waf_free). */
int sq_tel_waf_add(struct store *s, struct sq_waf_pending **pending, const struct tel_record *r)
{
    static const char known_sql[] = "SELECT 1 FROM tel_waf_logs WHERE log_id = ?1";
    static const char insert_sql[] =
        "INSERT INTO tel_waf_logs (log_id, weid, site_rid, ts, severity, attack_type, country, path, entry) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
    const struct tel_waf_log *l = &r->u.waf;
    struct sq_waf_pending *w = *pending;
    if (!w) {
        if (!(w = calloc(1, sizeof *w)))
            return -1;
        tel_sums_init(&w->counts, sizeof(struct count_item), sizeof(struct count_key));
        *pending = w;
    }
    sqlite3_stmt *st = db_stmt(s, known_sql);
    if (!st)
        return -1;
    BIND_TEXT(st, 1, l->log_id);
    int known = db_row_result(s, sqlite3_step(st), "waf log lookup");
    sqlite3_reset(st);
    if (known == STORE_OK)
        return 0;
    struct kept_event *e;
    if (known != STORE_NOT_FOUND || event_for(s, w, r, &e) != STORE_OK)
        return -1;
    if (!(st = db_stmt(s, insert_sql)))
        return -1;
    BIND_TEXT(st, 1, l->log_id);
    sqlite3_bind_int64(st, 2, e->weid);
    sqlite3_bind_int64(st, 3, r->place.site_rid);
    sqlite3_bind_int64(st, 4, l->timestamp);
    sqlite3_bind_int(st, 5, l->severity);
    BIND_TEXT(st, 6, l->attack_type);
    BIND_TEXT(st, 7, l->country);
    BIND_TEXT(st, 8, l->path ? l->path : "");
    BIND_TEXT(st, 9, l->entry);
    if (db_exec_stmt(s, st) != STORE_OK)
        return -1;
    if (l->timestamp < e->start)
        e->start = l->timestamp;
    if (l->timestamp > e->end)
        e->end = l->timestamp;
    if (l->severity > e->severity)
        e->severity = l->severity;
    e->added++;
    int64_t weid = e->weid;
    char source[sizeof l->country + sizeof l->src_ip];
    snprintf(source, sizeof source, "%s%s", l->country, l->src_ip);
    if (count_up(s, w, weid, TEL_WAF_TYPE, l->attack_type) != STORE_OK ||
        count_up(s, w, weid, TEL_WAF_COUNTRY, l->country) != STORE_OK ||
        count_up(s, w, weid, TEL_WAF_URL, l->path ? l->path : "") != STORE_OK ||
        (l->country[0] && count_up(s, w, weid, TEL_WAF_COUNTRY_SOURCE, source) != STORE_OK))
        return -1;
    if (w->counts.n > KEPT_COUNTS && write_kept(s, w) != STORE_OK)
        return -1; /* bounded memory for a transaction of any size */
    return 1;
}
