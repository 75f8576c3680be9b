/* test_pg_telemetry.c — the PostgreSQL telemetry store against the SQLite
 * one: the same records ingested into both (in uneven batches, re-sent,
 * out of order) must answer every telemetry read alike, count the same
 * stored and duplicate records, stop and purge the same rows. Runs a
 * throwaway cluster (tests/pg/cluster.sh) for its duration. */
#include <libpq-fe.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/ap/ap_kinds.h"
#include "api/cp/cp_common.h"
#include "api/op/op_kinds.h"
#include "blocks_check.h"
#include "store/migrations.h"
#include "store/pgsql/db.h"
#include "store/pgsql/pgsql.h"
#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "store/tel_top.h"
#include "store/telemetry_ap.h"
#include "store/telemetry_op.h"
#include "telemetry/ingest.h"
#include "unit.h"

static const int64_t NOW = 1764100000, T0 = 1764000000;
#define AP_SITE_ID "0000000000000055"
#define PORT_ID "0000000000000057"
#define PORT2_ID "0000000000000059"
#define PORT3_ID "000000000000005a"
static char cluster[64], server[160];

static void stop_cluster(void)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "tests/pg/cluster.sh stop %s/c; rm -rf %s", cluster, cluster);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not stop the cluster in %s\n", cluster);
}

/* A sanitizer's abort must not leave the server running. */
static void stop_on_abort(int sig)
{
    stop_cluster();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The cluster's connection string for database `db`, starting it once. */
static bool pg_url(const char *db, char *out, size_t size)
{
    if (!server[0]) {
        snprintf(cluster, sizeof cluster, "/tmp/parapet-pgunit-XXXXXX");
        if (!mkdtemp(cluster) || chmod(cluster, 0755) != 0)
            return false;
        char cmd[200];
        snprintf(cmd, sizeof cmd, "tests/pg/cluster.sh start %s/c > %s/url", cluster, cluster);
        if (system(cmd) != 0)
            return false;
        atexit(stop_cluster);
        signal(SIGABRT, stop_on_abort);
        snprintf(server, sizeof server, "postgresql:///parapet?host=%s/c&user=parapet", cluster);
    }
    PGconn *c = PQconnectdb(server);
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s LOCALE 'C' TEMPLATE template0", db);
    PGresult *r = PQexec(c, sql);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "  %s", PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    snprintf(out, size, "postgresql:///%s?host=%s/c&user=parapet", db, cluster);
    return ok;
}

/* ---- one store of each kind with the same resources ---- */

struct side {
    struct store *s;
    char dir[64], db[32]; /* SQLite's directory, or PostgreSQL's database */
    int64_t op_site, cp_site, ap_rid;
};

/* A resource with a fixed id (the same on both sides: entries name it). */
static int64_t make(struct store *s, const struct res_kind *k, int64_t parent, const char *name, const char *cidr,
                    const char *id)
{
    struct resource r = {.parent_rid = parent};
    snprintf(r.id, sizeof r.id, "%s", id);
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

static bool open_side(struct side *d, bool pg, const char *db)
{
    memset(d, 0, sizeof *d);
    if (pg) {
        char url[200];
        if (!pg_url(db, url, sizeof url) || !(d->s = pgsql_store_open(url)))
            return false;
        snprintf(d->db, sizeof d->db, "%s", db);
    } else {
        snprintf(d->dir, sizeof d->dir, "/tmp/parapet-pgunit-XXXXXX");
        char path[100];
        if (!mkdtemp(d->dir))
            return false;
        snprintf(path, sizeof path, "%s/t.db", d->dir);
        if (!(d->s = sqlite_store_open(path)))
            return false;
    }
    struct store *s = d->s;
    s->ops->begin(s, true);
    struct portal p = {.id = "p000000000000001", .name = "P"};
    struct customer c = {.id = "c000000000000001", .portal_id = "p000000000000001", .name = "C"};
    if (s->ops->portal_create(s, &p) || s->ops->customer_create(s, &c))
        abort();
    d->op_site = make(s, &OP_SITE, 0, "site", "10.0.0.0/24", "0000000000000051");
    d->cp_site = make(s, &CP_SITE, 0, "cp", "10.1.0.0/24", "0000000000000052");
    make(s, &CP_HOST, d->cp_site, "h5", "10.1.0.5/32", "0000000000000053");
    make(s, &CP_HOST, d->cp_site, "h6", "10.1.0.6/32", "0000000000000054");
    d->ap_rid = make(s, &AP_SITE, 0, "shop", NULL, AP_SITE_ID);
    int64_t dom = make(s, &AP_DOMAIN, d->ap_rid, "shop.example", NULL, "0000000000000056");
    make(s, &AP_DOMAIN_PORT, dom, "443", NULL, PORT_ID);
    int64_t api = make(s, &AP_DOMAIN, d->ap_rid, "api.example", NULL, "0000000000000058");
    make(s, &AP_DOMAIN_PORT, api, "443", NULL, PORT2_ID);
    make(s, &AP_DOMAIN_PORT, api, "8443", NULL, PORT3_ID);
    return s->ops->commit(s) == STORE_OK;
}

static void close_side(struct side *d)
{
    if (d->s)
        d->s->ops->close(d->s);
    if (d->dir[0]) {
        char cmd[100];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->dir);
        if (system(cmd) != 0)
            abort();
    }
}

static struct tel_ingest_result ingest(struct side *d, const char *ndjson)
{
    struct tel_ingest_result res = {0};
    char msg[TEL_MSG_BUF];
    struct store *s = d->s;
    s->ops->begin(s, true);
    if (telemetry_ingest(s, ndjson, strlen(ndjson), TEL_NDJSON, NOW, &res, msg, sizeof msg) == 0)
        CHECK(s->ops->commit(s) == STORE_OK);
    else {
        fprintf(stderr, "  ingest: %s\n", msg);
        unit_failed_checks++;
        s->ops->rollback(s);
    }
    return res;
}

/* Both sides take the batch and count alike. */
static void ingest_both(struct side *d, const char *ndjson, long stored, long duplicates)
{
    for (int i = 0; i < 2; i++) {
        struct tel_ingest_result r = ingest(&d[i], ndjson);
        CHECK_INT(r.stored, stored);
        CHECK_INT(r.duplicates, duplicates);
    }
}

/* flow i: to 10.0.0.x from a few sources, over 5 minutes and two hours;
 * every sixth an observation (policy "observed"; in the second hour, which
 * retention keeps) */
static char *flows(int from, int to)
{
    size_t cap = 420 * (size_t)(to - from) + 1, n = 0;
    char *buf = malloc(cap);
    buf[0] = '\0';
    for (int i = from; i < to; i++)
        n += (size_t)snprintf(buf + n, cap - n,
                              "{\"kind\":\"flow\",\"flow_id\":\"f%d\",\"time\":%lld,\"router\":\"r%d\",\"src_ip\":"
                              "\"198.51.100.%d\",\"dst_ip\":\"10.0.0.%d\",\"bytes\":%d,\"packets\":%d,\"protocol\":%d,"
                              "\"action\":\"%s\",\"src_country\":\"%s\",\"src_port\":%d,\"dst_port\":%d,"
                              "\"src_as\":%d%s}\n",
                              i, (long long)(T0 + (i % 5) * 60 + (i % 2) * 3600 + i % 7), i % 2, i % 9 + 1,
                              i % 3 + 1, 100 + i, 1 + i % 4, i % 4 ? 6 : 17, i % 3 ? "pass" : "drop",
                              i % 5 ? "NL" : "DE", 1024 + i % 11, i % 2 ? 443 : 80, 64500 + i % 3,
                              i % 6 != 3 ? "" : ",\"policy_type\":\"observed\"");
    return buf;
}

/* ---- comparing the answers ---- */

static char *dump(json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : strdup("(null)");
    json_decref(j);
    return text;
}

static void check_same_json(const char *what, json_t *a, json_t *b)
{
    char *ta = dump(a), *tb = dump(b);
    if (strcmp(ta, tb) != 0) {
        fprintf(stderr, "  %s differs:\n    sqlite %.600s\n    pgsql  %.600s\n", what, ta, tb);
        unit_failed_checks++;
    }
    free(ta);
    free(tb);
}

/* The rows without their random or store-internal keys. */
static json_t *strip(json_t *rows)
{
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        json_object_del(row, "weid");
        json_object_del(row, "event_id");
    }
    return rows;
}

static void compare_events(struct side *d)
{
    struct tel_event_query q = {.family = "op", .customer_id = "c000000000000001", .from = 0, .to = NOW,
                                .status = TEL_ANY, .limit = -1};
    for (int pass = 0; pass < 4; pass++) {
        if (pass == 1)
            q.status = TEL_ONGOING, q.limit = 1, q.offset = 1;
        if (pass == 2)
            q.status = TEL_STOPPED, q.site_rids = &d[0].op_site, q.n_sites = 1, q.offset = 0, q.limit = 10;
        if (pass == 3)
            q.family = "cp", q.site_rids = NULL, q.status = TEL_ANY, q.attack_type = "TCP SYN";
        json_t *rows[2] = {0};
        long total[2] = {-1, -2};
        for (int i = 0; i < 2; i++)
            CHECK(d[i].s->ops->tel_events_list(d[i].s, &q, &rows[i], &total[i]) == STORE_OK);
        CHECK_INT(total[1], total[0]);
        check_same_json("tel_events_list", rows[0], rows[1]);
    }
    json_t *downs[2] = {0};
    for (int i = 0; i < 2; i++)
        CHECK(d[i].s->ops->tel_flow_downs_list(d[i].s, d[i].op_site, 0, NOW, TEL_ANY, &downs[i]) == STORE_OK);
    check_same_json("tel_flow_downs_list", downs[0], downs[1]);
    struct tel_event_ref ev[2];
    for (int i = 0; i < 2; i++)
        CHECK(d[i].s->ops->tel_op_event_get(d[i].s, "op", "ev-op-1", &ev[i]) == STORE_OK);
    CHECK(memcmp(&ev[0], &ev[1], sizeof ev[0]) == 0);
    CHECK(ev[1].range.lo[0] == NET_V4 && ev[1].range.lo[1] == 10 && ev[1].range.hi[4] == 15);
}

static void compare_flows(struct side *d)
{
    int64_t bytes[2], packets[2];
    for (int i = 0; i < 2; i++)
        CHECK(d[i].s->ops->tel_site_volume(d[i].s, d[i].op_site, T0, T0 + 7200, &bytes[i], &packets[i]) == STORE_OK);
    CHECK_INT(bytes[1], bytes[0]);
    CHECK_INT(packets[1], packets[0]);
    struct tel_range range;
    memset(&range, 0, sizeof range);
    range.lo[0] = range.hi[0] = NET_V4;
    range.lo[1] = range.hi[1] = 10;
    range.hi[4] = 2;
    /* one site or the customer's, a range or none, the observations apart
     * or not, every policy or the observations only; in a read transaction
     * (PostgreSQL's rows then come one by one: pg_each_row) or not */
    for (int variant = 0; variant < 32; variant++) {
        struct tel_minutes_query q = {.site_rid = variant % 4 < 2 ? d[0].op_site : 0,
                                      .customer_id = "c000000000000001", .site_kind = "op.site",
                                      .range = variant % 2 ? &range : NULL, .from = T0 + 30, .to = T0 + 3 * 3600,
                                      .observed_too = variant & 4, .policy = variant & 8 ? "observed" : NULL};
        struct tel_minute *m[2] = {0}, *obs[2] = {0};
        size_t n[2] = {0, 1}, nobs[2] = {0, 1};
        for (int i = 0; i < 2; i++) {
            if (variant & 16)
                CHECK(d[i].s->ops->begin(d[i].s, false) == STORE_OK);
            CHECK(d[i].s->ops->tel_op_minutes(d[i].s, &q, &m[i], &n[i], &obs[i], &nobs[i]) == STORE_OK);
            if (variant & 16)
                CHECK(d[i].s->ops->rollback(d[i].s) == STORE_OK);
        }
        CHECK_INT(n[1], n[0]);
        CHECK(n[0] > 0 && n[0] == n[1] && memcmp(m[0], m[1], n[0] * sizeof *m[0]) == 0);
        if (q.observed_too && !q.policy) {
            /* the same sums as a query of the observations alone, on both sides */
            struct tel_minutes_query alone = q;
            alone.observed_too = false;
            alone.policy = "observed";
            struct tel_minute *a;
            size_t na;
            CHECK(d[1].s->ops->tel_op_minutes(d[1].s, &alone, &a, &na, NULL, NULL) == STORE_OK);
            CHECK(na > 0 && na <= n[0]);
            for (int i = 0; i < 2; i++)
                CHECK(nobs[i] == na && memcmp(obs[i], a, na * sizeof *a) == 0);
            free(a);
        } else {
            CHECK(nobs[0] == 0 && nobs[1] == 1); /* untouched */
        }
        free(m[0]);
        free(m[1]);
        free(obs[0]);
        free(obs[1]);
    }
    for (int dim = TEL_DIM_APP; dim <= TEL_DIM_DST_PORT; dim++)
        for (int mode = 0; mode < 3; mode++) {
            bool hourly = mode == 2;
            if (hourly && dim > TEL_DIM_PROTOCOL)
                continue;
            struct tel_top_query q = {.site_rid = d[0].op_site, .range = mode == 1 ? &range : NULL, .from = T0,
                                      .to = hourly ? T0 + 2 * 86400 : NOW, .dim = dim, .hourly = hourly,
                                      .by_packets = dim % 2, .limit = 3};
            struct tel_top_row *rows[2] = {0}, all[2];
            size_t n[2] = {0, 1};
            for (int i = 0; i < 2; i++)
                CHECK(d[i].s->ops->tel_op_top(d[i].s, &q, &rows[i], &n[i], &all[i]) == STORE_OK);
            CHECK(n[0] > 0 && n[0] == n[1] && memcmp(rows[0], rows[1], n[0] * sizeof *rows[0]) == 0);
            CHECK(memcmp(&all[0], &all[1], sizeof all[0]) == 0);
            if (dim == TEL_DIM_DST && n[1])
                CHECK(strncmp(rows[1][0].key, "10.0.0.", 7) == 0);
            free(rows[0]);
            free(rows[1]);
        }
    /* every raw list read together (an event's characterization), with a range and without */
    for (int with_range = 0; with_range < 2; with_range++) {
        enum { LISTS = TEL_DIM_DST_PORT + 1 };
        struct tel_top_query q = {.site_rid = d[0].op_site, .range = with_range ? &range : NULL, .from = T0, .to = NOW};
        struct tel_top_list lists[2][LISTS];
        struct tel_top_row all[2];
        for (int i = 0; i < 2; i++) {
            for (int l = 0; l < LISTS; l++) /* each dimension once, the source twice (by packets too) */
                lists[i][l] = (struct tel_top_list){
                    .dim = l ? l : TEL_DIM_SRC, .by_packets = l == 0, .limit = 2 + l % 3};
            memset(&all[i], 0, sizeof all[i]);
            CHECK(d[i].s->ops->tel_op_tops(d[i].s, &q, lists[i], LISTS, &all[i]) == STORE_OK);
        }
        CHECK(all[0].flows > 0 && memcmp(&all[0], &all[1], sizeof all[0]) == 0);
        for (int l = 0; l < LISTS; l++)
            CHECK(lists[0][l].n > 0 && lists[0][l].n == lists[1][l].n &&
                  memcmp(lists[0][l].rows, lists[1][l].rows, lists[0][l].n * sizeof *lists[0][l].rows) == 0);
        tel_tops_clear(lists[0], LISTS);
        tel_tops_clear(lists[1], LISTS);
    }
    for (int order = TEL_BY_BYTES; order <= TEL_BY_PEAK_PACKETS; order++) {
        struct tel_pattern *p[2] = {0};
        size_t n[2] = {0, 1};
        for (int i = 0; i < 2; i++)
            CHECK(d[i].s->ops->tel_op_patterns(d[i].s, d[i].op_site, order % 2 ? &range : NULL, T0, NOW, order, 4,
                                               &p[i], &n[i]) == STORE_OK);
        CHECK(n[0] > 0 && n[0] == n[1] && memcmp(p[0], p[1], n[0] * sizeof *p[0]) == 0);
        if (n[1])
            CHECK(strncmp(p[1][0].cidr, "198.51.100.0/24", 15) == 0);
        free(p[0]);
        free(p[1]);
    }
}

static int collect(void *arg, const char *entry)
{
    json_array_append_new(arg, json_string(entry));
    return 0;
}

static void compare_ap(struct side *d, long events, size_t minutes)
{
    struct tel_waf_event_query q = {.customer_id = "c000000000000001", .site_rid = d[0].ap_rid, .from = 0,
                                    .to = NOW, .limit = -1};
    json_t *rows[2] = {0};
    long total[2] = {-1, -2};
    for (int i = 0; i < 2; i++)
        CHECK(d[i].s->ops->tel_waf_events_list(d[i].s, &q, &rows[i], &total[i]) == STORE_OK);
    CHECK_INT(total[1], total[0]);
    CHECK_INT(total[1], events);
    for (size_t e = 0; e < json_array_size(rows[0]) && e < json_array_size(rows[1]); e++) {
        struct tel_waf_event_ref ref[2];
        for (int i = 0; i < 2; i++) {
            const char *id = json_string_value(json_object_get(json_array_get(rows[i], e), "event_id"));
            CHECK(d[i].s->ops->tel_waf_event_get(d[i].s, id ? id : "", &ref[i]) == STORE_OK);
        }
        CHECK_INT(ref[1].start_time, ref[0].start_time);
        CHECK_INT(ref[1].end_time, ref[0].end_time);
        for (int dim = TEL_WAF_TYPE; dim <= TEL_WAF_URL; dim++) {
            json_t *counts[2] = {0};
            int64_t all[2] = {-1, -2};
            for (int i = 0; i < 2; i++)
                CHECK(d[i].s->ops->tel_waf_event_counts(d[i].s, ref[i].weid, dim, 2, &counts[i], &all[i]) ==
                      STORE_OK);
            CHECK_INT(all[1], all[0]);
            check_same_json("tel_waf_event_counts", counts[0], counts[1]);
        }
        char ip[2][64];
        json_t *logs[2] = {0}, *each[2] = {json_array(), json_array()};
        long n[2] = {-1, -2};
        for (int i = 0; i < 2; i++) {
            CHECK(d[i].s->ops->tel_waf_top_source(d[i].s, ref[i].weid, "NL", ip[i]) == STORE_OK);
            CHECK(d[i].s->ops->tel_waf_logs_list(d[i].s, ref[i].weid, 0, NOW, 1, -1, &logs[i], &n[i]) == STORE_OK);
            CHECK(d[i].s->ops->tel_waf_logs_each(d[i].s, ref[i].weid, 100, collect, each[i]) == STORE_OK);
        }
        CHECK_STR(ip[1], ip[0]);
        CHECK_INT(n[1], n[0]);
        check_same_json("tel_waf_logs_list", logs[0], logs[1]);
        check_same_json("tel_waf_logs_each", each[0], each[1]);
    }
    check_same_json("tel_waf_events_list", strip(rows[0]), strip(rows[1]));
    /* outside a transaction and in a read one (PostgreSQL's rows then come
     * one by one: pg_each_row) */
    for (int in_tx = 0; in_tx < 2; in_tx++) {
        struct tel_bw_minute *bw[2] = {0};
        size_t n[2] = {0, 1};
        for (int i = 0; i < 2; i++) {
            if (in_tx)
                CHECK(d[i].s->ops->begin(d[i].s, false) == STORE_OK);
            CHECK(d[i].s->ops->tel_bandwidth_minutes(d[i].s, d[i].ap_rid, T0, NOW, &bw[i], &n[i]) == STORE_OK);
            if (in_tx)
                CHECK(d[i].s->ops->rollback(d[i].s) == STORE_OK);
        }
        CHECK_INT(n[0], minutes);
        CHECK(n[0] == n[1] && (!n[0] || memcmp(bw[0], bw[1], n[0] * sizeof *bw[0]) == 0));
        free(bw[0]);
        free(bw[1]);
    }
}

/* ---- the records ---- */

static const char EVENTS[] =
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-op-1\",\"attack_type\":\"UDP Fragmentation\",\"site_ip\":\"10.0.0.0/28\","
    "\"start_time\":1764000000,\"max_bps\":8000,\"max_pps\":10,\"severity\":\"high\"}\n"
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-op-2\",\"attack_type\":\"TCP SYN\",\"site_ip\":\"10.0.0.3\","
    "\"start_time\":1764000100,\"end_time\":1764000500,\"max_bps\":5,\"max_pps\":1}\n"
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-op-3\",\"attack_type\":\"TCP SYN\",\"site_ip\":\"10.0.0.1\","
    "\"start_time\":1764000200}\n"
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-cp-net\",\"attack_type\":\"TCP SYN\",\"site_ip\":\"10.1.0.0/24\","
    "\"start_time\":1764000000}\n"
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-cp-h5\",\"attack_type\":\"TCP SYN\",\"site_ip\":\"10.1.0.5\","
    "\"start_time\":1764000010}\n"
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-cp-h6\",\"attack_type\":\"UDP Fragmentation\",\"site_ip\":\"10.1.0.6\","
    "\"start_time\":1764000020}\n"
    "{\"kind\":\"flow_down\",\"alert_id\":\"fd-1\",\"router_name\":\"edge-1\",\"site_ip\":\"10.0.0.0/24\","
    "\"start_time\":1764000000}\n"
    "{\"kind\":\"flow_down\",\"alert_id\":\"fd-2\",\"router_name\":\"edge-2\",\"site_ip\":\"10.0.0.0/24\","
    "\"start_time\":1764000300,\"end_time\":1764000900}\n";
/* re-sent: ev-op-1 closes with a larger peak, ev-op-2 changes nothing, fd-1 closes, fd-2 is known */
static const char EVENTS_AGAIN[] =
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-op-1\",\"attack_type\":\"UDP Fragmentation\",\"site_ip\":\"10.0.0.0/28\","
    "\"start_time\":1764000000,\"end_time\":1764000600,\"max_bps\":9000,\"max_pps\":10,\"severity\":\"high\"}\n"
    "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-op-2\",\"attack_type\":\"TCP SYN\",\"site_ip\":\"10.0.0.3\","
    "\"start_time\":1764000100,\"end_time\":1764000500,\"max_bps\":5,\"max_pps\":1}\n"
    "{\"kind\":\"flow_down\",\"alert_id\":\"fd-1\",\"router_name\":\"edge-1\",\"site_ip\":\"10.0.0.0/24\","
    "\"start_time\":1764000000,\"end_time\":1764000700}\n"
    "{\"kind\":\"flow_down\",\"alert_id\":\"fd-2\",\"router_name\":\"edge-2\",\"site_ip\":\"10.0.0.0/24\","
    "\"start_time\":1764000300,\"end_time\":1764000900}\n";
/* the same sample twice in one batch: changed (stored), then the same (a duplicate) */
static const char BANDWIDTH[] =
    "{\"kind\":\"bandwidth\",\"site_id\":\"" AP_SITE_ID "\",\"time\":1764000000,\"node\":\"a\",\"raw_in\":100,\"raw_out\":200,"
    "\"clean_in\":90,\"clean_out\":200}\n"
    "{\"kind\":\"bandwidth\",\"site_id\":\"" AP_SITE_ID "\",\"time\":1764000010,\"node\":\"b\",\"raw_in\":1,\"raw_out\":2,"
    "\"clean_in\":1,\"clean_out\":2}\n"
    "{\"kind\":\"bandwidth\",\"site_id\":\"" AP_SITE_ID "\",\"time\":1764000020,\"node\":\"a\",\"raw_in\":150,\"raw_out\":200,"
    "\"clean_in\":90,\"clean_out\":200}\n"
    "{\"kind\":\"bandwidth\",\"site_id\":\"" AP_SITE_ID "\",\"time\":1764000030,\"node\":\"a\",\"raw_in\":150,\"raw_out\":200,"
    "\"clean_in\":90,\"clean_out\":200}\n"
    "{\"kind\":\"bandwidth\",\"site_id\":\"" AP_SITE_ID "\",\"time\":1764000060,\"node\":\"a\",\"raw_in\":7,\"raw_out\":8,"
    "\"clean_in\":7,\"clean_out\":8}\n";

/* WAF entries: three events, w5 arriving late bridges the first two */
static void waf_entries(struct side *d)
{
    static const int times[] = {1764000000, 1764000300, 1764001100, 1764003000, 1764003100, 1764000700, 1764005000};
    for (size_t i = 0; i < sizeof times / sizeof *times; i++) {
        char line[512];
        snprintf(line, sizeof line,
                 "{\"kind\":\"waf_log\",\"_id\":\"w%zu\",\"timestamp\":%d,\"domain_port_id\":\"%s\",\"src_ip\":"
                 "\"198.51.100.%zu\",\"src_ip_cc\":\"%s\",\"attack_type\":\"%s\",\"severity\":\"%s\",\"http_path\":"
                 "\"/%zu\"}\n",
                 i, times[i], PORT_ID, i % 2 + 1, i % 3 ? "NL" : "DE", i % 2 ? "xss" : "sqli", i == 3 ? "high" : "low", i % 3);
        ingest_both(d, line, 1, 0);
    }
    ingest_both(d, "{\"kind\":\"waf_log\",\"_id\":\"w2\",\"timestamp\":1764001100,\"domain_port_id\":\"" PORT_ID "\","
                   "\"src_ip\":\"198.51.100.1\",\"attack_type\":\"xss\"}\n",
                0, 1);
}

TEST(pgsql_answers_as_sqlite)
{
    struct side d[2];
    if (!open_side(&d[0], false, NULL) || !open_side(&d[1], true, "same")) {
        CHECK(!"the stores open");
        close_side(&d[0]);
        close_side(&d[1]);
        return;
    }
    /* flows in uneven batches around the ingest chunk (2048), each sent twice */
    int cuts[] = {0, 1, 700, 2048, 2049, 4500};
    for (size_t i = 0; i + 1 < sizeof cuts / sizeof *cuts; i++) {
        char *part = flows(cuts[i], cuts[i + 1]);
        ingest_both(d, part, cuts[i + 1] - cuts[i], 0);
        ingest_both(d, part, 0, cuts[i + 1] - cuts[i]);
        free(part);
    }
    ingest_both(d, EVENTS, 8, 0);
    ingest_both(d, EVENTS_AGAIN, 2, 2);
    ingest_both(d, BANDWIDTH, 4, 1);
    waf_entries(d);
    compare_events(d);
    compare_flows(d);
    compare_ap(d, 3, 2);
    /* CleanPipe stop: the network event and the host events inside it */
    long stopped[2] = {-1, -2};
    for (int i = 0; i < 2; i++)
        CHECK(d[i].s->ops->tel_event_stop(d[i].s, "ev-cp-net", true, NOW, &stopped[i]) == STORE_OK);
    CHECK_INT(stopped[0], 3);
    CHECK_INT(stopped[1], stopped[0]);
    compare_events(d);
    /* retention: the cut-off in the middle of the flows, a few rows a call */
    for (int round = 0; round < 400; round++) {
        long removed[2] = {-1, -2};
        for (int i = 0; i < 2; i++)
            CHECK(d[i].s->ops->tel_purge(d[i].s, T0 + 3600, 50, &removed[i]) == STORE_OK);
        CHECK_INT(removed[1], removed[0]);
        if (removed[0] <= 0)
            break;
    }
    compare_flows(d);
    compare_ap(d, 1, 0);
    close_side(&d[0]);
    close_side(&d[1]);
}

/* ---- WAF grouping over shuffled, split and re-sent batches ---- */

/* Appends text (NULL: "(null)") and then a '|' or, when last, a newline. */
static void append_cell(char **out, size_t *n, size_t *cap, const char *text, bool last)
{
    text = text ? text : "(null)";
    size_t len = strlen(text);
    while (*n + len + 2 > *cap)
        *out = realloc(*out, *cap *= 2);
    memcpy(*out + *n, text, len);
    *n += len;
    (*out)[(*n)++] = last ? '\n' : '|';
    (*out)[*n] = '\0';
}

/* The rows of `sql` in the side's database, a line each, columns joined by
 * '|' (both stores print integers and texts alike). */
static char *rows_text(struct side *d, const char *sql)
{
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    if (d->db[0]) {
        char url[200];
        snprintf(url, sizeof url, "postgresql:///%s?host=%s/c&user=parapet", d->db, cluster);
        PGconn *c = PQconnectdb(url);
        PGresult *r = PQexec(c, sql);
        if (PQresultStatus(r) != PGRES_TUPLES_OK)
            append_cell(&out, &n, &cap, PQerrorMessage(c), true);
        for (int i = 0; i < PQntuples(r); i++)
            for (int j = 0; j < PQnfields(r); j++)
                append_cell(&out, &n, &cap, PQgetisnull(r, i, j) ? NULL : PQgetvalue(r, i, j),
                            j + 1 == PQnfields(r));
        PQclear(r);
        PQfinish(c);
    } else {
        char path[100];
        snprintf(path, sizeof path, "%s/t.db", d->dir);
        sqlite3 *db;
        sqlite3_stmt *st = NULL;
        if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
            sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
            append_cell(&out, &n, &cap, sqlite3_errmsg(db), true);
        while (st && sqlite3_step(st) == SQLITE_ROW)
            for (int j = 0; j < sqlite3_column_count(st); j++)
                append_cell(&out, &n, &cap, (const char *)sqlite3_column_text(st, j),
                            j + 1 == sqlite3_column_count(st));
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    return out;
}

/* Runs sql on a connection of its own to database db; its first value
 * (as a number), or -1. */
static long side_sql(const char *db, const char *sql)
{
    char url[200];
    snprintf(url, sizeof url, "postgresql:///%s?host=%s/c&user=parapet", db, cluster);
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = PQresultStatus(r);
    long v = st == PGRES_TUPLES_OK && PQntuples(r) ? atol(PQgetvalue(r, 0, 0)) : st == PGRES_COMMAND_OK ? 0 : -1;
    PQclear(r);
    PQfinish(c);
    return v;
}

/* Each query answers the same rows, not none, on both sides. */
static void same_rows(struct side *d, const char *when, const char *const *queries, size_t n)
{
    for (size_t q = 0; q < n; q++) {
        char *a = rows_text(&d[0], queries[q]), *b = rows_text(&d[1], queries[q]);
        if (strcmp(a, b) != 0) {
            fprintf(stderr, "  %s: query %zu differs:\n--- sqlite\n%.3000s--- pgsql\n%.3000s", when, q, a, b);
            unit_failed_checks++;
        }
        CHECK(a[0] != '\0');
        free(a);
        free(b);
    }
}

/* The WAF tables of both sides hold the same rows: events (by port and
 * start), their counts, the entries (their event, text and order of
 * insertion) and no counts or entries of an event that is gone. */
static void compare_waf_tables(struct side *d, const char *when)
{
    static const char *const queries[] = {
        "SELECT domain_port_id, domain_name, customer_id, start_time, end_time, attack_count, severity "
        "FROM tel_waf_events ORDER BY domain_port_id, start_time",
        "SELECT e.domain_port_id, e.start_time, c.dim, c.key, c.count FROM tel_waf_event_counts c "
        "LEFT JOIN tel_waf_events e ON e.weid = c.weid ORDER BY 1, 2, 3, 4",
        "SELECT l.log_id, e.domain_port_id, e.start_time, l.ts, l.severity, l.attack_type, l.country, l.path, "
        "l.entry, row_number() OVER (ORDER BY l.lid) FROM tel_waf_logs l LEFT JOIN tel_waf_events e "
        "ON e.weid = l.weid ORDER BY l.log_id",
    };
    same_rows(d, when, queries, sizeof queries / sizeof *queries);
}

/* Per port, four clusters of ten entries: one event each (steps under
 * the gap, one entry twice at the same time), and an entry exactly the gap
 * after it, an event of its own. Entry 4 of a cluster is its only bridge:
 * without it the cluster is two events. */
enum { WAF_PORTS = 3, WAF_CLUSTERS = 4, WAF_PER = 10, WAF_ALL = WAF_PORTS * WAF_CLUSTERS * WAF_PER, WAF_BRIDGE = 4 };

static void waf_line(char *buf, size_t size, int i, int64_t shift)
{
    static const char *const ports[WAF_PORTS] = {PORT_ID, PORT2_ID, PORT3_ID};
    static const int offsets[WAF_PER] = {0, 300, 300, 599, 1400, 1000, 1800, 2300, 2899, 3499};
    static const char *const types[] = {"sqli", "xss", "oscmd"}, *const cc[] = {"NL", "DE", "US"};
    static const char *const sev[] = {"low", "medium", "high"};
    int port = i / (WAF_CLUSTERS * WAF_PER), cl = i / WAF_PER % WAF_CLUSTERS, k = i % WAF_PER;
    snprintf(buf, size,
             "{\"kind\":\"waf_log\",\"_id\":\"g%d\",\"timestamp\":%lld,\"domain_port_id\":\"%s\",\"src_ip\":"
             "\"198.51.100.%d\",\"src_ip_cc\":\"%s\",\"attack_type\":\"%s\",\"severity\":\"%s\",\"http_path\":"
             "\"/p%d\"}\n",
             i, (long long)(T0 + port * 97 + cl * 5000 + offsets[k] + shift), ports[port], i % 5 + 1, cc[i % 3],
             types[i * 7 % 3], sev[i * 5 % 7 % 3], i % 4);
}

/* A batch of the entries order[from..to) (and the line `extra`), sent to
 * both sides, which must count the entries not sent before as stored. */
static void send_waf(struct side *d, const int *order, size_t from, size_t to, bool *sent, const char *extra,
                     long extra_stored)
{
    char *buf = malloc((to - from) * 400 + 1024), line[400];
    size_t n = 0;
    long stored = extra_stored, dups = 0;
    buf[0] = '\0';
    for (size_t k = from; k < to; k++) {
        waf_line(line, sizeof line, order[k], 0);
        n += (size_t)snprintf(buf + n, 400, "%s", line);
        if (k == (from + to) / 2 && extra)
            n += (size_t)snprintf(buf + n, 1024, "%s", extra);
        if (sent[order[k]])
            dups++;
        else
            stored++;
        sent[order[k]] = true;
    }
    ingest_both(d, buf, stored, dups);
    free(buf);
}

TEST(waf_grouping_as_sqlite)
{
    struct side d[2];
    if (!open_side(&d[0], false, NULL) || !open_side(&d[1], true, "wafgroup")) {
        CHECK(!"the stores open");
        close_side(&d[0]);
        close_side(&d[1]);
        return;
    }
    /* all entries shuffled (a fixed LCG), the bridges of clusters 0-2 held back */
    int order[WAF_ALL], held[WAF_ALL];
    size_t n = 0, n_held = 0;
    uint32_t seed = 12345;
    for (int i = 0; i < WAF_ALL; i++)
        order[i] = i;
    for (int i = WAF_ALL - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)(seed >> 8) % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int k = 0; k < WAF_ALL; k++) {
        int i = order[k];
        if (i % WAF_PER == WAF_BRIDGE && i / WAF_PER % WAF_CLUSTERS < 3)
            held[n_held++] = i;
        else
            order[n++] = i;
    }
    bool sent[WAF_ALL] = {0};
    /* uneven batches; one with a DDoS event amid the entries */
    static const size_t sizes[] = {1, 5, 17, 3, 40, 2, 11};
    static const char ddos[] = "{\"kind\":\"ddos_event\",\"alert_id\":\"ev-waf\",\"attack_type\":\"TCP SYN\","
                               "\"site_ip\":\"10.0.0.3\",\"start_time\":1764000100}\n";
    for (size_t from = 0, b = 0; from < n; b++) {
        size_t to = from + sizes[b % 7] < n ? from + sizes[b % 7] : n;
        send_waf(d, order, from, to, sent, b == 4 ? ddos : NULL, b == 4);
        compare_waf_tables(d, "first pass");
        from = to;
    }
    compare_ap(d, WAF_PORTS * (3 * 3 + 2), 0); /* clusters 0-2: two events and the one the gap after */
    /* re-sent in part with new ones: the first 20 sent again, each twice in one batch, with half the bridges */
    int again[2 * 20 + WAF_ALL];
    size_t m = 0;
    for (size_t k = 0; k < 20; k++)
        again[m++] = order[k];
    for (size_t k = 0; k < n_held / 2; k++)
        again[m++] = held[k];
    for (size_t k = 0; k < 20; k++)
        again[m++] = order[19 - k];
    send_waf(d, again, 0, m, sent, NULL, 0);
    compare_waf_tables(d, "re-sent");
    /* the other bridges, each twice in the batch, the second one under a changed time */
    m = 0;
    for (size_t k = n_held / 2; k < n_held; k++)
        again[m++] = held[k];
    char *last = malloc(m * 800 + 1), line[400];
    size_t len = 0;
    for (size_t k = 0; k < m; k++) {
        waf_line(line, sizeof line, again[k], 0);
        len += (size_t)snprintf(last + len, 400, "%s", line);
    }
    for (size_t k = 0; k < m; k++) {
        waf_line(line, sizeof line, again[m - 1 - k], 5000);
        len += (size_t)snprintf(last + len, 400, "%s", line);
    }
    ingest_both(d, last, (long)m, (long)m);
    free(last);
    compare_waf_tables(d, "bridged");
    compare_ap(d, WAF_PORTS * WAF_CLUSTERS * 2, 0);
    /* migration 019 counts the sources of entries stored before it as
     * ingest does (here as SQLite's ingest did) */
    CHECK(side_sql(d[1].db, "WITH x AS (DELETE FROM tel_waf_event_counts WHERE dim = 4 RETURNING 1) "
                            "SELECT count(*) FROM x") > 10);
    const char *backfill = NULL;
    for (int i = 0; i < pg_migrations_count; i++)
        if (pg_migrations[i].version == 19)
            backfill = pg_migrations[i].sql;
    CHECK(backfill && side_sql(d[1].db, backfill) == 0);
    compare_waf_tables(d, "counted again by migration 019");
    close_side(&d[0]);
    close_side(&d[1]);
}

/* ---- flows: duplicates, counters, a failed batch ---- */

/* Appends flow `id` at `time` from `src` (policy_type `policy`, "" none) to
 * buf (at *n, buf holding cap). */
static void flow_line(char *buf, size_t cap, size_t *n, const char *id, int64_t time, const char *src, int bytes,
                      const char *policy, const char *app)
{
    *n += (size_t)snprintf(buf + *n, cap - *n,
                           "{\"kind\":\"flow\",\"flow_id\":\"%s\",\"time\":%lld,\"router\":\"r1\",\"src_ip\":\"%s\","
                           "\"dst_ip\":\"10.0.0.%d\",\"bytes\":%d,\"packets\":%d,\"protocol\":%d,\"src_as\":%d,"
                           "\"action\":\"%s\",\"app\":\"%s\"%s%s%s}\n",
                           id, (long long)time, src, bytes % 5 + 1, bytes, bytes % 7 + 1, bytes % 2 ? 6 : 17,
                           64500 + bytes % 3, bytes % 3 ? "pass" : "drop", app, policy[0] ? ",\"policy_type\":\"" : "",
                           policy, policy[0] ? "\"" : "");
}

/* A batch of `count` flows f<from>.. (counters every fourth: verdicts
 * from 0.0.0.0; observations from 0.0.0.0 every 25th, not counters), each
 * key once, over two hours and two days. */
static char *keyed_flows(int from, int count, int bytes_shift)
{
    size_t cap = 400 * (size_t)count + 1, n = 0;
    char *buf = malloc(cap), id[32];
    buf[0] = '\0';
    for (int i = from; i < from + count; i++) {
        snprintf(id, sizeof id, "f%d", i);
        bool counter = i % 4 == 0, observed = i % 25 == 0;
        flow_line(buf, cap, &n, id, T0 + (i % 9) * 60 + (i % 2) * 3600 + (i % 3 == 0) * 86400,
                  counter || observed ? "0.0.0.0" : "198.51.100.7", 100 + i + bytes_shift,
                  observed ? "observed" : counter ? "acl" : "", i % 2 ? "web" : "dns");
    }
    return buf;
}

/* `count` flows n<from>.. within 500 seconds of the second day (a slice's
 * sites span little time: pgsql/tel_ingest.c reads the stored keys of
 * those windows rather than looking each key up). */
static char *narrow_flows(int from, int count, int bytes_shift)
{
    size_t cap = 400 * (size_t)count + 1, n = 0;
    char *buf = malloc(cap), id[32];
    buf[0] = '\0';
    for (int i = from; i < from + count; i++) {
        snprintf(id, sizeof id, "n%d", i);
        flow_line(buf, cap, &n, id, T0 + 90000 + (i * 7) % 500, i % 4 ? "198.51.100.7" : "0.0.0.0",
                  100 + i + bytes_shift, i % 4 ? "" : "acl", i % 2 ? "web" : "dns");
    }
    return buf;
}

/* The flow tables of both sides hold the same rows (the raw flows as
 * stored: the first of a key) and roll-ups. */
static void compare_flow_tables(struct side *d, const char *when)
{
    static const char *const queries[] = {
        "SELECT site_rid, ts, fid, bytes, packets, src_as, app, policy, action FROM tel_flows ORDER BY 1, 2, 3",
        "SELECT site_rid, dim, hour, key, bytes, packets, flows FROM tel_flow_hours ORDER BY 1, 2, 3, 4",
        "SELECT site_rid, dim, day, key, bytes, packets, flows FROM tel_flow_days ORDER BY 1, 2, 3, 4",
        "SELECT site_rid, hour, action, policy, flows, length(mins) FROM tel_site_hours ORDER BY 1, 2, 3, 4",
        "SELECT site_rid, minute, length(cells) FROM tel_dst_minutes ORDER BY 1, 2",
        "SELECT site_rid, hour, length(cells) FROM tel_dst_hours ORDER BY 1, 2",
    };
    same_rows(d, when, queries, sizeof queries / sizeof *queries);
}

/* A batch that fails after its first chunk was stored (a bad record after
 * 2048 flows): rolled back, nothing of it is kept. */
static void failed_batch(struct side *d, const char *ndjson)
{
    char msg[TEL_MSG_BUF];
    for (int i = 0; i < 2; i++) {
        struct tel_ingest_result res = {0};
        struct store *s = d[i].s;
        CHECK(s->ops->begin(s, true) == STORE_OK);
        CHECK(telemetry_ingest(s, ndjson, strlen(ndjson), TEL_NDJSON, NOW, &res, msg, sizeof msg) != 0);
        CHECK(s->ops->rollback(s) == STORE_OK);
    }
}

/* Duplicates within a batch (the first stored wins, in one chunk and across
 * chunks) and across batches (re-sent with other values: they count
 * nowhere), counters kept out of the hourly breakdowns, and a failed batch
 * whose sums are not written by the next: both stores alike. */
TEST(flow_duplicates_as_sqlite)
{
    struct side d[2];
    if (!open_side(&d[0], false, NULL) || !open_side(&d[1], true, "dups")) {
        CHECK(!"the stores open");
        close_side(&d[0]);
        close_side(&d[1]);
        return;
    }
    /* one batch: 3000 keys (two chunks), then 1000 of them again with other
     * values and apps, the repeats of f5 within the first chunk */
    char *first = keyed_flows(0, 3000, 0), *again = keyed_flows(0, 1000, 50);
    size_t cap = strlen(first) + strlen(again) + 1024, n = strlen(first);
    char *batch = malloc(cap);
    memcpy(batch, first, n + 1);
    flow_line(batch, cap, &n, "f5", T0 + 5 * 60 + 3600, "198.51.100.7", 77777, "", "other");
    memcpy(batch + n, again, strlen(again) + 1);
    ingest_both(d, batch, 3000, 1001);
    compare_flow_tables(d, "one batch");
    /* re-sent in another batch with new ones: only those count */
    free(again);
    again = keyed_flows(2500, 1000, 9);
    ingest_both(d, again, 500, 500);
    compare_flow_tables(d, "re-sent");
    /* a failed batch of new keys, then some of them again in a good one */
    char *failing = keyed_flows(5000, 2100, 3);
    size_t fn = strlen(failing);
    failing = realloc(failing, fn + 64);
    snprintf(failing + fn, 64, "{\"kind\":\"flow\",\"flow_id\":\"bad\"}\n");
    failed_batch(d, failing);
    compare_flow_tables(d, "rolled back");
    char *later = keyed_flows(6000, 200, 0);
    ingest_both(d, later, 200, 0);
    /* flows close in time, then a third of them again among new ones */
    char *close = narrow_flows(0, 3000, 0), *close_again = narrow_flows(2000, 2000, 7);
    ingest_both(d, close, 3000, 0);
    ingest_both(d, close_again, 1000, 1000);
    compare_flow_tables(d, "close in time");
    free(close);
    free(close_again);
    compare_flow_tables(d, "after the rollback");
    compare_flows(d);
    free(first);
    free(again);
    free(batch);
    free(failing);
    free(later);
    close_side(&d[0]);
    close_side(&d[1]);
}

/* The raw flows go in by a COPY that runs while the ingest goes on
 * (pg_copy_start): when it fails, here in the batch's second chunk, the
 * batch fails (its next statement, or its COMMIT) and stores nothing. */
TEST(a_failed_copy_fails_its_batch)
{
    struct side d = {0};
    if (!open_side(&d, true, "copyfail")) {
        CHECK(!"the store opens");
        close_side(&d);
        return;
    }
    CHECK(side_sql("copyfail", "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
                               "$$BEGIN RAISE EXCEPTION 'refused'; END$$") == 0);
    CHECK(side_sql("copyfail", "CREATE TRIGGER refuse BEFORE INSERT ON tel_flows FOR EACH ROW "
                               "WHEN (NEW.bytes = 424242) EXECUTE FUNCTION refuse()") == 0);
    /* flow 2,500 of 3,000 (the second chunk) has 424,242 bytes */
    char *batch = keyed_flows(0, 3000, 424242 - 100 - 2500);
    char msg[TEL_MSG_BUF];
    struct tel_ingest_result res = {0};
    CHECK(d.s->ops->begin(d.s, true) == STORE_OK);
    int ingested = telemetry_ingest(d.s, batch, strlen(batch), TEL_NDJSON, NOW, &res, msg, sizeof msg);
    int committed = ingested == 0 ? d.s->ops->commit(d.s) : (d.s->ops->rollback(d.s), STORE_ERROR);
    CHECK(committed != STORE_OK);
    CHECK_INT(side_sql("copyfail", "SELECT count(*) FROM tel_flows"), 0);
    CHECK_INT(side_sql("copyfail", "SELECT count(*) FROM tel_site_hours"), 0);
    /* the same batch once the trigger is gone: every flow */
    CHECK(side_sql("copyfail", "DROP TRIGGER refuse ON tel_flows") == 0);
    res = ingest(&d, batch);
    CHECK_INT(res.stored, 3000);
    CHECK_INT(side_sql("copyfail", "SELECT count(*) FROM tel_flows"), 3000);
    free(batch);
    close_side(&d);
}

/* The number of monthly partitions of tel_flows (pg/010), or -1. */
static long flow_months(const char *db)
{
    return side_sql(db, "SELECT count(*) FROM pg_inherits WHERE inhparent = 'tel_flows'::regclass");
}

/* Flows of October and November 2025 go into a partition each, made on
 * demand; retention with the cut-off on 1 November drops October whole
 * (more rows than the call's bound, in one call) and keeps November. */
TEST(months_are_partitions)
{
    struct side d = {0};
    if (!open_side(&d, true, "months")) {
        CHECK(!"the store opens");
        close_side(&d);
        return;
    }
    const int64_t oct = 1761955200 /* 2025-11-01 */ - 5 * 86400, nov = 1761955200 + 86400;
    char batch[2048];
    size_t n = 0;
    for (int i = 0; i < 6; i++)
        n += (size_t)snprintf(batch + n, sizeof batch - n,
                              "{\"kind\":\"flow\",\"flow_id\":\"m%d\",\"time\":%lld,\"router\":\"r\",\"src_ip\":"
                              "\"198.51.100.1\",\"dst_ip\":\"10.0.0.1\",\"bytes\":1000,\"packets\":1,\"protocol\":6}\n",
                              i, (long long)(i < 4 ? oct + i : nov + i));
    CHECK_INT(ingest(&d, batch).stored, 6);
    CHECK_INT(flow_months("months"), 2);
    struct store *s = d.s;
    long removed = 0, all = 0;
    do {
        CHECK(s->ops->begin(s, true) == STORE_OK);
        CHECK(s->ops->tel_purge(s, 1761955200, 2, &removed) == STORE_OK);
        CHECK(s->ops->commit(s) == STORE_OK);
        all += removed;
    } while (removed > 0 && all < 100);
    CHECK_INT(flow_months("months"), 1);
    int64_t bytes = -1, packets = -1;
    CHECK(s->ops->tel_site_volume(s, d.op_site, oct - 86400, nov + 86400, &bytes, &packets) == STORE_OK);
    CHECK_INT(bytes, 2000); /* November's two */
    close_side(&d);
}

/* parapet's sessions compile no statement (pgsql/db.c, session_sql): a
 * server whose JIT is on, as PostgreSQL's default is, spent 5 ms compiling
 * an ingest slice's read that runs in 0.1 ms. */
TEST(sessions_without_jit)
{
    static const char show_jit[] = "SHOW jit";
    struct side d = {0};
    if (!open_side(&d, true, "nojit")) {
        CHECK(!"the store opens");
        close_side(&d);
        return;
    }
    CHECK_INT(side_sql("nojit", "SELECT count(*) FROM pg_settings WHERE name = 'jit' AND setting = 'on'"), 1);
    int rc = STORE_OK;
    PGresult *r = pg_query(d.s, show_jit, NULL, &rc);
    CHECK(r && PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "off") == 0);
    PQclear(r);
    close_side(&d);
}

/* The PostgreSQL address-block index answers overlaps as a brute force
 * does (blocks_check.h; test_resources runs it on SQLite). */
TEST(blocks_overlap_as_brute_force)
{
    struct side d = {0};
    if (!open_side(&d, true, "blocks")) {
        CHECK(!"the store opens");
        close_side(&d);
        return;
    }
    int64_t rids[BLOCKS_CHECK_SITES];
    CHECK(d.s->ops->begin(d.s, true) == STORE_OK);
    for (int i = 0; i < BLOCKS_CHECK_SITES; i++) {
        char name[32], id[32];
        snprintf(name, sizeof name, "rand_%d", i);
        snprintf(id, sizeof id, "%016x", 0x7000 + i);
        rids[i] = make(d.s, &OP_SITE, 0, name, NULL, id);
    }
    CHECK(d.s->ops->commit(d.s) == STORE_OK);
    blocks_check_brute_force(d.s, rids);
    close_side(&d);
}

UNIT_MAIN(UNIT_CASE(pgsql_answers_as_sqlite), UNIT_CASE(waf_grouping_as_sqlite), UNIT_CASE(flow_duplicates_as_sqlite),
          UNIT_CASE(a_failed_copy_fails_its_batch),
          UNIT_CASE(months_are_partitions),
          UNIT_CASE(blocks_overlap_as_brute_force), UNIT_CASE(sessions_without_jit))
