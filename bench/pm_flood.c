/* pm_flood.c — parapet's side of pmacct -> ingest under a flood (bench/flows):
 * ROWS rows of nfacctd's JSON output (one minute, one site; random spoofed
 * sources, an NTP reflection toward a /24, plus 50 legitimate clients) are
 * parsed (pm_parse_line), folded (pm_fold) and stored through the ingest
 * (dp_ingest_records) into a fresh SQLite store; prints the records a
 * minute the site gets and the rates. Usage: pm-flood ROWS DIR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/op/op_kinds.h"
#include "dataplane/ingest_batch.h"
#include "dataplane/pmacct/pm_collector.h"
#include "unit/scratch_store.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pm-flood ROWS\n");
        return 2;
    }
    size_t n = (size_t)atol(argv[1]);
    char dir[64];
    struct store *db = scratch_open(dir, (struct customer){.svc_op = true});
    struct resource r = {0};
    snprintf(r.customer_id, sizeof r.customer_id, SCRATCH_CUSTOMER);
    snprintf(r.name, sizeof r.name, "flood");
    r.doc = json_pack("{s:[s]}", "cidr", "198.51.100.0/24");
    struct cidr c;
    cidr_parse("198.51.100.0/24", 0, &c);
    db->ops->begin(db, true);
    db->ops->res_create(db, &OP_SITE, &r);
    db->ops->blocks_set(db, r.rid, &c, 1);
    db->ops->commit(db);
    json_decref(r.doc);
    int64_t minute = (int64_t)time(NULL) / 60 * 60 - 120;

    /* nfacctd's lines */
    char **lines = malloc(n * sizeof *lines);
    uint64_t seed = 7;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        char line[512];
        bool legit = i % (n / 50 + 1) == 0;
        snprintf(line, sizeof line,
                 "{\"event_type\": \"purge\", \"as_src\": 0, \"peer_ip_src\": \"192.0.2.2\", \"ip_src\": "
                 "\"%s%u.%u.%u\", \"ip_dst\": \"198.51.100.%u\", \"port_src\": %u, \"port_dst\": %u, \"ip_proto\": "
                 "\"17\", \"stamp_inserted\": \"%lld\", \"stamp_updated\": \"%lld\", \"packets\": %u, \"bytes\": %u}",
                 legit ? "203." : "100.", legit ? 0 : (unsigned)(seed >> 56) % 64 + 64, (unsigned)(seed >> 48) & 255,
                 (unsigned)(seed >> 40) & 255, legit ? 10 : (unsigned)(seed >> 32) & 255,
                 legit ? 40000 : 123, legit ? 443 : 1024 + (unsigned)((seed >> 16) % 60000), (long long)minute,
                 (long long)minute + 59, legit ? 5000 : 1, legit ? 7000000 : 468);
        lines[i] = strdup(line);
    }
    /* parse */
    double t0 = now_s();
    struct pm_row *rows = malloc(n * sizeof *rows);
    char router[64], batch[64];
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (pm_parse_line(lines[i], &rows[kept], router, sizeof router, batch, sizeof batch) == 1)
            rows[kept++].site = r.rid;
    double t1 = now_s();
    struct pm_site site = {.rid = r.rid, .first = c.addr};
    json_t *records = json_array();
    size_t made = pm_fold(rows, kept, &site, 1, "1", "192.0.2.2", records);
    double t2 = now_s();
    long stored = 0, dropped = 0;
    int rc = dp_ingest_records(db, records, (int64_t)time(NULL), "bench", &stored, &dropped);
    double t3 = now_s();
    printf("  rows of one site and minute (nfacctd's JSON): %zu\n", n);
    printf("  parse: %.2f s (%.0f lines/s)\n", t1 - t0, n / (t1 - t0));
    printf("  fold: %.2f s -> %zu records for the site and minute\n", t2 - t1, made);
    printf("  ingest: %.2f s, %ld stored%s\n", t3 - t2, stored, rc == 0 ? "" : " (the store failed)");
    printf("  parapet's side of pmacct -> ingest: %.0f flows/s on one core\n", n / (t3 - t0));
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines), free(rows);
    json_decref(records);
    scratch_close(db, dir);
    return rc == 0 ? 0 : 1;
}
