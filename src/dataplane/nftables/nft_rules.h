/* nft_rules.h — the Origin Protection and CleanPipe mitigations of one site
 * as nftables rules (the same stored model BIRD's FlowSpec is rendered from,
 * dataplane/model.h): allow and block lists by source, bogons, a host's flex
 * filters (protocol, ports; drop, pass or `limit rate`), its UDP flood
 * modules (lengths, byte and packet rates, fragments, empty and zeroed
 * payloads) and its zombie limits (aggregate, or per source through a
 * dynamic set). What nftables cannot express (source countries, payload
 * strings searched anywhere in a packet, ...) is said in the notes.
 *
 * Each rule is kept apart from the chain it goes into (nft_render.c places
 * it in the site's chain, and again in the chain of an address under
 * attack), as {"fam": 4|6, "scope": "site" | "h<host rid>", "blocks":
 * [the host's blocks of that family] (absent for site-wide rules),
 * "policy": the countermeasure, "verdict": "drop" | "accept", "match": the
 * rule's text before its counter, "proto": the one protocol it matches, or
 * 0}. Pure; unit-tested through nft_render
 * (tests/unit/test_nft_render.c). */
#ifndef PARAPET_NFT_RULES_H
#define PARAPET_NFT_RULES_H

#include <jansson.h>

enum { NFT_SITE_RULES_MAX = 1000 }; /* rules of one site; more are left out (and said) */

struct nft_rules {
    const char *prefix; /* the site's name stem ("op_3"): names its sets */
    json_t *rules;      /* array (above) */
    json_t *sets;       /* array of `set NAME { ... }` declarations */
    json_t *notes;      /* NULL, or an array of strings (no repeats) */
    int left_out;
};

void nft_op_rules(struct nft_rules *r, const json_t *site);
void nft_cp_rules(struct nft_rules *r, const json_t *site);
/* Notes what went over NFT_SITE_RULES_MAX. */
void nft_rules_finish(struct nft_rules *r);

/* "{ a, b/24 }": the canonical blocks of one family (4 or 6) of a list of
 * addresses and blocks, without repeats or blocks inside another of the
 * list; "" when none. Appended to out (a strbuf). */
struct strbuf;
int nft_block_set(struct strbuf *out, const json_t *texts, int fam);

#endif
