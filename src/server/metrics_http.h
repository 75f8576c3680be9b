/* metrics_http.h — `GET /metrics` (Prometheus text) on a listen address of
 * its own, plain HTTP, apart from the API: operators bind it to loopback or
 * a management network (`serve --metrics-listen`). It reads the counters of
 * base/metrics.h and, through a store connection of its own, the data
 * planes' deploy states. */
#ifndef PARAPET_METRICS_HTTP_H
#define PARAPET_METRICS_HTTP_H

#include "store/store.h"

/* host: an IP literal. 0, or -1 with a message on stderr. cfg must outlive
 * metrics_http_stop. */
int metrics_http_start(const char *host, int port, const struct store_config *cfg);
void metrics_http_stop(void);

#endif
