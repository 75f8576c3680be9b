/* telemetry.h — telemetry records as the store takes them (docs/telemetry.md).
 * src/telemetry/ decodes and attributes them; the store keeps them with their
 * roll-ups (store_ops.tel_*). */
#ifndef PARAPET_STORE_TELEMETRY_H
#define PARAPET_STORE_TELEMETRY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/net.h"

enum tel_kind { TEL_DDOS_EVENT, TEL_FLOW, TEL_WAF_LOG, TEL_FLOW_DOWN, TEL_BANDWIDTH };

/* Normalised severities (each family answers them in its own scale). */
enum tel_severity { TEL_SEV_LOW = 0, TEL_SEV_MEDIUM = 1, TEL_SEV_HIGH = 2, TEL_SEV_BLACKHOLE = 3 };

enum {
    TEL_ID_MAX = 64,
    TEL_TEXT_MAX = 2048,
    TEL_ADDR_KEY = 17, /* address keys as in address_blocks: family byte + 16 bytes */
    TEL_WAF_GAP_S = 600, /* WAF entries of a domain port further apart start a new event */
};

/* Where a record belongs: found through the address-block index or the
 * ids it carries. */
struct tel_place {
    char family[3];        /* "op", "cp", "ap" */
    char customer_id[17];
    int64_t site_rid;
    int64_t holder_rid;    /* most specific resource holding the address (or the site) */
    char holder_kind[48];
};

struct tel_ddos_event {
    char alert_id[TEL_ID_MAX + 1];
    char attack_type[48];
    char site_ip[64];                    /* canonical */
    uint8_t ip_lo[TEL_ADDR_KEY], ip_hi[TEL_ADDR_KEY];
    int64_t start_time, end_time;        /* end_time 0: ongoing */
    int64_t max_bps, max_pps;
    int severity;                        /* enum tel_severity */
    char profile_name[129], profile_desc[513];
    int p_type;
};

struct tel_flow {
    uint64_t fid; /* digest of flow_id */
    int64_t time;
    char router[65];
    uint8_t src[TEL_ADDR_KEY], dst[TEL_ADDR_KEY];
    int src_port, dst_port, protocol;
    int64_t bytes, packets; /* times the sampling rate */
    int64_t src_as;
    char country[3];
    char app[33];
    int action; /* 0 pass, 1 drop */
    char policy[33];
};

/* The policy_type of flows that observed traffic before any verdict (a
 * flow collector fed from a scrubber's ingress): where a minute also holds
 * records with a verdict, the dashboards take the drop/pass split from those
 * alone (docs/telemetry.md, "Observations and verdicts"). */
#define TEL_POLICY_OBSERVED "observed"

/* Whether f is a counter: a verdict (any policy_type but `observed`) that
 * names no source (0.0.0.0 or ::), as the nftables scrubber's counters
 * are. It counts traffic that observations, or verdicts with sources,
 * describe already, so the breakdowns by source, port, protocol, country,
 * AS, app and destination (and traffic patterns) leave it out; the series
 * of traffic over time count it. Both stores' SQL repeats this test
 * (TEL_COUNTER_SQL in their tel_op.c and ingest). */
bool tel_flow_is_counter(const struct tel_flow *f);

/* The address of an address key (tel_addr_key's inverse) as text. */
void tel_addr_text(const uint8_t key[TEL_ADDR_KEY], char out[NET_TEXT_MAX]);

struct tel_waf_log {
    char log_id[TEL_ID_MAX + 1];
    int64_t timestamp;
    int64_t domain_rid, port_rid;
    char domain_port_id[24];
    char domain_name[256];
    int severity; /* 0 low, 1 medium, 2 high */
    char attack_type[32];
    char country[3];
    char src_ip[NET_TEXT_MAX]; /* as the entry gives it (ip_format) */
    char *path;  /* http_path, for the top URLs: malloc'd */
    char *entry; /* the entry as the log endpoint answers it: JSON text, malloc'd */
};

struct tel_flow_down {
    char alert_id[TEL_ID_MAX + 1];
    char router_name[65];
    int64_t start_time, end_time; /* end_time 0: ongoing */
};

struct tel_bandwidth {
    int64_t minute;
    char node[65];
    int64_t raw_in, raw_out, clean_in, clean_out;
};

struct tel_record {
    enum tel_kind kind;
    struct tel_place place;
    union {
        struct tel_ddos_event ev;
        struct tel_flow flow;
        struct tel_waf_log waf;
        struct tel_flow_down down;
        struct tel_bandwidth bw;
    } u;
};

/* ---- reads for the dashboards ---- */

/* Event status filters of the lists (documents 001: 1 ongoing, 0 stopped). */
enum tel_status { TEL_STOPPED = 0, TEL_ONGOING = 1, TEL_ANY = 2 };

/* Which DDoS events a list shows: a family's events of one customer that
 * overlap [from, to] (an ongoing event runs until now), optionally only of
 * some sites, one status, one alert_id or site_ip. */
struct tel_event_query {
    const char *family;      /* "op", "cp", "ap" */
    const char *customer_id;
    const int64_t *site_rids; /* n_sites of them; NULL: all the customer's sites */
    size_t n_sites;
    int64_t from, to;
    enum tel_status status;
    const char *alert_id, *site_ip; /* NULL: any */
    const char *attack_type;        /* NULL: any */
    long offset, limit;
};

/* What an ingest did. */
struct tel_ingest_result {
    long records, stored, duplicates;
};

#endif
