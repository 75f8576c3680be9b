/* bird_plane.h — BIRD 2 as a data plane (dataplane/plane.h): its renderer,
 * its checker (`bird -p` on the candidate files, in DIR/check/), and its
 * reload (`configure` on the running daemon's control socket). */
#ifndef PARAPET_BIRD_PLANE_H
#define PARAPET_BIRD_PLANE_H

#include "dataplane/bird/bird_render.h"
#include "dataplane/plane.h"

struct bird_plane_config {
    struct bird_settings render;
    const char *bird;   /* the binary for `bird -p`; NULL: parapet's own checks only */
    const char *socket; /* the running daemon's control socket; NULL: nothing to tell */
};

/* Fills p for cfg (which must outlive p). */
void bird_plane_init(struct dp_plane *p, const struct bird_plane_config *cfg);

#endif
