/* nginx_model.h — what the nginx renderer needs of the store: every
 * Application Protection site with its domains, their ports and the
 * policies of each (read in one read transaction by the caller).
 *
 * One site:
 *   {"rid", "id", "customer_id", "name", "doc",          the ap.site
 *    "appshield", "waf": doc or null, "rules": [doc...],  site-level policies
 *    "domains": [{"rid", "id", "name", "doc",
 *                 "ports": [{"rid", "id", "doc", "appshield", "waf", "rules"}]}]}
 * in creation order; custom rules in creation order. */
#ifndef PARAPET_NGINX_MODEL_H
#define PARAPET_NGINX_MODEL_H

#include <jansson.h>

#include "store/store.h"

/* STORE_OK with *out a new array of sites, or the store's error. */
int nginx_model_load(struct store *s, json_t **out);

#endif
