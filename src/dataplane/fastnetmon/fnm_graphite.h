/* fnm_graphite.h — FastNetMon 1.2.4's Graphite export as `flow` records
 * (pure parts; fnm_graphite_loop.h listens and stores).
 *
 * With `graphite = on` FastNetMon connects over TCP to graphite_host (an
 * IPv4 literal) every graphite_push_period seconds, several times a push
 * (metrics/graphite.cpp: once per direction for the totals, once for the
 * networks, once per monitored network for the hosts), writes plaintext
 * lines `NAME VALUE UNIXTIME` and closes. The names are
 *   PREFIX.total.<incoming|outgoing|internal|other>.{pps,bps,flows}
 *   PREFIX.networks.<a_b_c_d_len>.<incoming|outgoing>.{pps,bps}
 *   PREFIX.hosts.<a_b_c_d>.<incoming|outgoing>.average.{pps,bps,flows}
 * (dots of the address become underscores; only IPv4 hosts; a zero value is
 * not sent at all; host lines of earlier networks are sent again with every
 * later network of the same push, same value and time).
 *
 * Only incoming host pps and bps become records: one `flow` per host and
 * minute, bytes = mean bps × 60 / 8 and packets = mean pps × 60, the mean
 * taken over the minute's pushes (the distinct seconds seen on any line of
 * the export), so that the seconds a quiet host was left out count as 0. */
#ifndef PARAPET_FNM_GRAPHITE_H
#define PARAPET_FNM_GRAPHITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fnm_metric { FNM_PPS, FNM_BPS, FNM_FLOWS };

struct fnm_line {
    bool host_incoming; /* a PREFIX.hosts.<ip>.incoming line */
    char ip[48];        /* its host, canonical */
    enum fnm_metric metric;
    uint64_t value;
    int64_t time;
};

/* 0: a line of the export (host_incoming tells whether it is used); -1:
 * malformed. Host addresses are also taken with dashes or, for IPv6, with
 * the colons as underscores or dashes, and without the ".average" step. */
int fnm_graphite_parse(const char *line, size_t len, struct fnm_line *out);

struct fnm_host_minute; /* fnm_graphite.c */

struct fnm_graphite_stats {
    long lines, used, ignored, malformed;
    long late; /* of a minute already complete, or far from the clock */
    long full; /* a new host beyond FNM_GRAPHITE_MAX_HOSTS open host-minutes */
    long records;
};

struct fnm_graphite_agg {
    int grace_s;             /* a minute is complete this long after its end */
    int64_t complete_before; /* minutes before it are complete (sent or to send) */
    struct fnm_host_minute *h;
    size_t n, cap;
    size_t *index; /* open addressing over h, index_cap slots (SIZE_MAX: empty) */
    size_t index_cap;
    struct {
        int64_t minute;
        uint64_t seconds;
    } pushes[8]; /* the seconds seen per open minute */
    struct fnm_graphite_stats stats;
};

enum { FNM_GRAPHITE_GRACE_S = 5, FNM_GRAPHITE_MAX_HOSTS = 1 << 20 };

void fnm_graphite_init(struct fnm_graphite_agg *a, int grace_s);
/* One line of the export, received at `now` (a time more than 2 minutes
 * ahead of it or an hour behind counts as late). A line stamped grace_s or
 * more into a later minute completes the earlier ones. */
void fnm_graphite_add(struct fnm_graphite_agg *a, const char *line, size_t len, int64_t now);
/* Appends a `flow` record (an NDJSON line as a JSON string) for each host
 * of each complete minute (the clock `now` is past its end and the grace,
 * or fnm_graphite_add saw so), and forgets them; a host-minute whose bytes
 * and packets round to 0 gives none. With ips, appends each
 * record's host there too. Returns how many were appended. */
size_t fnm_graphite_take(struct fnm_graphite_agg *a, int64_t now, json_t *records, json_t *ips);
void fnm_graphite_free(struct fnm_graphite_agg *a);

#endif
