/* knot_conf.h — renders Knot DNS configuration from zone specs (the JSON
 * the store's dns_deploy_snapshot gives: name, zone_transfer, dnssec,
 * root_cname, multi_signer{enabled, ip[]}, masters[{ip, key_name, secret,
 * algorithm}]). Pure text generation; nothing here touches files. */
#ifndef PARAPET_KNOT_CONF_H
#define PARAPET_KNOT_CONF_H

#include <jansson.h>
#include <stddef.h>

struct knot_settings {
    const char *dir;                /* absolute: knot.conf, zones.conf, zones/, db/, run/ live here */
    const char *listen;             /* knotd's listen address in knot.conf, e.g. "127.0.0.1@5300" */
    const char *const *nameservers; /* NS names written into new zone files */
    int n_nameservers;
};

/* The policies every signed zone refers to. */
#define KNOT_POLICY_SIGNED       "parapet-signed"
#define KNOT_POLICY_MULTI_SIGNER "parapet-multi-signer"

/* The part parapet owns (zones.conf): TSIG keys, remotes, ACLs, signing
 * policies and one zone entry per spec. Returns malloc'd text, or NULL when
 * a spec cannot be rendered (a TSIG key clash, or a value that could end
 * its quoted string or line: '"', '\', '#', a control character); then
 * *bad is that spec's index and `why` says what is wrong with it. */
char *knot_render_zones(json_t *specs, size_t *bad, char *why, size_t whysize);

/* A whole configuration around `include_path`: server, database and zone
 * template sections, then the include. Used for knot.conf (written once,
 * the operator's afterwards) and for the file a candidate is checked with. */
char *knot_render_main(const struct knot_settings *k, const char *include_path);

/* A minimal zone file knotd can load: SOA and NS records at the apex. */
char *knot_render_zone_file(const struct knot_settings *k, const char *zone);

#endif
