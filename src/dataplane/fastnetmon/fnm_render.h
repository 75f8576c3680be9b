/* fnm_render.h — FastNetMon 1.2.4's configuration from the data plane model
 * (dataplane/model.h): a pure function, unit-tested exactly
 * (tests/unit/test_fastnetmon_render.c).
 *
 * Three files: fastnetmon.conf, networks_list (the protected address space:
 * every site, network and host block) and networks_whitelist. Each
 * protected site, network and host is a hostgroup of its own (docs/dataplane.md
 * has the mapping table). Known pitfalls of 1.2.4 it is built around: only a
 * line that starts with '#' is a comment (no inline comments); a hostgroup's
 * CIDR applies only when networks_list holds it verbatim; a group inherits
 * nothing from the global keys (every key is written); and
 * disable_usage_report = on is always written (the default phones home). */
#ifndef PARAPET_FNM_RENDER_H
#define PARAPET_FNM_RENDER_H

#include <jansson.h>

struct fnm_settings {
    const char *dir;           /* absolute: the files' directory */
    const char *netflow_host;  /* NetFlow/IPFIX listener */
    int netflow_port;
    const char *graphite_host; /* traffic export (parapet's receiver); NULL: off */
    int graphite_port;
    const char *notify_script; /* absolute path; NULL: none */
    int ban_time;              /* seconds a ban lasts at least */
    int average_calculation_time;
};

/* The file names (inside settings->dir) of the three parts. */
#define FNM_CONF       "fastnetmon.conf"
#define FNM_NETWORKS   "networks_list"
#define FNM_WHITELIST  "networks_whitelist"

/* The global part: {"fastnetmon.conf": text, "networks_list": "",
 * "networks_whitelist": ""} (new reference). */
json_t *fnm_render_header(const struct fnm_settings *cfg);
/* One site's part, same members: its hostgroups and their thresholds, its
 * blocks; `family` "op" or "cp". notes (may be NULL) gets an array of what
 * the site asks for that FastNetMon cannot do. New reference. */
json_t *fnm_render_site(const json_t *site, const char *family, json_t *notes);

#endif
