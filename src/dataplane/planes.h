/* planes.h — the names under which the data planes keep each site's deploy
 * state (store: dataplane_states), in one table: what `parapet admin
 * dataplane status --plane P` accepts and its help lists. Knot DNS (`admin
 * dns zones`) and pmacct's collector (no per-site files) keep none. */
#ifndef PARAPET_DATAPLANE_PLANES_H
#define PARAPET_DATAPLANE_PLANES_H

#include <stdbool.h>

#define DP_PLANE_FASTNETMON "fastnetmon"
#define DP_PLANE_BIRD "bird"
#define DP_PLANE_NFTABLES "nftables"
#define DP_PLANE_NGINX "nginx"

/* Every name above, NULL-terminated. */
extern const char *const dp_plane_names[];

/* Whether name is one of them. */
bool dp_plane_known(const char *name);

#endif
