/* telemetry_op.h — what the Origin Protection and CleanPipe dashboards ask
 * the store about flows (store_ops.tel_op_*, sqlite/tel_op.c): one event's
 * place, per-minute flow sums, top talkers of the raw flows or the hourly
 * roll-up, traffic patterns. Rates are computed by the callers
 * (api/op/dashboard_calc.c); the store sums. The event lists are
 * store_ops.tel_events_list (store/telemetry.h). */
#ifndef PARAPET_STORE_TELEMETRY_OP_H
#define PARAPET_STORE_TELEMETRY_OP_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/telemetry.h"

/* One address range [lo, hi] as 17-byte keys. */
struct tel_range {
    uint8_t lo[TEL_ADDR_KEY], hi[TEL_ADDR_KEY];
};

/* One event as the detail needs it. */
struct tel_event_ref {
    int64_t eid, site_rid;
    char alert_id[TEL_ID_MAX + 1];
    char customer_id[17];
    char site_kind[48];
    char holder_kind[48];
    int64_t start_time, end_time; /* end_time 0: ongoing */
    struct tel_range range;
};

/* Per-minute flow sums toward a site (or every site of a kind of a
 * customer), optionally only toward one range and one policy type. */
struct tel_minutes_query {
    int64_t site_rid;        /* 0: every site of customer_id of site_kind */
    const char *customer_id;
    const char *site_kind;
    const struct tel_range *range; /* NULL: every destination */
    const char *policy;      /* NULL: any */
    int64_t from, to;        /* from <= minute < to */
    /* with policy NULL: the observations' sums (policy "observed") as well,
     * apart, read in the same pass (tel_op_minutes' *observed) */
    bool observed_too;
};

/* The sums of one minute: [0] passed, [1] dropped. */
struct tel_minute {
    int64_t minute;
    int64_t bytes[2], packets[2];
};

/* Dimensions of the top lists. 1-5 are also those of tel_flow_hours. */
enum tel_dim {
    TEL_DIM_APP = 1,
    TEL_DIM_AS = 2,
    TEL_DIM_COUNTRY = 3,
    TEL_DIM_DST = 4,
    TEL_DIM_PROTOCOL = 5,
    TEL_DIM_SRC = 6,      /* raw flows only */
    TEL_DIM_SRC_PORT = 7, /* raw flows only */
    TEL_DIM_DST_PORT = 8, /* raw flows only */
};

struct tel_top_query {
    int64_t site_rid;
    const struct tel_range *range; /* raw flows: only toward it (NULL: all) */
    int64_t from, to;              /* from <= ts < to (hourly: hour starts) */
    int dim;                       /* enum tel_dim */
    bool hourly;                   /* from tel_flow_hours instead of tel_flows */
    bool by_packets;               /* order by packets instead of bytes */
    long limit;
};

/* A key of a top list with its sums; country is the source country of a
 * TEL_DIM_SRC key. */
struct tel_top_row {
    char key[64];
    char country[3];
    int64_t bytes, packets, flows;
};

/* One list of tel_op_tops: what is asked, and the answer (rows malloc'd). */
struct tel_top_list {
    int dim;
    bool by_packets;
    long limit;
    struct tel_top_row *rows;
    size_t n;
};

/* What traffic patterns are ranked by. */
enum tel_pattern_order { TEL_BY_BYTES, TEL_BY_PACKETS, TEL_BY_PEAK_BYTES, TEL_BY_PEAK_PACKETS };

/* A traffic pattern: flows of one source /24 (IPv6: /48), router,
 * protocol, ports and source AS; peak_* are the largest one-minute sums. */
struct tel_pattern {
    char cidr[NET_TEXT_MAX + 8];
    char router[65];
    int protocol, src_port, dst_port;
    int64_t src_as;
    int64_t bytes, packets, peak_bytes, peak_packets;
};

#endif
