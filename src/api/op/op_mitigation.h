/* op_mitigation.h — Origin Protection part B: detection, overview policy,
 * allow/block lists, bogons, flex filters, auto-mitigation profiles and the
 * {SOPH} filtering modules. The handlers of the mitigation part of the Origin Protection section of src/routes.def,
 * and the helpers the family's files share (docs/decisions.md, "Origin
 * Protection: mitigation", says where each setting is stored and why). */
#ifndef PARAPET_API_OP_MITIGATION_H
#define PARAPET_API_OP_MITIGATION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/errors.h"
#include "core/req.h"
#include "store/resource.h"

/* ---- limits (documented in docs/decisions.md) ---- */
enum {
    OP_LIST_MAX_IPS = 500,         /* source_ips of one allow or block list */
    OP_LIST_MAX_COUNTRIES = 300,   /* src_countries of one list */
    OP_FLEX_MAX_PER_HOST = 32,     /* flex filters of one host (and of one host in one profile) */
    OP_FLEX_MAX_PORTS = 32,        /* port of one flex filter */
    OP_FLEX_MAX_STRINGS = 16,      /* payload_string of one flex filter */
    OP_FLEX_STRING_MAX = 128,      /* characters of one payload keyword */
    OP_PROFILES_MAX_PER_SITE = 50, /* auto-mitigation profiles a site may add to the templates */
    OP_PROFILE_ID_MAX = 32,
    OP_NAME_MAX = 64, /* filter_name, profile_name */
    OP_BLACKHOLE_TIME_MAX = 86400,
    OP_BLACKLIST_TIMEOUT_MAX = 86400,
};
/* The largest rate value taken (bps or pps): 10T. */
#define OP_RATE_MAX 10000000000000ULL

/* ---- pure rules (no request, no store; unit tested) ---- */

/* Why a pure rule refused a request: the envelope error and its message. */
struct op_refusal {
    enum err err;
    char msg[512];
};
void op_refuse(struct op_refusal *why, enum err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Spec RULE: a rate value ("10", "2.5K", "1G"; base/rate.h, decimal units). */
const char *op_rule_rate(const json_t *value, long unused);
/* The value of a rate text known to be valid (0 if not). */
uint64_t op_rate_value(const char *text);
/* The index of the first element equal to an earlier one, or -1. */
long op_first_duplicate(const json_t *array);
/* A new object: `defaults` with `stored`'s members laid over it, objects
 * merged member by member (members absent from the defaults are dropped:
 * the defaults give the shape). */
json_t *op_merge(const json_t *defaults, const json_t *stored);

/* Detection (detection_rules.c). `tree` is the catalogue's
 * op_detection_defaults: group -> leaf name -> leaf; `stored` the host's
 * leaves (same shape, may be NULL). `fields` holds the checked fields of
 * POST detection/policy. Returns the leaf to store (new reference; what the
 * request leaves out, e.g. a direction, is kept), or NULL with *why filled. */
json_t *op_detection_leaf(const json_t *tree, const json_t *stored, const json_t *fields,
                          struct op_refusal *why);
/* The GET result: model, then every group with every leaf, the stored
 * leaves (stored: group -> leaf name -> leaf) over the defaults. */
json_t *op_detection_read(const json_t *tree, const json_t *stored, long model);

/* Flex filters (flex_rules.c): the stored document of a filter from the
 * checked fields of a POST or PUT; `need_enabled`: at least one of the
 * three *_enabled flags must be 1 (the customer-scoped doors). */
json_t *op_flex_doc(const json_t *fields, bool need_enabled, struct op_refusal *why);

/* UDP flood (udp_rules.c): each applies one write to `state` (the host's
 * udp_flood tree, changed in place). 0, or -1 with *why filled. */
int op_udp_policy(json_t *state, const json_t *fields, struct op_refusal *why);
int op_udp_policy_switch(json_t *state, const char *module, long on, struct op_refusal *why);
int op_udp_switch(json_t *state, const char *module, long on, struct op_refusal *why);
int op_udp_zero_payload(json_t *state, long length, struct op_refusal *why);
/* Sets each group's is_enabled from its modules (1 when any is on). */
void op_udp_derive(json_t *state);

/* ---- what handlers share (mitigation_store.c) ---- */

extern const struct res_kind OP_SITE_MITIGATION, OP_SITE_POLICY, OP_HOST_DETECTION, OP_HOST_MITIGATION,
    OP_FLEX_FILTER, OP_AUTO_PROFILE, OP_AUTO_FLEX_FILTER;

/* Replies with a pure rule's refusal; returns 0 like reply_*. */
int reply_refusal(struct req *r, const struct op_refusal *why);

/* The site of the request (op_load_chain: r->site on the {SOPS} doors). */
int op_site_of(struct req *r, struct resource *site);

/* The site, network and host a {OPH}/{SOPH} path names. With `levels`,
 * network_id 0 means the site level and host_id 0 the network level (the
 * overview endpoints); otherwise both must name existing resources. */
struct op_path {
    struct resource site, network, host;
    bool site_level, network_level;
    char level_key[2 * RES_ID_MAX + 2]; /* "site", "<network_id>", "<network_id>/<host_id>" */
};
int op_path_load(struct req *r, bool levels, struct op_path *p);

/* A settings document (a child of `parent` of a kind without names): the
 * stored one, or a new empty one not stored yet (out->rid == 0). */
int op_settings_load(struct req *r, const struct res_kind *kind, const struct resource *parent,
                     struct resource *out);
/* Stores it: created on first write, updated afterwards. */
int op_settings_save(struct req *r, const struct res_kind *kind, const struct resource *parent,
                     struct resource *res);
/* catalogue_value() for the keys a thread reads on every request: parsed
 * once per change of the store (held by the request). `key` must be a
 * string literal. */
json_t *op_catalogue(struct req *r, const char *key);
/* The catalogue's op_mitigation_defaults member `name` (borrowed), or NULL after replying 500. */
json_t *op_mitigation_default(struct req *r, const char *name);
/* The setting `name` of a settings document over its catalogue default
 * (new reference), or NULL after replying. */
json_t *op_setting_read(struct req *r, const struct resource *settings, const char *name);

/* An auto-mitigation profile of the site by its profile_id: a site profile
 * (out->rid > 0) or a template of the catalogue (out->rid == 0, out->doc
 * the template). Replies 404 "<field>: no such profile" when neither. */
int op_profile_find(struct req *r, const struct resource *site, const char *profile_id, const char *field,
                    struct resource *out);

/* Before a network or host is deleted (host NULL: the network), in the
 * delete's transaction: removes what the mitigation endpoints keep for it
 * elsewhere in the site, which nothing could reach afterwards: the host's
 * flex filters in the site's auto-mitigation profiles, and the overview
 * policy levels of the host, or of the network and its hosts. Returns 0, or
 * -1 having replied. */
int op_forget_level(struct req *r, const struct resource *site, const struct resource *network,
                    const struct resource *host);

/* ---- handlers ---- */
int op_detection_mode_set(struct req *r);
int op_detection_policy_set(struct req *r);
int op_detection_policy_get(struct req *r);

int op_policy_profile_set(struct req *r);
int op_policy_switch_set(struct req *r);
int op_policy_switch_get(struct req *r);

int op_allow_block_set(struct req *r);
int op_allow_block_get(struct req *r);
int op_allow_block_switch_set(struct req *r);
int op_bogons_switch_set(struct req *r);
int op_bogons_switch_get(struct req *r);

int op_flex_list(struct req *r);
int op_flex_create(struct req *r);
int op_flex_get(struct req *r);
int op_flex_update(struct req *r);
int op_flex_delete(struct req *r);

int op_auto_profile_set(struct req *r);
int op_auto_profile_get(struct req *r);
int op_auto_profile_delete(struct req *r);
int op_auto_profile_clone(struct req *r);
int op_auto_profiles_list(struct req *r);

int op_basic_filtering_get(struct req *r);
int op_udp_policy_set(struct req *r);
int op_udp_policy_switch_set(struct req *r);
int op_udp_switch_set(struct req *r);
int op_udp_zero_payload_set(struct req *r);
int op_udp_flood_get(struct req *r);
int op_zombie_set(struct req *r);
int op_zombie_get(struct req *r);
int op_zombie_switch_set(struct req *r);

#endif
