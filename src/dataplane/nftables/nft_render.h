/* nft_render.h — the nftables scrubber's ruleset from the data plane model
 * (dataplane/model.h): a pure function, unit-tested exactly and against
 * `nft -c` (tests/unit/test_nft_render.c). docs/dataplane.md has the mapping.
 *
 * Three files. parapet.nft is one `nft -f` transaction: the header makes the
 * table (if missing) and flushes its rules, and declares its base chain
 * `scrub` (hook prerouting, priority raw: before connection tracking, so a
 * flood costs no conntrack entries); each site then adds its named counters
 * (which, being there already, keep counting across applies),
 * its sets, its chain `<family>_<rid>` of rules (nft_rules.h) and the jumps
 * from `scrub` for its blocks. An address under attack (an ongoing event)
 * gets a chain of its own with the rules that apply to it, so what is
 * dropped and passed toward it is counted apart; a blackholed one (event of
 * severity blackhole, CleanPipe host in manual mode 3) is dropped whole.
 * counters.map names, for each counter, the address its traffic is stored
 * under, the action and the countermeasure (nft_counters.h):
 *   `<counter>\t<address>\t<drop|pass>\t<policy_type or ->\t<protocol>\n`
 * (protocol: the one its rules match, else 0). objects.list names every
 * chain, counter and set rendered (`chain NAME`, ...), so that the apply can
 * delete those of the live table that are no longer (nft_plane.c). */
#ifndef PARAPET_NFT_RENDER_H
#define PARAPET_NFT_RENDER_H

#include <jansson.h>

#define NFT_RULESET "parapet.nft"
#define NFT_COUNTER_MAP "counters.map"
#define NFT_OBJECTS "objects.list"

struct nft_settings {
    const char *table; /* the table of family inet parapet owns ("parapet") */
};

/* {"parapet.nft": header, "counters.map": its comment line} (new reference). */
json_t *nft_render_header(const struct nft_settings *s);
/* One site's fragment, same members; family "op" or "cp". notes (may be
 * NULL) gets what the site asks for that nftables cannot do. */
json_t *nft_render_site(const struct nft_settings *s, const json_t *site, const char *family, json_t *notes);

#endif
