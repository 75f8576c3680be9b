/* fnm_plane.h — FastNetMon as a data plane (dataplane/plane.h): its
 * renderer, its checker (parapet's validator on the whole, then `fastnetmon
 * --configuration_check` on the header and the fragments it has not
 * accepted yet, any [ERROR] line of which fails), and its reload
 * (1.2.4 re-reads nothing while it runs: an operator's command, e.g.
 * `systemctl restart fastnetmon`, or none). */
#ifndef PARAPET_FNM_PLANE_H
#define PARAPET_FNM_PLANE_H

#include "dataplane/fastnetmon/fnm_render.h"
#include "dataplane/plane.h"

struct fnm_plane_config {
    struct fnm_settings render;
    const char *fastnetmon; /* the binary for --configuration_check; NULL: parapet's validator only */
    const char *reload_cmd; /* run with /bin/sh -c after an install; NULL: none */
};

/* Fills p for cfg (which must outlive p). */
void fnm_plane_init(struct dp_plane *p, const struct fnm_plane_config *cfg);

#endif
