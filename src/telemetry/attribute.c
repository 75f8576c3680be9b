/* attribute.c — see attribute.h. */
#include "telemetry/attribute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"

enum { CACHE_SLOTS = 4096, PORT_SLOTS = 256, GROUP_SLOTS = 512, MAX_HITS = 16, GROUP_HITS = 32 };

/* The blocks overlapping one /24 (IPv4) or /64 (IPv6): every block that holds
 * an address of the group is among them (a CIDR holding the address either
 * holds the whole group or lies inside it), so flows toward any address of
 * the group are attributed without asking the store again. */
struct cached_group {
    bool used, complete; /* complete: all the group's blocks fit in hits */
    struct cidr group;
    size_t n;
    struct block_hit hits[GROUP_HITS];
};

struct cached_place {
    bool used, found;
    uint8_t key[TEL_ADDR_KEY + 1]; /* the address key and its prefix length */
    struct tel_place place;
};

/* A WAF entry's domain port, its domain and site (found or not). */
struct cached_port {
    bool used, found;
    char id[RES_ID_MAX + 1];
    int64_t port_rid, domain_rid;
    char domain_id[RES_ID_MAX + 1];
    char domain_name[sizeof ((struct tel_waf_log *)0)->domain_name];
    struct tel_place place;
};

/* A site named by id (found or not). */
struct cached_site {
    bool used, found;
    char id[RES_ID_MAX + 1];
    struct tel_place place;
};

struct tel_attributor {
    struct store *s;
    struct cached_site sites[PORT_SLOTS];
    struct cached_place cache[CACHE_SLOTS];
    struct cached_port ports[PORT_SLOTS];
    struct cached_group groups[GROUP_SLOTS];
    struct cached_port no_port; /* the answer for an id too long to be one */
};

struct tel_attributor *tel_attributor_new(struct store *s)
{
    struct tel_attributor *a = calloc(1, sizeof *a);
    if (a)
        a->s = s;
    return a;
}

void tel_attributor_free(struct tel_attributor *a)
{
    free(a);
}

static const char *family_of(const char *kind)
{
    if (strncmp(kind, "op.", 3) == 0)
        return "op";
    if (strncmp(kind, "cp.", 3) == 0)
        return "cp";
    return "ap";
}

static bool is_site(const char *kind)
{
    return strcmp(kind, "op.site") == 0 || strcmp(kind, "cp.site") == 0 || strcmp(kind, "ap.site") == 0;
}

static uint32_t hash_bytes(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

/* The group's blocks when c is one address and they are few; else NULL. */
static const struct cached_group *group_of(struct tel_attributor *a, const struct cidr *c, int *rc)
{
    int width = c->addr.family == NET_V4 ? 32 : 128;
    *rc = 0;
    if (c->prefix != width)
        return NULL;
    struct cidr g;
    memset(&g, 0, sizeof g);
    g.addr.family = c->addr.family;
    g.prefix = c->addr.family == NET_V4 ? 24 : 64;
    memcpy(g.addr.b, c->addr.b, (size_t)g.prefix / 8);
    struct cached_group *slot = &a->groups[hash_bytes(g.addr.b, sizeof g.addr.b) % GROUP_SLOTS];
    if (!slot->used || !cidr_equal(&slot->group, &g)) {
        struct block_filter any = {0};
        size_t n = 0;
        if (a->s->ops->blocks_overlapping(a->s, &g, &any, slot->hits, GROUP_HITS, &n) != STORE_OK) {
            slot->used = false;
            *rc = -1;
            return NULL;
        }
        slot->used = true;
        slot->group = g;
        slot->complete = n < GROUP_HITS;
        slot->n = n < GROUP_HITS ? n : GROUP_HITS;
    }
    return slot->complete ? slot : NULL;
}

/* The protected holders of a block: the site (top level) and the most
 * specific holder whose block contains all of c. */
static int place_of_block(struct tel_attributor *a, const struct cidr *c, struct tel_place *out, bool *found)
{
    struct block_hit own[MAX_HITS];
    const struct block_hit *hits = own;
    size_t n = 0;
    *found = false;
    int rc;
    const struct cached_group *g = group_of(a, c, &rc);
    if (rc != 0)
        return -1;
    if (g) {
        hits = g->hits;
        n = g->n;
    } else {
        struct block_filter any = {0};
        if (a->s->ops->blocks_overlapping(a->s, c, &any, own, MAX_HITS, &n) != STORE_OK)
            return -1;
        if (n > MAX_HITS)
            n = MAX_HITS;
    }
    int best = -1, site = -1;
    for (size_t i = 0; i < n; i++) {
        if (!cidr_contains(&hits[i].block, c))
            continue;
        if (is_site(hits[i].kind))
            site = (int)i;
        /* the longest prefix; on a tie the resource under the site (a
         * network may hold the same /24 as its site) */
        if (best < 0 || hits[i].block.prefix > hits[best].block.prefix ||
            (hits[i].block.prefix == hits[best].block.prefix && is_site(hits[best].kind)))
            best = (int)i;
    }
    if (best < 0 || site < 0)
        return 0;
    memset(out, 0, sizeof *out);
    copy_text(out->family, sizeof out->family, family_of(hits[site].kind));
    copy_text(out->customer_id, sizeof out->customer_id, hits[site].customer_id);
    out->site_rid = hits[site].rid;
    out->holder_rid = hits[best].rid;
    copy_text(out->holder_kind, sizeof out->holder_kind, hits[best].kind);
    *found = true;
    return 0;
}

/* An Application Protection site by its VIP (ap.vip resources are named by
 * their address). */
static int place_of_vip(struct tel_attributor *a, const struct ip_addr *ip, struct tel_place *out, bool *found)
{
    char text[NET_TEXT_MAX];
    ip_format(ip, text);
    struct res_query q = {.kind = "ap.vip"};
    struct resource vip, site;
    *found = false;
    int rc = a->s->ops->res_get(a->s, &q, NULL, text, &vip);
    resource_clear(&vip);
    if (rc == STORE_NOT_FOUND)
        return 0;
    if (rc != STORE_OK || a->s->ops->res_get_rid(a->s, vip.parent_rid, &site) != STORE_OK)
        return -1;
    resource_clear(&site);
    memset(out, 0, sizeof *out);
    strcpy(out->family, "ap");
    copy_text(out->customer_id, sizeof out->customer_id, site.customer_id);
    out->site_rid = out->holder_rid = site.rid;
    copy_text(out->holder_kind, sizeof out->holder_kind, "ap.site");
    *found = true;
    return 0;
}

/* An address or block: the block index, else (a single address) a VIP. */
static int place_of_addr(struct tel_attributor *a, const struct cidr *c, struct tel_place *out, bool *found)
{
    uint8_t key[TEL_ADDR_KEY + 1];
    tel_addr_key(&c->addr, key);
    key[TEL_ADDR_KEY] = (uint8_t)c->prefix;
    struct cached_place *slot = &a->cache[hash_bytes(key, sizeof key) % CACHE_SLOTS];
    if (slot->used && memcmp(slot->key, key, sizeof key) == 0) {
        *found = slot->found;
        *out = slot->place;
        return 0;
    }
    if (place_of_block(a, c, out, found) != 0)
        return -1;
    int width = c->addr.family == NET_V4 ? 32 : 128;
    if (!*found && c->prefix == width && place_of_vip(a, &c->addr, out, found) != 0)
        return -1;
    slot->used = true;
    slot->found = *found;
    memcpy(slot->key, key, sizeof key);
    slot->place = *out;
    return 0;
}

static uint32_t hash_text(const char *t)
{
    return hash_bytes(t, strlen(t));
}

/* A site named by id: any family's site kind (cached for the batch). */
static int place_of_site_id(struct tel_attributor *a, const char *site_id, struct tel_place *out, bool *found)
{
    static const char *const kinds[] = {"op.site", "cp.site", "ap.site"};
    struct cached_site *c = &a->sites[hash_text(site_id) % PORT_SLOTS];
    if (c->used && strcmp(c->id, site_id) == 0) {
        *found = c->found;
        *out = c->place;
        return 0;
    }
    *found = false;
    c->used = false;
    for (size_t i = 0; i < 3; i++) {
        struct res_query q = {.kind = kinds[i]};
        struct resource site;
        int rc = a->s->ops->res_get(a->s, &q, site_id, NULL, &site);
        resource_clear(&site);
        if (rc == STORE_NOT_FOUND)
            continue;
        if (rc != STORE_OK)
            return -1;
        memset(out, 0, sizeof *out);
        copy_text(out->family, sizeof out->family, family_of(kinds[i]));
        copy_text(out->customer_id, sizeof out->customer_id, site.customer_id);
        out->site_rid = out->holder_rid = site.rid;
        copy_text(out->holder_kind, sizeof out->holder_kind, kinds[i]);
        *found = true;
        break;
    }
    size_t len = strlen(site_id);
    if (len < sizeof c->id) { /* a longer one is no site id: not kept */
        c->used = true;
        c->found = *found;
        memcpy(c->id, site_id, len + 1);
        if (*found)
            c->place = *out;
    }
    return 0;
}

static int fail(char *msg, size_t size, const char *member, const char *what, int rc)
{
    snprintf(msg, size, "%s: %s", member, what);
    return rc;
}

/* The domain port named by id with its domain and site, through the cache. */
static int port_lookup(struct tel_attributor *a, const char *id, struct cached_port **out)
{
    if (strlen(id) > RES_ID_MAX) {
        *out = &a->no_port;
        return 0;
    }
    struct cached_port *c = &a->ports[hash_text(id) % PORT_SLOTS];
    *out = c;
    if (c->used && strcmp(c->id, id) == 0)
        return 0;
    memset(c, 0, sizeof *c);
    struct res_query q = {.kind = "ap.domain_port"};
    struct resource port, domain, site;
    int rc = a->s->ops->res_get(a->s, &q, id, NULL, &port);
    resource_clear(&port);
    if (rc != STORE_OK && rc != STORE_NOT_FOUND)
        return -1;
    if (rc == STORE_OK) {
        if (a->s->ops->res_get_rid(a->s, port.parent_rid, &domain) != STORE_OK)
            return -1;
        resource_clear(&domain);
        if (a->s->ops->res_get_rid(a->s, domain.parent_rid, &site) != STORE_OK)
            return -1;
        resource_clear(&site);
        c->found = true;
        c->port_rid = port.rid;
        c->domain_rid = domain.rid;
        copy_text(c->domain_id, sizeof c->domain_id, domain.id);
        copy_text(c->domain_name, sizeof c->domain_name, domain.name);
        strcpy(c->place.family, "ap");
        copy_text(c->place.customer_id, sizeof c->place.customer_id, site.customer_id);
        c->place.site_rid = c->place.holder_rid = site.rid;
        copy_text(c->place.holder_kind, sizeof c->place.holder_kind, "ap.site");
    }
    copy_text(c->id, sizeof c->id, id);
    c->used = true;
    return 0;
}

/* A WAF entry's domain port, its domain and site. */
static int attribute_waf(struct tel_attributor *a, struct tel_record *rec, struct tel_locator *loc, char *msg,
                         size_t size)
{
    struct tel_waf_log *w = &rec->u.waf;
    struct cached_port *c;
    if (port_lookup(a, loc->domain_port_id, &c) != 0)
        return -1;
    if (!c->found)
        return fail(msg, size, "domain_port_id", "no such domain port", 1);
    if (loc->domain_id[0] && strcmp(loc->domain_id, c->domain_id) != 0)
        return fail(msg, size, "domain_id", "is not the domain of domain_port_id", 1);
    if (loc->domain[0] && strcasecmp(loc->domain, c->domain_name) != 0)
        return fail(msg, size, "domain", "is not the domain of domain_port_id", 1);
    rec->place = c->place;
    w->domain_rid = c->domain_rid;
    w->port_rid = c->port_rid;
    copy_text(w->domain_port_id, sizeof w->domain_port_id, c->id);
    copy_text(w->domain_name, sizeof w->domain_name, c->domain_name);
    copy_text(loc->domain_id, sizeof loc->domain_id, c->domain_id);
    if (loc->waf_entry) {
        json_object_set_new(loc->waf_entry, "domain", json_string(c->domain_name));
        json_object_set_new(loc->waf_entry, "domain_id", json_string(c->domain_id));
    }
    return 0;
}

/* An Application Protection event named by site_id alone is about the
 * site's first VIP (its address answers site_ip, and the flows toward it
 * are the event's traffic). */
static int event_vip(struct tel_attributor *a, struct tel_ddos_event *e, int64_t site_rid)
{
    struct res_query q = {.kind = "ap.vip", .parent_rid = site_rid, .limit = 1};
    json_t *rows = NULL;
    long total = 0;
    if (a->s->ops->res_list(a->s, &q, &rows, &total) != STORE_OK)
        return -1;
    const char *name = json_string_value(json_object_get(json_array_get(rows, 0), "name"));
    struct cidr c;
    if (name && cidr_parse(name, CIDR_ALLOW_BARE, &c) == 0) {
        copy_text(e->site_ip, sizeof e->site_ip, name);
        tel_block_keys(&c, e->ip_lo, e->ip_hi);
    }
    json_decref(rows);
    return 0;
}

int tel_attribute(struct tel_attributor *a, struct tel_record *rec, struct tel_locator *loc, char *msg,
                  size_t msgsize)
{
    if (rec->kind == TEL_WAF_LOG)
        return attribute_waf(a, rec, loc, msg, msgsize);
    const char *member = rec->kind == TEL_FLOW ? "dst_ip" : "site_ip";
    bool found = false;
    struct tel_place by_id;
    if (loc->site_id[0]) {
        if (place_of_site_id(a, loc->site_id, &by_id, &found) != 0)
            return -1;
        if (!found)
            return fail(msg, msgsize, "site_id", "no such site", 1);
        rec->place = by_id;
    }
    if (loc->has_addr) {
        if (place_of_addr(a, &loc->addr, &rec->place, &found) != 0)
            return -1;
        if (!found)
            return fail(msg, msgsize, member, "is in no protected site", 1);
        if (loc->site_id[0] && rec->place.site_rid != by_id.site_rid)
            return fail(msg, msgsize, member, "is not in the site that site_id names", 1);
    }
    if ((rec->kind == TEL_DDOS_EVENT || rec->kind == TEL_FLOW_DOWN) && !loc->has_addr &&
        strcmp(rec->place.family, "ap") != 0)
        return fail(msg, msgsize, "site_ip", "is required for an Origin Protection or CleanPipe site", 1);
    if (rec->kind == TEL_DDOS_EVENT) {
        bool ap_event = strcmp(loc->attack_family, "ap") == 0;
        if (ap_event != (strcmp(rec->place.family, "ap") == 0))
            return fail(msg, msgsize, "attack_type",
                        ap_event ? "application and mixed are Application Protection attack types"
                                 : "must be application or mixed for an Application Protection site",
                        1);
        if (ap_event && !loc->has_addr && event_vip(a, &rec->u.ev, rec->place.site_rid) != 0)
            return -1;
    }
    if (rec->kind == TEL_BANDWIDTH && strcmp(rec->place.family, "ap") != 0)
        return fail(msg, msgsize, loc->site_id[0] ? "site_id" : "site_ip",
                    "bandwidth samples are for Application Protection sites", 1);
    return 0;
}
