/* route_metrics.h — the route table as the rows of the request figures
 * (base/metrics.h knows nothing of routes). */
#ifndef PARAPET_ROUTE_METRICS_H
#define PARAPET_ROUTE_METRICS_H

#include <stddef.h>

struct route;

/* metrics_init() with a row per route and a last one for no route; 0 or -1. */
int route_metrics_init(void);
/* The row of a route (NULL: no route matched). */
size_t route_metrics_row(const struct route *route);

#endif
