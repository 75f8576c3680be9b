/* telemetry_ap.h — what the Application Protection dashboards ask the
 * store (store_ops.tel_waf_*, tel_bandwidth_minutes; sqlite/tel_ap.c): WAF
 * events with their counts and log entries, and bandwidth per minute. AP
 * DDoS events are store_ops.tel_events_list with family "ap", and their
 * traffic patterns store_ops.tel_op_patterns. */
#ifndef PARAPET_STORE_TELEMETRY_AP_H
#define PARAPET_STORE_TELEMETRY_AP_H

#include <stdint.h>

/* The WAF events of one site of one customer overlapping [from, to]. */
struct tel_waf_event_query {
    const char *customer_id;
    int64_t site_rid;
    int64_t from, to;
    long offset, limit;
};

/* One WAF event whose site still exists. */
struct tel_waf_event_ref {
    int64_t weid, site_rid;
    char event_id[17];
    char customer_id[17];
    int64_t start_time, end_time;
};

/* The counted dimensions of a WAF event (tel_waf_event_counts.dim). A
 * source's key is its country's two capitals followed by its address as
 * the entries give it (entries without a country are not counted there):
 * a top country's commonest source is one index range. */
enum tel_waf_dim { TEL_WAF_TYPE = 1, TEL_WAF_COUNTRY = 2, TEL_WAF_URL = 3, TEL_WAF_COUNTRY_SOURCE = 4 };

/* One minute of a site's bandwidth, bits/s summed over its nodes. */
struct tel_bw_minute {
    int64_t minute;
    int64_t raw_in, raw_out, clean_in, clean_out;
};

/* Called for each log entry of a download, oldest first: the entry as
 * stored (a JSON object's text). Returns 0 to go on. */
typedef int (*tel_waf_entry_fn)(void *arg, const char *entry);

#endif
