/* op_rules.h — the pure rules of Origin Protection addresses (unit-tested
 * in tests/unit/test_op_rules.c): the block forms networks and hosts take,
 * and whether blocks belong to an ASN's registered prefixes. */
#ifndef PARAPET_API_OP_RULES_H
#define PARAPET_API_OP_RULES_H

#include <jansson.h>
#include <stddef.h>

#include "base/net.h"

/* The prefix length of a network block: the document takes "only class C
 * (/24) blocks", so IPv4 /24 and nothing else (docs/decisions.md). */
enum { OP_NETWORK_V4_PREFIX = 24 };

/* CANON: a network block, "a.b.c.0/24", rewritten in
 * canonical form. Host bits must be clear. */
const char *op_rule_network_block(json_t **value, long unused);
/* CANON: one host address (the document: "individual addresses written as
 * /32 blocks"; networks are IPv4), bare or as /32, public; rewritten as
 * canonical "addr/32". */
const char *op_rule_host_address(json_t **value, long unused);

/* Whether every block lies inside a prefix registered for the ASN and is
 * no longer than that prefix's ROA max length. `prefixes` is what
 * store_ops.asn_prefixes answers ([{"prefix","max_length"}]). Returns -1
 * when all belong, else the index of the first block that does not, with
 * `why` (size why_len) saying how ("is not inside a prefix of AS64500" or
 * "is longer than /24, the ROA max length of 10.0.0.0/8"). */
long op_blocks_outside_asn(const struct cidr *b, size_t n, long long asn, const json_t *prefixes, char *why,
                           size_t why_len);

#endif
