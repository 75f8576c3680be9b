/* test_tel_ingest.c — telemetry storage arithmetic on a real SQLite store:
 * the flow roll-ups equal the raw records however a stream is cut into
 * batches and re-sent, and WAF entries form the same events in any order
 * of arrival (the 10-minute gap rule, merges included), an entry a
 * transaction or all in one (what they add to their events is kept in memory
 * to the commit), and an entry made text on the decoding thread is stored as
 * the same text as one made whole on the storing thread. */
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "api/ap/ap_kinds.h"
#include "api/op/op_kinds.h"
#include "store/migrations.h"
#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "store/sqlite/db.h"
#include "store/tel_top.h"
#include "telemetry/ingest.h"
#include "telemetry/record.h"
#include "unit.h"

static const int64_t NOW = 1764100000;

struct fixture {
    char dir[64];
    char db[128];
    struct store *s;
    char port_id[24];
};

static int64_t make(struct store *s, const struct res_kind *k, int64_t parent, const char *name, const char *cidr)
{
    struct resource r = {.parent_rid = parent};
    snprintf(r.customer_id, sizeof r.customer_id, "c000000000000001");
    snprintf(r.name, sizeof r.name, "%s", name);
    r.doc = json_object();
    if (s->ops->res_create(s, k, &r) != STORE_OK)
        abort();
    resource_clear(&r);
    struct cidr c;
    if (cidr && (cidr_parse(cidr, 0, &c) != 0 || s->ops->blocks_set(s, r.rid, &c, 1) != STORE_OK))
        abort();
    return r.rid;
}

static void open_fixture(struct fixture *f)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/parapet-tel-XXXXXX");
    if (!mkdtemp(f->dir))
        abort();
    snprintf(f->db, sizeof f->db, "%s/t.db", f->dir);
    if (!(f->s = sqlite_store_open(f->db)))
        abort();
    struct store *s = f->s;
    s->ops->begin(s, true);
    struct portal p = {.id = "p000000000000001", .name = "P"};
    struct customer c = {.id = "c000000000000001", .portal_id = "p000000000000001", .name = "C"};
    if (s->ops->portal_create(s, &p) || s->ops->customer_create(s, &c))
        abort();
    make(s, &OP_SITE, 0, "site", "10.0.0.0/24");
    int64_t site = make(s, &AP_SITE, 0, "shop", NULL);
    int64_t dom = make(s, &AP_DOMAIN, site, "shop.example", NULL);
    int64_t port = make(s, &AP_DOMAIN_PORT, dom, "443", NULL);
    struct resource r;
    if (s->ops->res_get_rid(s, port, &r) != STORE_OK)
        abort();
    snprintf(f->port_id, sizeof f->port_id, "%s", r.id);
    resource_clear(&r);
    if (s->ops->commit(s) != STORE_OK)
        abort();
}

static void close_fixture(struct fixture *f)
{
    f->s->ops->close(f->s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        abort();
}

static int ingest(struct fixture *f, const char *ndjson, struct tel_ingest_result *res)
{
    char msg[TEL_MSG_BUF];
    struct store *s = f->s;
    s->ops->begin(s, true);
    int rc = telemetry_ingest(s, ndjson, strlen(ndjson), TEL_NDJSON, NOW, res, msg, sizeof msg);
    if (rc == 0)
        s->ops->commit(s);
    else {
        fprintf(stderr, "  ingest: %s\n", msg);
        s->ops->rollback(s);
    }
    return rc;
}

/* One row of text from a query on the fixture's database. */
static const char *query(struct fixture *f, const char *sql)
{
    static char out[8192];
    sqlite3 *db;
    sqlite3_stmt *st;
    out[0] = '\0';
    if (sqlite3_open_v2(f->db, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK || sq_tel_vector_functions(db) != 0 ||
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        abort();
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

/* flow i: 100 + i bytes to one of 3 hosts, minute i % 5, dropped when i % 3 == 0 */
static char *flows(int from, int to)
{
    size_t cap = 300 * (size_t)(to - from) + 1, n = 0;
    char *buf = malloc(cap);
    buf[0] = '\0';
    for (int i = from; i < to; i++)
        n += (size_t)snprintf(buf + n, cap - n,
                              "{\"kind\":\"flow\",\"flow_id\":\"f%d\",\"time\":%d,\"router\":\"r\",\"src_ip\":"
                              "\"198.51.100.%d\",\"dst_ip\":\"10.0.0.%d\",\"bytes\":%d,\"packets\":1,\"action\":"
                              "\"%s\",\"src_country\":\"NL\"}\n",
                              i, 1764000000 + (i % 5) * 60 + i % 7, i % 250 + 1, i % 3 + 1, 100 + i,
                              i % 3 ? "pass" : "drop");
    return buf;
}

static const char SUMS[] =
    "SELECT (SELECT sum(bytes) || '/' || sum(packets) || '/' || count(*) FROM tel_flows) || ' ' || "
    "(SELECT sum(tel_cells_sum(cells, NULL, NULL, 0)) || '/' || sum(tel_cells_sum(cells, NULL, NULL, 1)) || '/' "
    "|| sum(tel_cells_sum(cells, NULL, NULL, 2)) FROM tel_dst_minutes) || ' ' || "
    "(SELECT group_concat(dim || ':' || b, ',') FROM (SELECT dim, sum(bytes) b FROM tel_flow_hours GROUP BY dim "
    "UNION ALL SELECT 4, sum(tel_cells_sum(cells, NULL, NULL, 0)) FROM tel_dst_hours ORDER BY dim))";

/* The coarser roll-ups against the finer ones: the number of keys whose
 * sums differ (0), then their row counts. A site hour's minute vector is
 * built from the raw flows with the store's own SQL function (the minutes
 * by destination: packed_destinations_answer_as_raw). */
static const char COARSE[] =
    "SELECT ((SELECT count(*) FROM (SELECT site_rid, minute - minute % 3600 AS hour, action, policy, "
    "tel_minutes_vector(minute % 3600 / 60, b, p) v, sum(n) n FROM (SELECT site_rid, ts - ts % 60 AS minute, "
    "action, policy, sum(bytes) b, sum(packets) p, count(*) n FROM tel_flows GROUP BY 1, 2, 3, 4) GROUP BY 1, 2, "
    "3, 4) f LEFT JOIN tel_site_hours s USING (site_rid, hour, action, policy) WHERE s.mins IS NOT f.v OR s.flows "
    "IS NOT f.n) + "
    "(SELECT count(*) FROM (SELECT site_rid, dim, hour - hour % 86400 AS day, key, sum(bytes) b, sum(packets) p, "
    "sum(flows) n FROM tel_flow_hours GROUP BY 1, 2, 3, 4) f LEFT JOIN tel_flow_days d USING (site_rid, dim, day, "
    "key) WHERE d.bytes IS NOT f.b OR d.packets IS NOT f.p OR d.flows IS NOT f.n)) || ' ' || "
    "(SELECT count(*) FROM tel_site_hours) || ' ' || (SELECT count(*) FROM tel_flow_days) || ' ' || "
    "(SELECT count(*) FROM tel_dst_days)";

TEST(rollups_equal_raw_however_batched)
{
    struct fixture one, many;
    struct tel_ingest_result res;
    open_fixture(&one);
    open_fixture(&many);
    char *all = flows(0, 3000);
    CHECK(ingest(&one, all, &res) == 0);
    CHECK_INT(res.stored, 3000);
    /* the same stream in uneven batches, each sent twice */
    int cuts[] = {0, 1, 700, 2048, 2049, 3000};
    for (size_t i = 0; i + 1 < sizeof cuts / sizeof *cuts; i++) {
        char *part = flows(cuts[i], cuts[i + 1]);
        CHECK(ingest(&many, part, &res) == 0);
        CHECK_INT(res.stored, cuts[i + 1] - cuts[i]);
        CHECK(ingest(&many, part, &res) == 0);
        CHECK_INT(res.duplicates, cuts[i + 1] - cuts[i]);
        free(part);
    }
    char expect[512];
    snprintf(expect, sizeof expect, "%s", query(&one, SUMS));
    /* sum(100 + i) for i < 3000 = 300000 + 4498500; dropped: i % 3 == 0 */
    CHECK_STR(expect, "4798500/3000/3000 4798500/3000/3000 "
                      "1:4798500,2:4798500,3:4798500,4:4798500,5:4798500");
    CHECK_STR(query(&many, SUMS), expect);
    /* flows in 5 minutes of one hour, two actions and policy "": 2 site hours; one day of 4 keys over the
     * dimensions but the destination, and one day of the destinations */
    CHECK_STR(query(&one, COARSE), "0 2 4 1");
    CHECK_STR(query(&many, COARSE), "0 2 4 1");
    free(all);
    close_fixture(&one);
    close_fixture(&many);
}

/* The roll-up sums an ingest keeps until COMMIT go with a ROLLBACK. */
TEST(rolled_back_flows_add_to_no_rollup)
{
    struct fixture f;
    struct tel_ingest_result res;
    char msg[TEL_MSG_BUF];
    open_fixture(&f);
    char *first = flows(0, 50), *second = flows(50, 100);
    f.s->ops->begin(f.s, true);
    CHECK(telemetry_ingest(f.s, first, strlen(first), TEL_NDJSON, NOW, &res, msg, sizeof msg) == 0);
    f.s->ops->rollback(f.s);
    CHECK(ingest(&f, second, &res) == 0);
    CHECK_STR(query(&f, "SELECT (SELECT count(*) FROM tel_flows) || ' ' || (SELECT sum(tel_cells_sum(cells, NULL, "
                        "NULL, 2)) FROM tel_dst_minutes) || ' ' || ((SELECT sum(flows) FROM tel_flow_days) + "
                        "(SELECT sum(tel_cells_sum(cells, NULL, NULL, 2)) FROM tel_dst_days))"),
              "50 50 250");
    free(first);
    free(second);
    close_fixture(&f);
}

/* flow i of a stream over three and a half days: 7 hosts, every third
 * dropped by "udp_flood" */
static char *spread_flows(int from, int to)
{
    size_t cap = 320 * (size_t)(to - from) + 1, n = 0;
    char *buf = malloc(cap);
    buf[0] = '\0';
    for (int i = from; i < to; i++)
        n += (size_t)snprintf(buf + n, cap - n,
                              "{\"kind\":\"flow\",\"flow_id\":\"s%d\",\"time\":%d,\"router\":\"r\",\"src_ip\":"
                              "\"198.51.100.1\",\"dst_ip\":\"10.0.0.%d\",\"bytes\":%d,\"packets\":%d,\"action\":"
                              "\"%s\",\"policy_type\":\"%s\"}\n",
                              i, 1763800000 + i * 97, i % 7 + 1, 100 + i * (i % 7 + 1), 1 + i % 4,
                              i % 3 ? "pass" : "drop", i % 3 ? "" : "udp_flood");
    return buf;
}

static void key_of(const char *ip, uint8_t key[TEL_ADDR_KEY])
{
    struct ip_addr a;
    if (ip_parse(ip, &a) != 0)
        abort();
    key[0] = (uint8_t)a.family;
    memcpy(key + 1, a.b, 16);
}

/* The roll-ups by destination (one row of cells per site and period) answer
 * the dashboards' reads exactly as the raw flows do: the per-minute series
 * toward a range (by action, with and without a policy) and the top
 * destinations of an hourly window, however the stream came in batches. */
TEST(packed_destinations_answer_as_raw)
{
    struct fixture f;
    struct tel_ingest_result res;
    open_fixture(&f);
    int cuts[] = {0, 1, 999, 1000, 2500, 3100};
    for (size_t i = 0; i + 1 < sizeof cuts / sizeof *cuts; i++) {
        char *part = spread_flows(cuts[i], cuts[i + 1]);
        CHECK(ingest(&f, part, &res) == 0);
        CHECK(ingest(&f, part, &res) == 0); /* re-sent: nothing counted twice */
        CHECK_INT(res.duplicates, cuts[i + 1] - cuts[i]);
        free(part);
    }
    struct store *s = f.s;
    int64_t site = atoll(query(&f, "SELECT rid FROM resources WHERE kind = 'op.site'"));
    int64_t from = 1763800000 - 1763800000 % 3600, to = 1763800000 + 3100 * 97 + 7200;
    to -= to % 3600;
    /* per minute toward 10.0.0.2-10.0.0.4, by action, then only udp_flood */
    struct tel_range range;
    key_of("10.0.0.2", range.lo);
    key_of("10.0.0.4", range.hi);
    for (int p = 0; p < 2; p++) {
        struct tel_minutes_query q = {.site_rid = site, .range = &range, .policy = p ? "udp_flood" : NULL,
                                      .from = from, .to = to};
        struct tel_minute *m = NULL;
        size_t n = 0;
        s->ops->begin(s, false);
        CHECK(s->ops->tel_op_minutes(s, &q, &m, &n, NULL, NULL) == STORE_OK);
        s->ops->rollback(s);
        int64_t got[4] = {0}, minutes = 0;
        for (size_t i = 0; i < n; i++)
            for (int a = 0; a < 2; a++) {
                got[a] += m[i].bytes[a];
                got[2 + a] += m[i].packets[a];
                minutes += m[i].bytes[a] * (m[i].minute % 7 + 1); /* where the bytes fell, too */
            }
        free(m);
        char sql[700], mine[200];
        snprintf(sql, sizeof sql,
                 "SELECT coalesce(sum(bytes * (action = 0)), 0) || ' ' || coalesce(sum(bytes * (action = 1)), 0) "
                 "|| ' ' || coalesce(sum(packets * (action = 0)), 0) || ' ' || coalesce(sum(packets * (action = "
                 "1)), 0) || ' ' || coalesce(sum(bytes * ((ts - ts %% 60) %% 7 + 1)), 0) FROM tel_flows WHERE "
                 "dst IN (SELECT dst FROM tel_flows WHERE substr(dst, 5, 1) BETWEEN x'02' AND x'04') %s",
                 p ? "AND policy = 'udp_flood'" : "");
        snprintf(mine, sizeof mine, "%lld %lld %lld %lld %lld", (long long)got[0], (long long)got[1],
                 (long long)got[2], (long long)got[3], (long long)minutes);
        CHECK_STR(mine, query(&f, sql));
        CHECK(got[0] + got[1] > 0);
    }
    /* the top destinations of the hourly roll-ups (whole days and the hours around them) against the raw
     * flows' */
    struct tel_top_query raw = {.site_rid = site, .from = from, .to = to, .dim = TEL_DIM_DST, .limit = 10};
    struct tel_top_query hourly = raw;
    hourly.hourly = true;
    struct tel_top_row *a = NULL, *b = NULL, all_a, all_b;
    size_t na = 0, nb = 0;
    s->ops->begin(s, false);
    CHECK(s->ops->tel_op_top(s, &raw, &a, &na, &all_a) == STORE_OK);
    CHECK(s->ops->tel_op_top(s, &hourly, &b, &nb, &all_b) == STORE_OK);
    s->ops->rollback(s);
    CHECK_INT(na, 7);
    CHECK_INT(nb, na);
    for (size_t i = 0; i < na && i < nb; i++) {
        CHECK_STR(b[i].key, a[i].key);
        CHECK_INT(b[i].bytes, a[i].bytes);
        CHECK_INT(b[i].packets, a[i].packets);
        CHECK_INT(b[i].flows, a[i].flows);
    }
    CHECK_INT(all_b.bytes, all_a.bytes);
    CHECK_INT(all_b.flows, 3100);
    free(a);
    free(b);
    close_fixture(&f);
}

/* The entries in this order, each in its own transaction or all in one.
 * Entry i comes from 198.51.100.2 when i is 2, 4 or 5, else from .1; the
 * seventh has no country. */
static void waf_entries(struct fixture *f, const int *times, size_t n, const int *order, bool one_transaction)
{
    char all[8192] = "";
    for (size_t k = 0; k < n; k++) {
        char line[512];
        size_t i = (size_t)order[k];
        snprintf(line, sizeof line,
                 "{\"kind\":\"waf_log\",\"_id\":\"w%zu\",\"timestamp\":%d,\"domain_port_id\":\"%s\","
                 "\"src_ip\":\"198.51.100.%d\",\"src_ip_cc\":\"%s\",\"attack_type\":\"%s\","
                 "\"severity\":\"%s\",\"http_path\":\"/%zu\"}\n",
                 i, times[i], f->port_id, i == 2 || i == 4 || i == 5 ? 2 : 1, i == 6 ? "" : "NL",
                 i % 2 ? "xss" : "sqli", i == 3 ? "high" : "low", i % 3);
        struct tel_ingest_result res;
        if (one_transaction) {
            strcat(all, line);
            continue;
        }
        CHECK(ingest(f, line, &res) == 0);
        CHECK_INT(res.stored, 1);
    }
    struct tel_ingest_result res;
    if (one_transaction) {
        CHECK(ingest(f, all, &res) == 0);
        CHECK_INT(res.stored, (long)n);
    }
}

static const char EVENTS[] =
    "SELECT group_concat(start_time || '-' || end_time || ':' || attack_count || ':' || severity, ' ') FROM "
    "(SELECT * FROM tel_waf_events ORDER BY start_time)";
static const char COUNTS[] =
    "SELECT group_concat(dim || key || '=' || n, ' ') FROM (SELECT dim, key, sum(count) n FROM "
    "tel_waf_event_counts GROUP BY dim, key ORDER BY dim, key)";

/* Each event's commonest source from NL, the events by start time. */
static const char *top_sources(struct fixture *f)
{
    static char out[512];
    char weids[256], ip[64];
    snprintf(weids, sizeof weids, "%s",
             query(f, "SELECT group_concat(weid, ' ') FROM "
                      "(SELECT weid FROM tel_waf_events ORDER BY start_time)"));
    out[0] = '\0';
    int n = 0;
    for (char *w = strtok(weids, " "); w; w = strtok(NULL, " ")) {
        CHECK(f->s->ops->tel_waf_top_source(f->s, atoll(w), "NL", ip) == STORE_OK);
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", n++ ? " " : "", ip);
    }
    return out;
}

static void exec_sql(struct fixture *f, const char *sql)
{
    sqlite3 *db;
    char *err = NULL;
    if (sqlite3_open(f->db, &db) != SQLITE_OK || sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "%s\n", err ? err : sqlite3_errmsg(db));
        abort();
    }
    sqlite3_close(db);
}

static const char *migration_sql(int version)
{
    for (int i = 0; i < migrations_count; i++)
        if (migrations[i].version == version)
            return migrations[i].sql;
    abort();
}

TEST(waf_events_do_not_depend_on_arrival_order)
{
    /* gaps: 300, 599 (same event), 600 (new), 100, 1000 (new), 10 */
    static const int times[] = {1764000000, 1764000300, 1764000899, 1764001499, 1764001599, 1764002599, 1764002609};
    static const int forward[] = {0, 1, 2, 3, 4, 5, 6}, backward[] = {6, 5, 4, 3, 2, 1, 0},
                     shuffled[] = {3, 0, 6, 2, 5, 1, 4};
    const int *orders[] = {forward, backward, shuffled};
    char first_events[512] = "", first_counts[512] = "";
    for (int o = 0; o < 6; o++) {
        struct fixture f;
        open_fixture(&f);
        waf_entries(&f, times, 7, orders[o % 3], o >= 3);
        if (o == 0) {
            snprintf(first_events, sizeof first_events, "%s", query(&f, EVENTS));
            snprintf(first_counts, sizeof first_counts, "%s", query(&f, COUNTS));
            CHECK_STR(first_events, "1764000000-1764000899:3:0 1764001499-1764001599:2:2 1764002599-1764002609:2:0");
            CHECK_STR(first_counts,
                      "1sqli=4 1xss=3 2=1 2NL=6 3/0=3 3/1=2 3/2=2 4NL198.51.100.1=3 4NL198.51.100.2=3");
        } else {
            CHECK_STR(query(&f, EVENTS), first_events);
            CHECK_STR(query(&f, COUNTS), first_counts);
        }
        CHECK_STR(query(&f, "SELECT count(DISTINCT weid) || '/' || count(*) FROM tel_waf_logs"), "3/7");
        /* a tie goes to the smaller address; the entry without a country
         * does not count for NL */
        CHECK_STR(top_sources(&f), "198.51.100.1 198.51.100.1 198.51.100.2");
        /* migration 019 counts the sources of entries stored before it as
         * ingest does */
        exec_sql(&f, "DELETE FROM tel_waf_event_counts WHERE dim = 4");
        CHECK_STR(top_sources(&f), "  ");
        exec_sql(&f, migration_sql(19));
        CHECK_STR(query(&f, COUNTS), first_counts);
        CHECK_STR(top_sources(&f), "198.51.100.1 198.51.100.1 198.51.100.2");
        close_fixture(&f);
    }
}

/* One WAF line stored as parapet ingest does (made text on the decoding
 * thread, tel_decoded_to_text) with _id "text", and as a whole object with
 * _id "object": the same entry but its _id. */
TEST(waf_entry_text_made_apart_is_the_same)
{
    struct fixture f;
    open_fixture(&f);
    static const char fmt[] =
        "{\"kind\":\"waf_log\",\"_id\":\"%s\",\"timestamp\":1764000000,\"domain_port_id\":\"%s\",\"src_ip\":"
        "\"2001:db8::1\",\"attack_type\":\"xss\",\"http_path\":\"/a\\\"b\\u00e9\\n\",\"pattern\":\"<\\/x>\"}";
    char line[512];
    snprintf(line, sizeof line, fmt, "object", f.port_id);
    struct tel_ingest_result res;
    CHECK(ingest(&f, line, &res) == 0);
    snprintf(line, sizeof line, fmt, "text", f.port_id);
    struct store *s = f.s;
    s->ops->begin(s, true);
    struct tel_batch *b = tel_batch_begin(s, NOW);
    struct tel_record rec;
    struct tel_locator loc;
    char msg[TEL_MSG_BUF];
    CHECK(b && tel_decode_line(NULL, line, strlen(line), NOW, &rec, &loc, msg, sizeof msg) == 0);
    tel_decoded_to_text(&rec, &loc);
    CHECK(loc.waf_text && !loc.waf_entry);
    CHECK(tel_batch_add_decoded(b, &rec, &loc, msg, sizeof msg) == 0);
    CHECK(tel_batch_end(b, true, &res) == 0);
    CHECK(s->ops->commit(s) == STORE_OK);
    char object[512];
    snprintf(object, sizeof object, "%s",
             query(&f, "SELECT replace(entry, '\"object\"', '\"text\"') FROM tel_waf_logs WHERE log_id = 'object'"));
    CHECK(strstr(object, "\"domain\":\"shop.example\",\"domain_id\":") != NULL);
    CHECK_STR(query(&f, "SELECT entry FROM tel_waf_logs WHERE log_id = 'text'"), object);
    CHECK_STR(query(&f, "SELECT group_concat(path, '|') FROM tel_waf_logs"), "/a\"b\xc3\xa9\n|/a\"b\xc3\xa9\n");
    close_fixture(&f);
}

/* Retention (store_ops.tel_purge, bounded calls as telemetry_retention_run
 * makes them): what is older than the cut-off goes from every table, what
 * is newer stays, an ongoing event stays, and a deleted site's rows go
 * whatever their age; calls of a small budget end the same. */
static long purge_all(struct fixture *f, int64_t before, long budget)
{
    long total = 0, n;
    do {
        f->s->ops->begin(f->s, true);
        CHECK(f->s->ops->tel_purge(f->s, before, budget, &n) == STORE_OK);
        f->s->ops->commit(f->s);
        total += n;
    } while (n >= budget); /* (a WAF event's counts go whole: a call may pass its budget) */
    return total;
}

static const char LEFT[] =
    "SELECT (SELECT count(*) FROM tel_flows) || ' ' || (SELECT count(*) FROM tel_dst_minutes) || ' ' || "
    "(SELECT count(*) FROM tel_dst_hours) || ' ' || (SELECT count(DISTINCT hour) FROM tel_flow_hours) || ' ' || "
    "(SELECT count(DISTINCT hour) FROM tel_site_hours) || ' ' || (SELECT count(*) FROM tel_ddos_events) || ' ' || "
    "(SELECT count(*) FROM tel_waf_logs) || ' ' || (SELECT count(*) FROM tel_waf_events) || ' ' || "
    "(SELECT count(*) FROM tel_waf_event_counts WHERE weid NOT IN (SELECT weid FROM tel_waf_events))";

TEST(retention_removes_the_old_and_the_orphaned)
{
    struct fixture f;
    open_fixture(&f);
    struct tel_ingest_result res;
    char *old = flows(0, 60); /* 1764000000 + up to 5 minutes */
    CHECK(ingest(&f, old, &res) == 0);
    free(old);
    char buf[4096];
    snprintf(buf, sizeof buf,
             "{\"kind\":\"flow\",\"flow_id\":\"new1\",\"time\":%lld,\"router\":\"r\",\"src_ip\":\"198.51.100.1\","
             "\"dst_ip\":\"10.0.0.1\",\"bytes\":1,\"packets\":1}\n"
             "{\"kind\":\"ddos_event\",\"alert_id\":\"old-ended\",\"attack_type\":\"UDP Fragmentation\",\"site_ip\":\"10.0.0.1\","
             "\"start_time\":1764000000,\"end_time\":1764000100}\n"
             "{\"kind\":\"ddos_event\",\"alert_id\":\"old-ongoing\",\"attack_type\":\"UDP Fragmentation\",\"site_ip\":\"10.0.0.2\","
             "\"start_time\":1764000000}\n",
             (long long)(NOW - 60));
    CHECK(ingest(&f, buf, &res) == 0);
    waf_entries(&f, (const int[]){1764000000, 1764000100, (int)NOW - 30}, 3, (const int[]){0, 1, 2}, true);
    CHECK_STR(query(&f, LEFT), "61 6 2 2 2 2 3 2 0");

    /* the cut-off an hour before NOW: the flows and entries of 1764000000 go */
    CHECK(purge_all(&f, NOW - 3600, 7) > 60 + 5);
    CHECK_STR(query(&f, LEFT), "1 1 1 1 1 1 1 1 0");
    CHECK_STR(query(&f, "SELECT alert_id FROM tel_ddos_events"), "old-ongoing");
    CHECK_INT(purge_all(&f, NOW - 3600, 7), 0); /* nothing left to find */

    /* the OP site deleted: its recent rows go too (the AP site's entries stay) */
    int64_t site = atoll(query(&f, "SELECT rid FROM resources WHERE name = 'site'"));
    json_t *blocker = NULL;
    f.s->ops->begin(f.s, true);
    CHECK(f.s->ops->res_delete(f.s, site, &blocker) == STORE_OK);
    f.s->ops->commit(f.s);
    json_decref(blocker);
    CHECK(purge_all(&f, NOW - 3600, 2) > 0);
    CHECK_STR(query(&f, LEFT), "0 0 0 0 0 0 1 1 0");
    close_fixture(&f);
}

/* The traffic patterns summed in C (store/tel_patterns.h) equal the
 * two-level GROUP BY they replace, run here on the same raw flows: every
 * order, ties cut by the key, a limit inside a tie, IPv4 /24s and IPv6
 * /48s, two routers, a range and the scrubber's counters left out. */
static const char PATTERNS_BY_SQL[] =
    "SELECT group_concat(line, ';') FROM (SELECT hex(net) || ' ' || router || ' ' || protocol || ' ' || "
    "src_port || ' ' || dst_port || ' ' || src_as || ' ' || sum(b) || ' ' || sum(p) || ' ' || max(b) || ' ' || "
    "max(p) AS line FROM (SELECT CASE WHEN substr(f.src, 1, 1) = x'04' THEN substr(f.src, 1, 4) ELSE "
    "substr(f.src, 1, 7) END AS net, f.router AS router, f.protocol AS protocol, f.src_port AS src_port, "
    "f.dst_port AS dst_port, f.src_as AS src_as, f.ts - f.ts %% 60 AS mn, sum(f.bytes) AS b, sum(f.packets) AS "
    "p FROM tel_flows f WHERE f.ts >= %lld AND f.ts < %lld AND f.dst BETWEEN x'%s' AND x'%s' AND (f.policy = "
    "'observed' OR f.src NOT IN (x'0400000000000000000000000000000000', x'0600000000000000000000000000000000')) "
    "GROUP BY 1, 2, 3, 4, 5, 6, 7) GROUP BY net, router, protocol, src_port, dst_port, src_as ORDER BY %s DESC, "
    "net, router, protocol, src_port, dst_port, src_as LIMIT %ld)";

static void hex_of(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02X", b[i]);
}

/* A pattern as the SQL above writes it (its /24 or /48 as the key's bytes). */
static size_t pattern_line(const struct tel_pattern *p, char *out, size_t size)
{
    struct cidr c;
    uint8_t key[TEL_ADDR_KEY] = {0};
    char net[2 * TEL_ADDR_KEY + 1];
    if (cidr_parse(p->cidr, 0, &c) != 0)
        abort();
    key[0] = (uint8_t)c.addr.family;
    memcpy(key + 1, c.addr.b, 16);
    hex_of(key, key[0] == NET_V4 ? 4 : 7, net);
    return (size_t)snprintf(out, size, "%s %s %d %d %d %lld %lld %lld %lld %lld", net, p->router, p->protocol,
                            p->src_port, p->dst_port, (long long)p->src_as, (long long)p->bytes,
                            (long long)p->packets, (long long)p->peak_bytes, (long long)p->peak_packets);
}

/* The flows the differential tests below read: IPv4 and IPv6 sources in a
 * few /24s and /48s, two routers, ports, protocols, ASes and countries over
 * four minutes, the scrubber's counters (to be left out), and flows equal in
 * every sum but their keys (ties: ports 9 and 10 are ordered as numbers). */
struct mixed {
    int64_t site;
    struct tel_range range; /* 10.0.0.2-10.0.0.4 */
    char lo[2 * TEL_ADDR_KEY + 1], hi[2 * TEL_ADDR_KEY + 1]; /* its ends in hex */
};

static void ingest_mixed_flows(struct fixture *f, struct mixed *m)
{
    static const char *const sources[] = {"198.51.100.7", "198.51.100.9", "203.0.113.5", "2001:db8:1:2::1",
                                          "2001:db8:1:3::9", "0.0.0.0"};
    size_t cap = 450 * 606, n = 0;
    char *buf = malloc(cap);
    buf[0] = '\0';
    for (int i = 0; i < 600; i++) {
        const char *src = sources[i % 6];
        bool counter = i % 6 == 5;
        n += (size_t)snprintf(buf + n, cap - n,
                              "{\"kind\":\"flow\",\"flow_id\":\"p%d\",\"time\":%d,\"router\":\"%s\",\"src_ip\":"
                              "\"%s\",\"dst_ip\":\"10.0.0.%d\",\"src_port\":%d,\"dst_port\":%d,\"protocol\":%d,"
                              "\"src_as\":%d,\"bytes\":%d,\"packets\":%d,\"action\":\"%s\",\"policy_type\":\"%s\","
                              "\"src_country\":\"%s\"}\n",
                              i, 1764000000 + (i % 4) * 60 + i % 50, i % 7 ? "edge-1" : "edge-2", src, i % 5 + 1,
                              i % 3 ? 123 : 53, i % 2 ? 80 : 443, i % 4 ? 17 : 6, 64500 + i % 2,
                              (i % 9 + 1) * 100, i % 9 + 1, counter ? "drop" : "pass", counter ? "udp_flood" : "",
                              i % 11 ? (i % 2 ? "NL" : "DE") : "FR");
    }
    /* four patterns equal in every sum: ordered by source, router, then port */
    static const char *const ties[][3] = {{"192.0.2.1", "edge-2", "7"}, {"192.0.3.1", "edge-1", "7"},
                                          {"192.0.2.1", "edge-1", "8"}, {"192.0.2.1", "edge-1", "7"}};
    for (int i = 0; i < 4; i++)
        n += (size_t)snprintf(buf + n, cap - n,
                              "{\"kind\":\"flow\",\"flow_id\":\"t%d\",\"time\":1764000010,\"router\":\"%s\","
                              "\"src_ip\":\"%s\",\"dst_ip\":\"10.0.0.3\",\"src_port\":7,\"dst_port\":%s,"
                              "\"protocol\":17,\"src_as\":1,\"bytes\":300,\"packets\":3,\"action\":\"pass\"}\n",
                              i, ties[i][1], ties[i][0], ties[i][2]);
    for (int port = 9; port <= 10; port++)
        n += (size_t)snprintf(buf + n, cap - n,
                              "{\"kind\":\"flow\",\"flow_id\":\"q%d\",\"time\":1764000020,\"router\":\"edge-3\","
                              "\"src_ip\":\"192.0.2.200\",\"dst_ip\":\"10.0.0.3\",\"src_port\":%d,\"dst_port\":%d,"
                              "\"protocol\":%d,\"src_as\":%d,\"bytes\":7000,\"packets\":70,\"action\":\"pass\"}\n",
                              port, port, port, port, 64000 + port);
    struct tel_ingest_result res;
    CHECK(ingest(f, buf, &res) == 0 && res.stored == 606);
    free(buf);
    m->site = atoll(query(f, "SELECT rid FROM resources WHERE kind = 'op.site'"));
    key_of("10.0.0.2", m->range.lo);
    key_of("10.0.0.4", m->range.hi);
    hex_of(m->range.lo, TEL_ADDR_KEY, m->lo);
    hex_of(m->range.hi, TEL_ADDR_KEY, m->hi);
}

TEST(patterns_equal_the_sql_group_by)
{
    struct fixture f;
    open_fixture(&f);
    struct mixed m;
    ingest_mixed_flows(&f, &m);
    static const long limits[] = {100, 7, 1};
    for (int order = TEL_BY_BYTES; order <= TEL_BY_PEAK_PACKETS; order++)
        for (size_t l = 0; l < sizeof limits / sizeof *limits; l++) {
            char sql[2048], got[8192] = "";
            static const char *const by[] = {"sum(b)", "sum(p)", "max(b)", "max(p)"};
            snprintf(sql, sizeof sql, PATTERNS_BY_SQL, 1764000000LL, 1764000000LL + 240, m.lo, m.hi, by[order],
                     limits[l]);
            struct tel_pattern *p;
            size_t np, at = 0;
            CHECK(f.s->ops->tel_op_patterns(f.s, m.site, &m.range, 1764000000, 1764000240, (enum tel_pattern_order)order,
                                            limits[l], &p, &np) == STORE_OK);
            for (size_t i = 0; i < np; i++) {
                if (i)
                    got[at++] = ';';
                at += pattern_line(&p[i], got + at, sizeof got - at);
            }
            free(p);
            const char *want = query(&f, sql);
            CHECK(strlen(want) > 0 && np > 0);
            CHECK_STR(got, want);
        }
    close_fixture(&f);
}

/* The raw top lists summed in C (store/tel_top.h) equal the GROUP BY they
 * replace, run here on the same flows: every dimension, by bytes and by
 * packets, with and without a range, limits that cut ties, max(country),
 * and the totals. */
static const char TOP_BY_SQL[] =
    "SELECT group_concat(line, ';') FROM (SELECT %s || ' ' || max(f.country) || ' ' || sum(f.bytes) || ' ' || "
    "sum(f.packets) || ' ' || count(*) AS line FROM tel_flows f WHERE f.ts >= 1764000000 AND f.ts < 1764000240 "
    "%s AND (f.policy = 'observed' OR f.src NOT IN (x'0400000000000000000000000000000000', "
    "x'0600000000000000000000000000000000')) GROUP BY %s ORDER BY sum(f.%s) DESC, %s LIMIT %ld)";
static const char TOP_ALL_SQL[] =
    "SELECT sum(f.bytes) || ' ' || sum(f.packets) || ' ' || count(*) FROM tel_flows f WHERE f.ts >= 1764000000 "
    "AND f.ts < 1764000240 %s AND (f.policy = 'observed' OR f.src NOT IN (x'0400000000000000000000000000000000', "
    "x'0600000000000000000000000000000000'))";

TEST(top_lists_equal_the_sql_group_by)
{
    struct fixture f;
    open_fixture(&f);
    struct mixed m;
    ingest_mixed_flows(&f, &m);
    char in_range[128];
    snprintf(in_range, sizeof in_range, "AND f.dst BETWEEN x'%s' AND x'%s'", m.lo, m.hi);
    static const char *const cols[] = {[TEL_DIM_APP] = "f.app",         [TEL_DIM_AS] = "f.src_as",
                                       [TEL_DIM_COUNTRY] = "f.country", [TEL_DIM_DST] = "f.dst",
                                       [TEL_DIM_PROTOCOL] = "f.protocol", [TEL_DIM_SRC] = "f.src",
                                       [TEL_DIM_SRC_PORT] = "f.src_port", [TEL_DIM_DST_PORT] = "f.dst_port"};
    static const long limits[] = {100, 3, 1};
    for (int dim = TEL_DIM_APP; dim <= TEL_DIM_DST_PORT; dim++)
        for (int variant = 0; variant < 12; variant++) {
            bool packets = variant % 2, ranged = variant / 2 % 2;
            long limit = limits[variant / 4];
            bool addr = dim == TEL_DIM_DST || dim == TEL_DIM_SRC;
            char key[64], sql[2048], got[8192] = "", all_got[128];
            snprintf(key, sizeof key, addr ? "hex(%s)" : "%s", cols[dim]);
            snprintf(sql, sizeof sql, TOP_BY_SQL, key, ranged ? in_range : "", cols[dim],
                     packets ? "packets" : "bytes", cols[dim], limit);
            struct tel_top_query q = {.site_rid = m.site, .range = ranged ? &m.range : NULL, .from = 1764000000,
                                      .to = 1764000240, .dim = dim, .by_packets = packets, .limit = limit};
            struct tel_top_row *rows, all;
            size_t n, at = 0;
            CHECK(f.s->ops->tel_op_top(f.s, &q, &rows, &n, &all) == STORE_OK);
            for (size_t i = 0; i < n; i++) {
                char k[sizeof rows[i].key];
                if (addr) {
                    uint8_t kb[TEL_ADDR_KEY];
                    key_of(rows[i].key, kb);
                    hex_of(kb, TEL_ADDR_KEY, k);
                } else {
                    snprintf(k, sizeof k, "%s", rows[i].key);
                }
                at += (size_t)snprintf(got + at, sizeof got - at, "%s%s %s %lld %lld %lld", i ? ";" : "", k,
                                       rows[i].country, (long long)rows[i].bytes, (long long)rows[i].packets,
                                       (long long)rows[i].flows);
            }
            free(rows);
            const char *want = query(&f, sql);
            CHECK(strlen(want) > 0);
            CHECK_STR(got, want);
            snprintf(all_got, sizeof all_got, "%lld %lld %lld", (long long)all.bytes, (long long)all.packets,
                     (long long)all.flows);
            snprintf(sql, sizeof sql, TOP_ALL_SQL, ranged ? in_range : "");
            CHECK_STR(all_got, query(&f, sql));
        }
    /* every list at once (tel_op_tops, one read of the flows) as each alone */
    struct tel_top_list lists[2 * TEL_DIM_DST_PORT];
    for (int i = 0; i < 2 * TEL_DIM_DST_PORT; i++)
        lists[i] = (struct tel_top_list){.dim = i / 2 + 1, .by_packets = i % 2, .limit = 3 + i % 3};
    struct tel_top_query q = {.site_rid = m.site, .range = &m.range, .from = 1764000000, .to = 1764000240};
    struct tel_top_row all;
    CHECK(f.s->ops->tel_op_tops(f.s, &q, lists, 2 * TEL_DIM_DST_PORT, &all) == STORE_OK);
    for (int i = 0; i < 2 * TEL_DIM_DST_PORT; i++) {
        struct tel_top_query one = q;
        one.dim = lists[i].dim;
        one.by_packets = lists[i].by_packets;
        one.limit = lists[i].limit;
        struct tel_top_row *rows, one_all;
        size_t n;
        CHECK(f.s->ops->tel_op_top(f.s, &one, &rows, &n, &one_all) == STORE_OK);
        CHECK(n > 0 && n == lists[i].n && memcmp(rows, lists[i].rows, n * sizeof *rows) == 0);
        CHECK(one_all.bytes == all.bytes && one_all.packets == all.packets && one_all.flows == all.flows);
        free(rows);
    }
    tel_tops_clear(lists, 2 * TEL_DIM_DST_PORT);
    close_fixture(&f);
}

UNIT_MAIN(UNIT_CASE(rollups_equal_raw_however_batched), UNIT_CASE(rolled_back_flows_add_to_no_rollup),
          UNIT_CASE(packed_destinations_answer_as_raw),
          UNIT_CASE(waf_events_do_not_depend_on_arrival_order), UNIT_CASE(waf_entry_text_made_apart_is_the_same),
          UNIT_CASE(retention_removes_the_old_and_the_orphaned), UNIT_CASE(patterns_equal_the_sql_group_by),
          UNIT_CASE(top_lists_equal_the_sql_group_by))
