/* attribute.h — which customer and site a record belongs to. Network gear
 * knows addresses, not site ids: an address is looked up in the
 * address-block index (the most specific holder: host, network, site);
 * Application Protection records name their site by id, VIP or domain port.
 * Lookups are cached for the length of one batch. */
#ifndef PARAPET_TEL_ATTRIBUTE_H
#define PARAPET_TEL_ATTRIBUTE_H

#include "store/store.h"
#include "telemetry/record.h"

struct tel_attributor;

struct tel_attributor *tel_attributor_new(struct store *s);
void tel_attributor_free(struct tel_attributor *a);
/* Fills rec->place (and a WAF entry's domain members). 0; 1 with msg
 * ("member: rule") when the record names nothing a customer holds;
 * -1 on a store failure. */
int tel_attribute(struct tel_attributor *a, struct tel_record *rec, struct tel_locator *loc, char *msg,
                  size_t msgsize);

#endif
