/* bird_flow.h — one FlowSpec rule (RFC 8955) as BIRD 2 writes it inside a
 * `route flow4 { ... }` / `route flow6 { ... }`, checked before it is
 * written: `bird -p` accepts a rule without `dst` although it is invalid
 * (docs/dataplane.md), and a rule that reaches routers must be sane (the
 * Cloudflare 2013 outage came from an impossible packet length). Pure;
 * unit-tested in tests/unit/test_bird_flow.c. */
#ifndef PARAPET_BIRD_FLOW_H
#define PARAPET_BIRD_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

enum { BIRD_MAX_LENGTH = 9216 }; /* the largest packet length a rule may name (jumbo MTU) */

struct bird_flow {
    const char *dst;      /* required: a canonical CIDR */
    const char *src;      /* NULL or a CIDR of dst's family */
    int proto;            /* -1: any; else 0-255 (next header in flow6) */
    const char *dport;    /* NULL or BIRD's numeric match: "53", "80,443", "1..1023" */
    const char *sport;
    int length_min;       /* packet length: match lengths >= min (0: no bound) */
    int length_max;       /* ... and <= max (0: no bound) */
    bool fragment;        /* match fragments only */
    double rate_bytes;    /* traffic-rate in bytes/s; 0: discard */
    const char *comment;  /* what the rule is for (a comment line before it); NULL: none */
};

/* 0 when the rule is valid; -1 with why otherwise. */
int bird_flow_check(const struct bird_flow *f, char *why, size_t why_len);
/* Appends the rule as a `route flow4|flow6 {...} {...};` line (after
 * bird_flow_check; an invalid rule appends nothing and returns -1). */
int bird_flow_write(struct strbuf *b, const struct bird_flow *f, char *why, size_t why_len);
/* The IEEE-754 single bits of a traffic-rate in bytes/s (RFC 8955 7.3). */
unsigned bird_rate_bits(double bytes_per_s);

#endif
