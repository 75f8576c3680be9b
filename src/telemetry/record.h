/* record.h — one telemetry record decoded from its JSON object and checked
 * against docs/telemetry.md: every member's type and rule, unknown members
 * refused. Attribution (which customer and site) is attribute.h's. Pure:
 * no store, no clock (the caller passes `now` for the time range). */
#ifndef PARAPET_TEL_RECORD_H
#define PARAPET_TEL_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/net.h"
#include "store/telemetry.h"
#include "telemetry/members.h"

enum { TEL_MSG_MAX = 256 };

/* What attribution needs besides the decoded members: the address to look
 * up and the ids the record names. */
struct tel_locator {
    bool has_addr;
    struct cidr addr;         /* ddos_event/flow_down site_ip, flow dst_ip, bandwidth site_ip */
    char site_id[24];         /* "" when not given */
    char domain_port_id[24];  /* waf_log */
    char domain_id[24];       /* waf_log, optional check */
    char domain[256];         /* waf_log, optional check */
    char attack_family[3];    /* ddos_event: "ap" when attack_type is application/mixed, else "" */
    json_t *waf_entry;        /* waf_log: the entry being built (the caller's to release) */
    char *waf_text;           /* waf_log: or the entry as text, but its domain (tel_decoded_to_text), */
    char *waf_path;           /* and its http_path */
};

/* Decodes obj into *rec and *loc. 0, or -1 with msg = "member: rule". */
int tel_record_decode(json_t *obj, int64_t now, struct tel_record *rec, struct tel_locator *loc, char *msg,
                      size_t msgsize);
/* The same from the members the simdjson decoder saw (decode_simd.h). */
int tel_record_decode_fields(const struct tel_fields *fields, int64_t now, struct tel_record *rec,
                             struct tel_locator *loc, char *msg, size_t msgsize);
/* Frees what a decoded record owns (a WAF entry's text). */
void tel_record_clear(struct tel_record *rec);

/* The 17-byte key of an address (family byte, 16 address bytes). */
void tel_addr_key(const struct ip_addr *a, uint8_t key[TEL_ADDR_KEY]);
/* First and last address keys of a block. */
void tel_block_keys(const struct cidr *c, uint8_t lo[TEL_ADDR_KEY], uint8_t hi[TEL_ADDR_KEY]);

/* The names a severity has in records ("low", ...) and its value; -1 unknown. */
int tel_severity_parse(const char *name, int max);
const char *tel_severity_name(int severity);

/* Whether name is an attack type of Origin Protection / CleanPipe events
 * (document 001's network_summary list). */
bool tel_network_attack_type(const char *name);
/* Whether name is a key of the WAF attack_type_summary (document 002). */
bool tel_waf_attack_type(const char *name);

#endif
