/* metrics.h — the process's figures for Prometheus (text format 0.0.4):
 * requests by route id, method and status with latency histograms,
 * requests in flight, tokens issued and refused, rate-limit refusals, store
 * write transactions and the group commit's fdatasync batches, data-plane
 * deploy passes and checker runs, telemetry ingest, and process figures. Counting is a few
 * relaxed atomic additions (no lock on the request path); metrics_render
 * reads them when scraped (`serve --metrics-listen`, docs/deploy.md). */
#ifndef PARAPET_METRICS_H
#define PARAPET_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "core/req.h"

struct route;

/* Sizes the per-route tables (after the route table is known); 0 or -1. */
int metrics_init(void);

/* One answered request: route NULL when no route matched. */
void metrics_request(const struct route *route, enum http_method method, int status, double seconds);
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
