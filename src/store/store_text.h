/* store_text.h — the text forms both store backends keep in their columns:
 * a DNS zone's multi-signer addresses (a JSON array), a LIKE pattern for the
 * zone search, and a resource's document and list row. */
#ifndef PARAPET_STORE_TEXT_H
#define PARAPET_STORE_TEXT_H

#include <stddef.h>

#include "store/store.h"

/* The multi-signer addresses as JSON text (malloc'd), and back. */
char *dns_signers_text(const struct dns_zone *z);
void dns_signers_from_text(struct dns_zone *z, const char *text);
/* "%<search, lowercased, with LIKE's wildcards escaped by \>%" */
void dns_like_pattern(const char *search, char *out, size_t size);
/* A resource's document as stored: compact, keys sorted (malloc'd). */
char *resource_doc_text(const json_t *doc);
/* A resource as a row of res_list. */
json_t *resource_row_json(const struct resource *r);

#endif
