/* catalogue.h — the operator's catalogue: the read-only data the API hands
 * out (countries, protocol numbers, ICMP types, TCP flags, scrubbing centres,
 * profiles, rule sets, plans, default thresholds...), stored as named JSON
 * values (store_ops.catalogue_*) in the shape the API answers. Shipped
 * defaults are loaded on a database's first start; the operator lists and
 * changes them with `parapet admin catalogue`. Handlers never type this data. */
#ifndef PARAPET_CATALOGUE_H
#define PARAPET_CATALOGUE_H

#include <jansson.h>
#include <stdbool.h>

#include "core/req.h"

/* Defaults embedded from data/catalogue/KEY.json (build/gen/catalogue_data.c). */
struct catalogue_default {
    const char *key;
    const char *json;
};
extern const struct catalogue_default catalogue_defaults[];
extern const int catalogue_defaults_count;

/* Where the Debian-derived defaults are read from (tests point elsewhere). */
#define CATALOGUE_ISO3166_PATH  "/usr/share/iso-codes/json/iso_3166-1.json"
#define CATALOGUE_PROTOCOLS_PATH "/etc/protocols"

/* The shipped default of a key (new reference), or NULL with *why set when
 * there is none or its source cannot be read. */
json_t *catalogue_default_value(const char *key, const char **why);
/* Every key that has a shipped default, as a new array of strings. */
json_t *catalogue_default_keys(void);
/* Stores the shipped default of every key not yet in the catalogue, in one
 * write transaction. 0, or -1 (reported on stderr). */
int catalogue_seed(struct store *s);

/* In a handler: the catalogue value `key` (held by the request), or NULL
 * after replying 500 (a missing key is the operator's to fix). */
json_t *catalogue_value(struct req *r, const char *key);
/* In a handler: every string of the field `field` (a string or an array of
 * strings) must be a member name of the catalogue object `key`; otherwise
 * replies 400 "<field>: <value> is not one of the catalogue's <what>" and
 * returns -1. */
int catalogue_require_keys(struct req *r, const char *key, const char *field, const char *what);

#endif
