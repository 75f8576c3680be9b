/* catalogue_check.h — what an operator's catalogue value must be before it
 * replaces the shipped default: handlers read members and types without
 * checking them again, so `parapet admin catalogue set` refuses a value
 * whose shape differs from the shipped one.
 *
 * The shape is the shipped default's: an object keeps exactly its members
 * (recursively), an array's elements take the shape of the shipped
 * elements, a scalar keeps its JSON type (integer, real, string, boolean).
 * Objects that are maps (countries, plans, ICMP types, the detection
 * tree...: keys are the operator's) keep only the shape of their values:
 * a shipped member's own, a new member the first shipped member's. Values shipped empty
 * have rules of their own (scrubbing-centre addresses, VIP pools). In an
 * array of records, an "..._id" member is unique. */
#ifndef PARAPET_CATALOGUE_CHECK_H
#define PARAPET_CATALOGUE_CHECK_H

#include <jansson.h>
#include <stddef.h>

/* 0 if `value` may replace `def` as catalogue value `key`; else -1 with
 * the first difference in why ("<path>: <rule>"). */
int catalogue_check(const char *key, const json_t *def, const json_t *value, char *why, size_t why_size);

#endif
