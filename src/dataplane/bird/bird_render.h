/* bird_render.h — BIRD 2's configuration from the data plane model
 * (dataplane/model.h): a pure function, unit-tested exactly
 * (tests/unit/test_bird_render.c). docs/dataplane.md has the mapping table.
 *
 * Five files: bird.conf (the header: router id, the FlowSpec tables, four
 * static protocols that include the other files, and the BGP session to the
 * scrubber or upstream peer), and the route lines of every site in
 * divert4.conf / divert6.conf (diversion and blackhole announcements) and
 * flow4.conf / flow6.conf (FlowSpec rules, RFC 8955). */
#ifndef PARAPET_BIRD_RENDER_H
#define PARAPET_BIRD_RENDER_H

#include <jansson.h>

enum {
    BIRD_SITE_RULES_MAX = 500, /* FlowSpec rules of one site; more are left out (and said) */
    BIRD_DIVERT_COMMUNITY = 100 /* (AS, 100) marks a diversion; blackholes carry 65535:666 (RFC 7999) */
};

struct bird_settings {
    const char *dir;       /* absolute: the files' directory */
    const char *router_id; /* an IPv4 address */
    unsigned as;           /* parapet's AS */
    /* The BGP peer the routes are exported to; NULL: none (the tables are
     * only kept, e.g. for another protocol the operator includes). */
    const char *peer;
    int peer_port; /* 0: 179 */
    unsigned peer_as;
    const char *local; /* the session's local address; NULL: any */
    int local_port;    /* 0: 179 */
    const char *next_hop4, *next_hop6; /* NULL: BIRD's own (next_hop6 NULL: no IPv6 unicast channel) */
};

#define BIRD_CONF "bird.conf"
#define BIRD_DIVERT4 "divert4.conf"
#define BIRD_DIVERT6 "divert6.conf"
#define BIRD_FLOW4 "flow4.conf"
#define BIRD_FLOW6 "flow6.conf"

/* The header: {"bird.conf": text, the four route files: ""} (new reference). */
json_t *bird_render_header(const struct bird_settings *cfg);
/* One site's routes, same members (bird.conf ""); family "op" or "cp".
 * notes (may be NULL) gets what the site asks for that BIRD cannot do. */
json_t *bird_render_site(const json_t *site, const char *family, json_t *notes);

#endif
