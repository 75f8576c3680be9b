/* pm_render.h — the configuration of pmacct's collector (Debian `pmacct`
 * 1.7: nfacctd for NetFlow v5/v9 and IPFIX, sfacctd for sFlow) from the data
 * plane model (dataplane/model.h): one print plugin writing JSON to standard
 * output (which parapet reads: pm_collector.h), aggregated by source and
 * destination address, ports, protocol and source AS, in one-minute buckets,
 * for the protected blocks of every site only (`aggregate_filter`), counts
 * scaled by the exporter's sampling rate (`*_renormalize`, or the operator's
 * rate). Pure; unit-tested (tests/unit/test_pm_collector.c).
 *
 * Why these keys (shared/realtraffic.md): stdout with `print_output_lock_file`
 * is the only streaming output that loses nothing (a FIFO or /dev/stdout as
 * the output file drops data); a templates file lets a restarted nfacctd
 * decode IPFIX at once; epoch timestamps and numeric protocols need no
 * parsing of local time or protocol names. */
#ifndef PARAPET_PM_RENDER_H
#define PARAPET_PM_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct pm_settings {
    const char *dir;     /* absolute: the configuration, its log, lock and templates files */
    bool sflow;          /* sfacctd (sFlow) instead of nfacctd */
    const char *host;    /* the address it listens on for exports */
    int port;
    unsigned refresh_s;  /* seconds between purges (60: one batch a minute) */
    unsigned sampling;   /* the exporters' sampling rate when they do not send it (0: theirs) */
    unsigned cache_entries; /* the print plugin's cache (buckets); a full cache purges early */
};

/* The configuration text (malloc'd), or NULL with why when the model has no
 * protected block (nothing to collect) or a block cannot be filtered on. */
char *pm_render(const struct pm_settings *s, const json_t *model, char *why, size_t why_len);

/* The model may also hold "ap_sites": [{"rid", "blocks": [VIP]}] (the
 * Application Protection VIPs, which the data plane model leaves out). */

/* The protected blocks of the model as a pcap filter ("dst net A or dst net
 * B ..."), checked by libpcap's compiler; "" when none. */
char *pm_filter(const json_t *model, char *why, size_t why_len);

#endif
