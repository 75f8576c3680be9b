/* fnm_validate.h — parapet's own check of a FastNetMon 1.2.4 configuration,
 * since `fastnetmon --configuration_check` passes garbage (it only opens the
 * file; docs/dataplane.md). Every line of fastnetmon.conf must be a known
 * key with a value of its type, every hostgroup well formed with all of its
 * keys (groups inherit nothing) and each of its CIDRs listed verbatim in
 * networks_list, no CIDR in two groups, disable_usage_report = on. Pure;
 * unit-tested (tests/unit/test_fastnetmon_validate.c). */
#ifndef PARAPET_FNM_VALIDATE_H
#define PARAPET_FNM_VALIDATE_H

#include <stddef.h>

/* 0 when the three texts are a configuration parapet would run; 1 with
 * why = "FILE line N: rule" otherwise. */
int fnm_validate(const char *conf, const char *networks, const char *whitelist, char *why, size_t why_len);

/* Whether a line of `fastnetmon --configuration_check --log_to_console`
 * output is an error parapet treats as a failure ([ERROR], except the two
 * known harmless ones: the hard-coded attack details folder and a notify
 * script that does not exist yet). */
int fnm_check_line_fails(const char *line);

#endif
