/* ddos_options.h — the Origin Protection and CleanPipe data plane options
 * of `parapet serve` (FastNetMon and BIRD, and FastNetMon's traffic export
 * parapet receives; the nftables scrubber and its counters), and the
 * settings they make. */
#ifndef PARAPET_CLI_DDOS_OPTIONS_H
#define PARAPET_CLI_DDOS_OPTIONS_H

#include <jansson.h>

#include "dataplane/ddos/ddos_deployer.h"
#include "dataplane/pmacct/pm_collector.h"

/* Entries of a `struct opt` table (args.h), with their documentation. */
#define DDOS_DEPLOY_OPTS                                                                                      \
    {.name = "no-fastnetmon-deploy", .flag = true,                                                            \
     .help = "no FastNetMon configuration (detection) nor traffic export receiver"},                         \
        {.name = "fastnetmon-dir", .arg = "DIR", .dflt = "DATA/fastnetmon",                                   \
         .help = "FastNetMon's files: fastnetmon.conf, networks_list, networks_whitelist, notify.sh"},        \
        {.name = "fastnetmon", .arg = "PATH|none", .dflt = "fastnetmon in PATH",                              \
         .help = "fastnetmon for --configuration_check"},                                                     \
        {.name = "fastnetmon-netflow", .arg = "A:P", .dflt = "127.0.0.1:2055",                                \
         .help = "where FastNetMon listens for NetFlow/IPFIX"},                                               \
        {.name = "fastnetmon-graphite", .arg = "A:P", .dflt = "off",                                          \
         .help = "receive FastNetMon's per-host traffic (Graphite) on A:P"},                                  \
        {.name = "fastnetmon-ban-time", .arg = "S", .dflt = "300", .help = "seconds a ban lasts at least"},   \
        {.name = "fastnetmon-average-time", .arg = "S", .dflt = "15", .help = "FastNetMon's averaging window"}, \
        {.name = "fastnetmon-reload", .arg = "CMD",                                                           \
         .help = "run after a changed configuration is installed (FastNetMon 1.2.4 re-reads nothing while "  \
                 "it runs: e.g. 'systemctl restart fastnetmon')"},                                           \
        {.name = "no-bird-deploy", .flag = true, .help = "no BIRD configuration (diversion, FlowSpec)"},      \
        {.name = "bird-dir", .arg = "DIR", .dflt = "DATA/bird", .help = "BIRD's files: bird.conf and the route files"}, \
        {.name = "bird", .arg = "PATH|none", .dflt = "bird in PATH or /usr/sbin", .help = "bird for `bird -p`"}, \
        {.name = "bird-socket", .arg = "PATH", .dflt = "DIR/bird.ctl",                                        \
         .help = "the running BIRD's control socket, told `configure`"},                                      \
        {.name = "bird-router-id", .arg = "A", .dflt = "192.0.2.1", .help = "BIRD's router id"},              \
        {.name = "bird-as", .arg = "N", .dflt = "64512", .help = "parapet's AS"},                             \
        {.name = "bird-peer", .arg = "A[:PORT]", .dflt = "none",                                              \
         .help = "the scrubber or upstream the routes go to"},                                                \
        {.name = "bird-peer-as", .arg = "N", .help = "its AS (required with --bird-peer)"},                   \
        {.name = "bird-local", .arg = "A[:PORT]", .dflt = "any", .help = "the session's local address"},      \
        {.name = "bird-next-hop", .arg = "A", .help = "IPv4 diversion next hop"},                             \
        {.name = "bird-next-hop6", .arg = "A", .dflt = "no IPv6 unicast", .help = "IPv6 diversion next hop"}, \
        {.name = "nft-deploy", .flag = true,                                                                 \
         .help = "the nftables scrubber: apply the mitigations to packets in this network namespace (needs "  \
                 "CAP_NET_ADMIN)"},                                                                          \
        {.name = "nft-dir", .arg = "DIR", .dflt = "DATA/nftables", .help = "its files: parapet.nft, counters.map"}, \
        {.name = "nft-table", .arg = "NAME", .dflt = "parapet", .help = "the inet table parapet owns"},       \
        {.name = "nft-counters", .arg = "S", .dflt = "60",                                                    \
         .help = "read its counters into the ingest every S seconds (0: never)"},                             \
        {.name = "pmacct-listen", .arg = "A:P", .dflt = "off",                                                \
         .help = "run pmacct's collector (nfacctd: NetFlow v5/v9, IPFIX) on A:P and store its flows"},        \
        {.name = "pmacct-sflow", .flag = true, .help = "sfacctd (sFlow) instead of nfacctd"},                 \
        {.name = "pmacct-dir", .arg = "DIR", .dflt = "DATA/pmacct", .help = "its files"},                    \
        {.name = "pmacct-refresh", .arg = "S", .dflt = "60", .help = "seconds between its batches"},          \
        {.name = "pmacct-sampling", .arg = "N", .dflt = "theirs",                                              \
         .help = "the exporters' sampling rate when they do not send theirs"},                                \
        {.name = "pmacct", .arg = "PATH", .dflt = "nfacctd or sfacctd in PATH", .help = "the daemon"},        \
        {.name = "ddos-deploy-interval", .arg = "S", .dflt = "5", .help = "background deploy sweep interval"}

struct ddos_options {
    struct ddos_settings st;
    char fnm_dir[1024], bird_dir[1024], socket[1100], notify[1100], bird_bin[64], fnm_bin[64];
    char netflow_host[64], graphite_host[64], peer[64], local[64], nft_dir[1024];
    const char *graphite; /* the receiver's A:P, or NULL */
    unsigned nft_counters; /* seconds between readings of the scrubber's counters; 0: none */
    bool pmacct_on;
    struct pm_collector_config pmacct;
    char pmacct_dir[1024], pmacct_host[64];
};

/* Fills o from the parsed options; data_dir gives the default directories
 * and the notify script's --data. Returns 0, or -1 after a message on stderr. */
int ddos_options_configure(json_t *args, const char *data_dir, struct ddos_options *o);

#endif
