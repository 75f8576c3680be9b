/* dashboard_flows.h — the Origin Protection and CleanPipe dashboards read
 * from flows (doc 001): the OP event detail, active_mitigation,
 * network_summary and the CleanPipe policy chart, and what they share
 * (dashboard_flows.c). The event lists, is_under_attack, current_traffic,
 * flow-down events and the CleanPipe stop are in op.h / cp.h. The
 * int-returning helpers answer the request themselves when they fail and
 * return -1. */
#ifndef PARAPET_API_OP_DASHBOARD_FLOWS_H
#define PARAPET_API_OP_DASHBOARD_FLOWS_H

#include <jansson.h>
#include <stdbool.h>

#include "api/dashboard/calc.h"
#include "core/req.h"

/* ---- Origin Protection ---- */
int op_dash_active_mitigation(struct req *r); /* dashboard_mitigation.c: {OPD}/site/{site_id}/... */
int op_dash_network_summary(struct req *r);   /* dashboard_summary.c: {OPD}/site/{site_id}/... */
/* {OPD}/ddos_event/{event_id}/detail (ACCESS_TOKEN: tenancy through the event) */
int op_dash_event_detail(struct req *r); /* dashboard_detail.c */

/* ---- CleanPipe: {CPC}/dashboard/policy ---- */
int cp_dash_policy(struct req *r); /* cp/dashboard_policy.c */

/* ---- shared (dashboard_flows.c) ---- */
int64_t dash_now(void);
/* Per-minute flow sums of base toward any of ranges[0..n) (merged first; n
 * 0: every destination), ascending; *out malloc'd. Without a policy in base,
 * a minute that holds records with a verdict (a scrubber's counters) takes
 * its drop/pass split from those alone: the observations (policy_type
 * "observed", a collector at the scrubber's ingress) are in them already. */
int dash_minutes(struct req *r, const struct tel_minutes_query *base, struct tel_range *ranges, size_t n,
                 struct tel_minute **out, size_t *nout);
/* That rule on sums already read: all[i] becomes all[i] - observed[j] of
 * the same minute when that difference counted anything (both ascending;
 * observed is a part of all). */
void dash_prefer_verdicts(struct tel_minute *all, size_t n, const struct tel_minute *observed, size_t nobs);
/* The address ranges of a resource's blocks (*out malloc'd) and, when
 * cidrs is not NULL, its blocks as a new array of "addr/len" strings. */
int dash_holder_ranges(struct req *r, int64_t rid, struct tel_range **out, size_t *n, json_t **cidrs);

#endif
