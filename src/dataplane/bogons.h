/* bogons.h — sources that cannot exist on the Internet (RFC 6890
 * special-purpose ranges), the "martian_address" bogon filter of every data
 * plane that drops by source (BIRD's FlowSpec, the nftables scrubber). */
#ifndef PARAPET_DP_BOGONS_H
#define PARAPET_DP_BOGONS_H

/* NULL-terminated lists of canonical blocks. */
extern const char *const dp_martians4[];
extern const char *const dp_martians6[];

#endif
