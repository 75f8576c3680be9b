/* cp_common.h — what the CleanPipe handlers share: the resource kinds, the
 * documents they keep, loading from the path, and the address rules.
 *
 * Kinds (store/resource.h):
 *   cp.site            top level, name unique per customer; doc: site_desc, ip_type,
 *                      mitigation_group_profile_id, service_plan, cidr, policy, lists
 *   cp.host            under a site, name unique in it, 16-hex id; doc: host_desc, cidr
 *                      (bare addresses), policy, lists, tcp_option
 *   cp.route_template  under a site, name unique in it, serial integer id; doc:
 *                      template_desc, cidr
 * Hosts and templates restrict their site's delete. Every cidr is also in the
 * address-block index (hosts as /32 or /128), so the store answers overlap
 * and "still covered" questions.
 *
 * The int-returning helpers answer the request themselves when they fail
 * and return -1. */
#ifndef PARAPET_API_CP_COMMON_H
#define PARAPET_API_CP_COMMON_H

#include <jansson.h>
#include <stdbool.h>

#include "api/cp/cp.h"
#include "base/net.h"
#include "core/resource.h"
#include "store/resource.h"

extern const struct res_kind CP_SITE, CP_HOST, CP_TEMPLATE;

/* Catalogue keys (data/catalogue/cp_*.json). */
#define CP_CAT_GROUP_PROFILES                                                                                \
    "cp_mitigation_group_profiles"              /* {"ipv4": [{profile_id, profile_name}], "ipv6": [...]} */
#define CP_CAT_AUTO_PROFILES "cp_auto_profiles" /* the same shape */
#define CP_CAT_SERVICE_PLANS "cp_service_plans" /* ["plan", ...]; the first is a new site's */
#define CP_CAT_FILTER_SETS                                                                                   \
    "cp_tcp_option_filter_sets" /* [{filter_set_id, filter_set_name, filter_set_desc}] */

/* ---- loading (common.c) ---- */
int cp_site_load(struct req *r, struct resource *site);
int cp_host_load(struct req *r, const struct resource *site, struct resource *host);
int cp_template_load(struct req *r, const struct resource *site, struct resource *t);
/* The host of the path's site and host ids. */
int cp_path_host(struct req *r, struct resource *host);
/* Counts the children of `kind` under parent (or the customer's top-level
 * resources with parent NULL) and refuses with E_LIMIT when max are there. */
int cp_require_room(struct req *r, const char *kind, const struct resource *parent, long max,
                    const char *field, const char *what);
/* A row of res_list as a resource (doc borrowed from the row). */
void cp_row_resource(json_t *row, struct resource *out);
/* The customer's resources of kind under parent_rid (RES_TOP_LEVEL: top
 * level, 0: under any parent), up to max, as res_list rows held by the
 * request; NULL after replying. */
json_t *cp_list(struct req *r, const char *kind, int64_t parent_rid, long max);
/* Replies with the rows under parent (NULL: top level) as an array of
 * to_json(resource). */
int cp_reply_list(struct req *r, const char *kind, const struct resource *parent, long max,
                  json_t *(*to_json)(const struct resource *));
/* Creates a resource of kind (under parent, or top level with NULL) named by
 * the request's name_field, with doc (held by the request) and its blocks
 * in the index; a name taken answers 409 "<name_field>: <name> is already
 * a host of this site" (or site, route template). */
struct cp_blocks;
int cp_create(struct req *r, const struct res_kind *kind, const struct resource *parent,
              const char *name_field, json_t *doc, const struct cp_blocks *bl, struct resource *out);
/* Saves a changed resource; a name taken answers 409 as cp_create does. */
int cp_save(struct req *r, struct resource *res, const char *name_field);

/* ---- documents (common.c) ---- */
const char *cp_doc_str(const json_t *doc, const char *key);
long long cp_doc_int(const json_t *doc, const char *key, long long fallback);
/* doc[key] (an object), created empty when absent. */
json_t *cp_doc_obj(json_t *doc, const char *key);
/* Sets doc[key] to the request's field when it carries it (returns whether). */
bool cp_take_field(struct req *r, json_t *doc, const char *field, const char *key);
/* The site's address family from its ip_type. */
int cp_site_family(const struct resource *site);

/* ---- address blocks (blocks.c) ---- */
struct cp_blocks {
    struct cidr b[CP_MAX_SITE_BLOCKS > CP_MAX_HOST_ADDRESSES ? CP_MAX_SITE_BLOCKS : CP_MAX_HOST_ADDRESSES];
    size_t n;
};
/* The request's array field of canonical addresses or blocks: each of
 * `family`, none repeated or overlapping another. */
int cp_blocks_from_field(struct req *r, const char *field, int family, struct cp_blocks *out);
/* Site blocks: none protected by another customer (in any family, any
 * protection service) nor by another CleanPipe site of this customer. */
int cp_blocks_unclaimed(struct req *r, const char *field, const struct cp_blocks *bl, int64_t self_rid);
/* Child blocks: each inside one of the site's blocks. */
int cp_blocks_inside_site(struct req *r, const char *field, const struct cp_blocks *bl,
                          const struct resource *site);
/* Host addresses: none held by another host of the site. */
int cp_blocks_not_hosts(struct req *r, const char *field, const struct cp_blocks *bl,
                        const struct resource *site, int64_t self_rid);
/* Puts the blocks in the index for res. */
int cp_blocks_store(struct req *r, int64_t rid, const struct cp_blocks *bl);

/* ---- catalogue lookups (catalogue.c) ---- */
/* The entry of the catalogue list `key` for the site's ip_type whose
 * profile_id is id, or NULL (no reply). NULL with *failed when the catalogue
 * could not be read (replied 500). */
json_t *cp_profile_find(struct req *r, const char *key, const char *ip_type, long long id, bool *failed);
/* The catalogue list `key` for ip_type as stored (an empty array when the
 * operator left it out), or NULL after replying 500. */
json_t *cp_profiles_raw(struct req *r, const char *key, const char *ip_type);
/* The entry of a profile list whose profile_id is id, or NULL. */
json_t *cp_profile_in(const json_t *list, long long id);
/* The name of an auto profile for the overview, or NULL. */
const char *cp_profile_name(json_t *profile);

/* ---- allow/block lists (lists.c): a site's or a host's document ---- */
json_t *cp_lists_default(void);

/* ---- overview policy defaults (overview.c) ---- */
json_t *cp_site_policy_default(void);
json_t *cp_host_policy_default(void);

/* ---- JSON for answers ---- */
/* List entries (GET {CPC}/sites, {CPS}/hosts, .../route-templates): the
 * documented read members plus the id. */
json_t *cp_site_json(const struct resource *site);
json_t *cp_host_json(const struct resource *host);
json_t *cp_template_json(const struct resource *t);
/* Answers a single read (GET {CPS}, {CPH}, a route template): a list entry
 * without its id member, exactly the members the documents list. */
int cp_reply_read(struct req *r, json_t *entry, const char *id_key);
/* New documents of a host and of a site (also used by `serve --dev`). */
json_t *cp_host_doc_new(const char *desc, json_t *cidr);
json_t *cp_site_doc_new(const char *desc, const char *ip_type, long long profile_id, const char *service_plan,
                        json_t *cidr);

#endif
