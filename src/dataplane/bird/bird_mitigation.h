/* bird_mitigation.h — the Origin Protection and CleanPipe mitigations that
 * FlowSpec (RFC 8955) can express, as BIRD `route flow4|flow6` lines: block
 * lists (discard by source), bogons, a host's flex filters (protocol and
 * ports: discard or traffic-rate), its UDP flood modules (packet lengths,
 * rates, fragments) and its zombie network rate. What FlowSpec cannot
 * express (countries, payloads, packet rates, per-source limits, allow
 * lists) is said in the notes, which the site's deploy state carries.
 * Pure; part of bird_render (tests/unit/test_bird_render.c). */
#ifndef PARAPET_BIRD_MITIGATION_H
#define PARAPET_BIRD_MITIGATION_H

#include <jansson.h>

#include "base/strbuf.h"

struct bird_rules {
    struct strbuf *v4, *v6; /* flow4 / flow6 route lines */
    json_t *notes;          /* NULL, or an array of strings (no repeats) */
    int max;                /* rules kept at most */
    int count, left_out;
    const char *last_comment; /* the purpose of the rule written last */
    char last_comment_buf[128];
};

void bird_op_rules(struct bird_rules *r, const json_t *site);
void bird_cp_rules(struct bird_rules *r, const json_t *site);
/* Notes the rules left out over r->max. */
void bird_rules_finish(struct bird_rules *r);

#endif
