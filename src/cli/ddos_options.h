/* ddos_options.h — the Origin Protection and CleanPipe data plane options
 * of `parapet serve` (FastNetMon and BIRD, and FastNetMon's traffic export
 * parapet receives; the nftables scrubber and its counters), and the
 * settings they make. */
#ifndef PARAPET_CLI_DDOS_OPTIONS_H
#define PARAPET_CLI_DDOS_OPTIONS_H

#include <jansson.h>

#include "dataplane/ddos_deployer.h"
#include "dataplane/pmacct/pm_collector.h"

/* Entries of a `struct opt` table (args.h). */
#define DDOS_DEPLOY_OPTS                                                                                      \
    {.name = "no-fastnetmon-deploy", .flag = true}, {.name = "fastnetmon-dir"}, {.name = "fastnetmon"},       \
        {.name = "fastnetmon-netflow"}, {.name = "fastnetmon-graphite"}, {.name = "fastnetmon-ban-time"},     \
        {.name = "fastnetmon-average-time"}, {.name = "fastnetmon-reload"},                                   \
        {.name = "no-bird-deploy", .flag = true}, {.name = "bird-dir"}, {.name = "bird"},                     \
        {.name = "bird-socket"}, {.name = "bird-router-id"}, {.name = "bird-as"}, {.name = "bird-peer"},      \
        {.name = "bird-peer-as"}, {.name = "bird-local"}, {.name = "bird-next-hop"},                          \
        {.name = "bird-next-hop6"}, {.name = "nft-deploy", .flag = true}, {.name = "nft-dir"},                \
        {.name = "nft-table"}, {.name = "nft-counters"}, {.name = "pmacct-listen"}, {.name = "pmacct-sflow", .flag = true}, \
        {.name = "pmacct-dir"}, {.name = "pmacct-refresh"}, {.name = "pmacct-sampling"}, {.name = "pmacct"},    \
        {.name = "ddos-deploy-interval" }

#define DDOS_DEPLOY_USAGE                                                                                       \
    "  --no-fastnetmon-deploy     no FastNetMon configuration (detection) nor traffic export receiver\n"      \
    "  --fastnetmon-dir DIR       FastNetMon's files (default DATA/fastnetmon): fastnetmon.conf,\n"           \
    "                             networks_list, networks_whitelist, notify.sh\n"                             \
    "  --fastnetmon PATH|none     fastnetmon for --configuration_check (default: fastnetmon in PATH)\n"        \
    "  --fastnetmon-netflow A:P   where FastNetMon listens for NetFlow/IPFIX (127.0.0.1:2055)\n"              \
    "  --fastnetmon-graphite A:P  receive FastNetMon's per-host traffic (Graphite) on A:P (default: off)\n"   \
    "  --fastnetmon-ban-time S    seconds a ban lasts at least (300)\n"                                       \
    "  --fastnetmon-average-time S  FastNetMon's averaging window (15)\n"                                    \
    "  --fastnetmon-reload CMD    run after a changed configuration is installed (FastNetMon 1.2.4\n"        \
    "                             re-reads nothing while it runs: e.g. 'systemctl restart fastnetmon')\n"   \
    "  --no-bird-deploy           no BIRD configuration (diversion, FlowSpec)\n"                             \
    "  --bird-dir DIR             BIRD's files (default DATA/bird): bird.conf and the route files\n"          \
    "  --bird PATH|none           bird for `bird -p` (default: bird in PATH or /usr/sbin)\n"                  \
    "  --bird-socket PATH         the running BIRD's control socket, told `configure` (default DIR/bird.ctl)\n" \
    "  --bird-router-id A         (192.0.2.1)    --bird-as N  parapet's AS (64512)\n"                         \
    "  --bird-peer A[:PORT]       the scrubber or upstream the routes go to (default: none)\n"               \
    "  --bird-peer-as N           its AS (required with --bird-peer)\n"                                       \
    "  --bird-local A[:PORT]      the session's local address (default: any)\n"                               \
    "  --bird-next-hop A          IPv4 diversion next hop; --bird-next-hop6 A: IPv6 (without: no IPv6 unicast)\n" \
    "  --nft-deploy               the nftables scrubber: apply the mitigations to packets in this\n"       \
    "                             network namespace (needs CAP_NET_ADMIN; default: off)\n"                \
    "  --nft-dir DIR              its files (default DATA/nftables): parapet.nft, counters.map\n"         \
    "  --nft-table NAME           the inet table parapet owns (parapet)\n"                                 \
    "  --nft-counters S           read its counters into the ingest every S seconds (60; 0: never)\n"    \
    "  --pmacct-listen A:P        run pmacct's collector (nfacctd: NetFlow v5/v9, IPFIX) on A:P and store\n"  \
    "                             its flows (default: off)\n"                                               \
    "  --pmacct-sflow             sfacctd (sFlow) instead of nfacctd\n"                                     \
    "  --pmacct-dir DIR           its files (default DATA/pmacct)\n"                                        \
    "  --pmacct-refresh S         seconds between its batches (60)\n"                                       \
    "  --pmacct-sampling N        the exporters' sampling rate when they do not send theirs (default: theirs)\n" \
    "  --pmacct PATH              the daemon (default: nfacctd or sfacctd in PATH)\n"                      \
    "  --ddos-deploy-interval S   background deploy sweep interval (5)\n"

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
