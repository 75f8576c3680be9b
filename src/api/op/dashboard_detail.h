/* dashboard_detail.h — the modules of GET {OPD}/ddos_event/{event_id}/detail
 * (dashboard_detail.c, dashboard_detail_top.c). Each answers the request
 * with its own key only: {"traffic": ...}, {"characterization": ...}, ... */
#ifndef PARAPET_API_OP_DASHBOARD_DETAIL_H
#define PARAPET_API_OP_DASHBOARD_DETAIL_H

#include "api/op/dashboard_flows.h"

/* The event and the minutes it covers: from <= minute < to (from its start's
 * minute to the minute of its end, or of now while it is ongoing). */
struct dash_event_window {
    struct tel_event_ref ev;
    int64_t from, to;
};

int dash_detail_traffic(struct req *r, const struct dash_event_window *w);
int dash_detail_characterization(struct req *r, const struct dash_event_window *w);
int dash_detail_threat_map(struct req *r, const struct dash_event_window *w);
int dash_detail_traffic_patterns(struct req *r, const struct dash_event_window *w);

#endif
