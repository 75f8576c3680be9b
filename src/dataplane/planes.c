/* planes.c — see planes.h. */
#include "dataplane/planes.h"

#include <string.h>

const char *const dp_plane_names[] = {DP_PLANE_FASTNETMON, DP_PLANE_BIRD, DP_PLANE_NFTABLES, DP_PLANE_NGINX, NULL};

bool dp_plane_known(const char *name)
{
    for (size_t i = 0; name && dp_plane_names[i]; i++)
        if (strcmp(name, dp_plane_names[i]) == 0)
            return true;
    return false;
}
