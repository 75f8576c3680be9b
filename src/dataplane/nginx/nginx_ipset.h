/* nginx_ipset.h — AppShield IP list entries (addresses, CIDR blocks and
 * "first-last" ranges) as the CIDR blocks nginx's allow/deny and
 * ModSecurity's @ipMatch take: a range becomes the fewest blocks that
 * cover exactly it. */
#ifndef PARAPET_NGINX_IPSET_H
#define PARAPET_NGINX_IPSET_H

#include <jansson.h>

/* A new array of strings: full-length blocks as bare addresses, others as
 * "addr/len"; entries that do not parse are left out (the API checked them). */
json_t *nginx_ipset_blocks(const json_t *entries);

#endif
