/* model.h — the stored Origin Protection and CleanPipe configuration as one
 * JSON document, the only input of the data plane renderers (which are pure
 * functions of it, so unit tests build it by hand).
 *
 *   {"op_sites": [{"rid", "id", "customer_id", "name", "blocks": [cidr...],
 *       "detection_mode": 0|2, "mitigation_mode": 0|n,
 *       "allow_list", "block_list": {is_enabled, source_ips, source_countries},
 *       "bogons": {land_attack: {is_enabled}, martian_address: {is_enabled}},
 *       "defaults": {group: {leaf: {...}}}         (the catalogue's detection tree)
 *       "networks": [{"rid", "id", "name", "blocks", "mitigation_mode",
 *          "hosts": [{"rid", "id", "name", "blocks", "mitigation_mode",
 *             "detection": {group: {leaf}} (the host's leaves over the defaults),
 *             "udp_flood": {...}, "zombie": {...},
 *             "flex": [{filter doc + "id"}]}]}],
 *       "events": [{"alert_id", "site_ip", "severity"}]}],   (ongoing)
 *    "cp_sites": [{"rid", "id", "customer_id", "name", "blocks",
 *       "policy": {...}, "lists": {...}, "templates": [{"id", "blocks"}],
 *       "hosts": [{"rid", "id", "name", "blocks", "policy", "lists"}],
 *       "events": [...]}]}
 * Sites, networks and hosts are in creation order. */
#ifndef PARAPET_DATAPLANE_MODEL_H
#define PARAPET_DATAPLANE_MODEL_H

#include <jansson.h>

#include "store/store.h"

/* Reads every tenant's configuration in one read transaction. 0 with *out
 * (new reference), or -1 when the store failed. */
int dp_model_load(struct store *s, json_t **out);

#endif
