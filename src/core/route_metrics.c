/* route_metrics.c — see route_metrics.h. */
#include "core/route_metrics.h"

#include <string.h>

#include "base/metrics.h"
#include "core/route.h"

static const char *row_id(size_t row)
{
    return row < routes_count ? routes[row].id : "none";
}

static const char *method_label(int m)
{
    return method_name((enum http_method)m);
}

/* The token endpoints (auth.*token*). */
static bool issues_tokens(size_t row)
{
    return row < routes_count && strncmp(routes[row].id, "auth.", 5) == 0 && strstr(routes[row].id, "token");
}

int route_metrics_init(void)
{
    static struct metrics_rows rows;
    rows = (struct metrics_rows){.count = routes_count + 1,
                                 .methods = M_OTHER + 1,
                                 .row_id = row_id,
                                 .method = method_label,
                                 .issues_tokens = issues_tokens};
    return metrics_init(&rows);
}

size_t route_metrics_row(const struct route *route)
{
    return route ? (size_t)(route - routes) : routes_count;
}
