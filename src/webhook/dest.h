/* dest.h — where webhooks may go. An endpoint's URL is an absolute https
 * URL without user or password; the addresses it reaches must be public:
 * loopback, link-local, multicast, unspecified and private ranges (RFC 1918,
 * 100.64/10 shared space, fc00::/7) are refused unless the operator allows
 * a block (`serve --webhook-allow CIDR`), so that a tenant cannot make the
 * server call into the operator's own network. A host name is checked
 * where it resolves, at each connection (DNS rebinding cannot pass). */
#ifndef PARAPET_WEBHOOK_DEST_H
#define PARAPET_WEBHOOK_DEST_H

#include <stdbool.h>
#include <stddef.h>

#include "base/net.h"

enum { WEBHOOK_ALLOW_MAX = 16 };

struct webhook_dest_policy {
    struct cidr allow[WEBHOOK_ALLOW_MAX];
    int n_allow;
};

/* Whether the policy lets a delivery connect to a. */
bool webhook_addr_allowed(const struct webhook_dest_policy *p, const struct ip_addr *a);
/* NULL when url may be an endpoint's, or the rule it breaks (phrased after
 * "url: "). */
const char *webhook_url_check(const struct webhook_dest_policy *p, const char *url);

#endif
