/* simulate.h — a seedable generator of telemetry records (docs/telemetry.md,
 * "Simulator"): diurnal flows, DDoS attacks with ramp, plateau and decay,
 * flow-down events, and for Application Protection sites bandwidth samples,
 * WAF log bursts and application-layer events. Deterministic: the output
 * depends only on the sites and the parameters (its own PRNG, no clock).
 * Every record of a minute is drawn from a generator seeded by (seed, site,
 * minute), so overlapping windows produce the same records with the same
 * ids, and re-ingesting them duplicates nothing. Not part of the server. */
#ifndef PARAPET_TEL_SIMULATE_H
#define PARAPET_TEL_SIMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "base/net.h"

enum sim_family { SIM_OP, SIM_CP, SIM_AP };

struct sim_port {
    char id[32];      /* domain_port_id */
    char host[256];   /* the domain */
    int port;
};

struct sim_site {
    enum sim_family family;
    char id[32];
    struct cidr *blocks;  /* OP/CP: the protected blocks; AP: the VIPs (/32, /128) */
    size_t n_blocks;
    struct sim_port *ports; /* AP only */
    size_t n_ports;
};

struct sim_params {
    uint64_t seed;
    int days;       /* window: days * 86400 s ending at `end` */
    double rate;    /* flow records per second, all sites together */
    double waf_rate; /* WAF log entries per second, all AP sites together */
    int64_t end;    /* unix time, the window's end (exclusive) */
};

/* Receives one record (a JSON object, no newline); nonzero stops the run. */
typedef int (*sim_sink)(void *arg, const char *line, size_t len);

/* Generates the window's records in time order (events when they close or at
 * the window's end). 0, or what the sink answered. */
struct sim_counts {
    long flow, ddos_event, flow_down, bandwidth, waf_log;
};
int sim_generate(const struct sim_site *sites, size_t n, const struct sim_params *p, sim_sink sink, void *arg,
                 struct sim_counts *counts);

#endif
