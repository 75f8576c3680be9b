/* waf_audit.h — one entry of ModSecurity's JSON audit log (SecAuditLogFormat
 * JSON, serial: one object per line; docs/telemetry.md of the shared
 * research) as a `waf_log` telemetry record (docs/telemetry.md).
 *
 * The rendered configuration names each transaction "<domain_port_id>-
 * <nginx $request_id>" (modsecurity_transaction_id), so unique_id gives the
 * record's _id and its domain port. One request is one entry: rule_id is the
 * first rule that matched other than a blocking verdict (CRS 949110, 959100,
 * 980130; parapet's 20192, 20197), its message the pattern, its data the
 * location and matched content; action "block" when the answer was an error
 * (4xx, 5xx), else "log"; severity from the rule's (0-2 high, 3-4 medium,
 * else low). */
#ifndef PARAPET_WAF_AUDIT_H
#define PARAPET_WAF_AUDIT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* 1: *record is a new waf_log record; 0: nothing to report (no rule
 * matched, or a transaction of no domain port); -1: not an audit entry.
 * `now` is the time when the entry has no readable time. */
int waf_audit_record(const char *line, size_t len, int64_t now, json_t **record);

#endif
