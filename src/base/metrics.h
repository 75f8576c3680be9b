/* metrics.h — the process's figures for Prometheus (text format 0.0.4):
 * requests by route id, method and status with latency histograms,
 * requests in flight, tokens issued and refused, rate-limit refusals, store
 * write transactions and the group commit's fdatasync batches, data-plane
 * deploy passes and checker runs, telemetry ingest, and process figures. Counting is a few
 * relaxed atomic additions (no lock on the request path); metrics_render
 * reads them when scraped (`serve --metrics-listen`, docs/deploy.md). */
#ifndef PARAPET_METRICS_H
#define PARAPET_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The rows the request figures are kept in, as the caller names them (the
 * route table: a row per route and a last one for requests no route
 * matched, core/route_metrics.c), so that metrics knows nothing of routes. */
struct metrics_rows {
    size_t count;                      /* rows, the "no route" row included */
    int methods;                       /* method indexes 0 .. methods - 1 */
    const char *(*row_id)(size_t row); /* a row's label */
    const char *(*method)(int m);      /* a method's label */
    bool (*issues_tokens)(size_t row); /* the token endpoints: their answers count as issued or refused */
};

/* Sizes the per-row tables; 0 or -1. `rows` must outlive the process's use. */
int metrics_init(const struct metrics_rows *rows);

/* One answered request in `row` (see metrics_rows). */
void metrics_request(size_t row, int method, int status, double seconds);
/* Requests being handled now (taken when scraped). */
void metrics_in_flight_source(unsigned (*fn)(void *arg), void *arg);

/* One write transaction that wrote, from BEGIN IMMEDIATE to COMMIT. */
void metrics_store_write(double seconds);
/* One fdatasync of the WAL covering `commits` commits. */
void metrics_store_sync(uint64_t commits, double seconds);

/* One pass of a data-plane deployer ("dns", "nginx", "ddos"). */
void metrics_deploy_pass(const char *deployer, int ok);
/* One run of a data plane's checker ("fastnetmon", "bird", "nginx"). */
void metrics_dataplane_check(const char *plane);

/* One ingest batch: records read, stored, duplicates; refused: the batch
 * was refused as a whole. */
void metrics_ingest(long records, long stored, long duplicates, int refused);

/* The text exposition (malloc'd), with `extra` appended (store-side gauges
 * the caller read; may be NULL). */
char *metrics_render(const char *extra);

#endif
