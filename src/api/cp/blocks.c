/* blocks.c — the address rules of CleanPipe sites, hosts and route
 * templates, answered from the shared address-block index. */
#include <stdlib.h>
#include <string.h>

#include "api/cp/cp_common.h"

/* Space no site protects, beyond what the field rule refuses of a block's
 * first address: a block must not hold any of it either (128.0.0.0/1 holds
 * multicast). ::ffff:0:0/96 is IPv4 space written as IPv6: it would let a
 * second customer hold a block another protects as IPv4. */
static const char *const SPECIAL[] = {
    "0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16", "224.0.0.0/3", "::/127", "ff00::/8", "fe80::/10",
};

static int holds_special(struct req *r, const char *field, size_t k, const struct cidr *b)
{
    struct cidr s;
    if (b->addr.family == NET_V6 && cidr_parse("::ffff:0:0/96", 0, &s) == 0 && cidr_overlaps(b, &s)) {
        reply_error(r, E_FIELD_INVALID,
                    "%s[%zu]: must not be (or hold) IPv4-mapped addresses (::ffff:0:0/96); protect IPv4 "
                    "space with an ipv4 site",
                    field, k);
        return -1;
    }
    for (size_t i = 0; i < sizeof SPECIAL / sizeof SPECIAL[0]; i++) {
        if (cidr_parse(SPECIAL[i], 0, &s) == 0 && s.addr.family == b->addr.family && cidr_overlaps(b, &s)) {
            reply_error(r, E_FIELD_INVALID,
                        "%s[%zu]: must not hold loopback, unspecified, multicast or link-local space (%s)",
                        field, k, SPECIAL[i]);
            return -1;
        }
    }
    return 0;
}

int cp_blocks_from_field(struct req *r, const char *field, int family, struct cp_blocks *out)
{
    size_t max = sizeof out->b / sizeof out->b[0];
    long n = field_cidrs(r, field, out->b, max);
    if (n < 0) { /* the route's spec bounds the count and the form: not expected */
        reply_error(r, E_FIELD_INVALID, "%s: at most %zu blocks are allowed", field, max);
        return -1;
    }
    out->n = (size_t)n;
    for (size_t i = 0; i < out->n; i++) {
        if (out->b[i].addr.family != family) {
            reply_error(r, E_RULE, "%s[%zu]: must be an %s address (the site's ip_type is %s)", field, i,
                        family == NET_V6 ? "IPv6" : "IPv4", family == NET_V6 ? "ipv6" : "ipv4");
            return -1;
        }
    }
    for (size_t k = 0; k < out->n; k++)
        if (holds_special(r, field, k, &out->b[k]) != 0)
            return -1;
    size_t i, j;
    if (cidrs_first_overlap(out->b, out->n, &i, &j) == 0) {
        reply_error(r, E_FIELD_INVALID, "%s[%zu]: overlaps %s[%zu]", field, j, field, i);
        return -1;
    }
    return 0;
}

/* The first block of bl that f's holders overlap: 0 with *hit and *at set,
 * 1 when none does, -1 after replying a store error. */
static int first_overlap(struct req *r, const struct cp_blocks *bl, const struct block_filter *f,
                         struct block_hit *hit, size_t *at)
{
    for (size_t i = 0; i < bl->n; i++) {
        size_t n = 0;
        int rc = r->store->ops->blocks_overlapping(r->store, &bl->b[i], f, hit, 1, &n);
        if (rc != STORE_OK) {
            reply_store_error(r, rc);
            return -1;
        }
        if (n > 0) {
            *at = i;
            return 0;
        }
    }
    return 1;
}

int cp_blocks_unclaimed(struct req *r, const char *field, const struct cp_blocks *bl, int64_t self_rid)
{
    struct block_hit hit;
    size_t at;
    char text[NET_TEXT_MAX];
    /* a block is protected by one customer only, whichever service protects it */
    struct block_filter others = {.top_level = true, .not_customer_id = r->customer.id};
    int rc = first_overlap(r, bl, &others, &hit, &at);
    if (rc == 0) {
        cidr_format(&bl->b[at], text);
        reply_error(r, E_CONFLICT, "%s[%zu]: %s overlaps address space another customer protects", field, at,
                    text);
    }
    if (rc != 1)
        return -1;
    struct block_filter mine = {
        .kind = CP_SITE.name, .customer_id = r->customer.id, .top_level = true, .except_rid = self_rid};
    rc = first_overlap(r, bl, &mine, &hit, &at);
    if (rc == 0) {
        char theirs[NET_TEXT_MAX];
        cidr_format(&bl->b[at], text);
        cidr_format(&hit.block, theirs);
        reply_error(r, E_CONFLICT, "%s[%zu]: %s overlaps %s of your CleanPipe site %s", field, at, text,
                    theirs, hit.id);
    }
    return rc == 1 ? 0 : -1;
}

int cp_blocks_inside_site(struct req *r, const char *field, const struct cp_blocks *bl,
                          const struct resource *site)
{
    struct cidr *outer = NULL;
    size_t n_outer = 0;
    int rc = r->store->ops->blocks_get(r->store, site->rid, &outer, &n_outer);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    for (size_t i = 0; i < bl->n; i++) {
        if (!cidrs_within(&bl->b[i], 1, outer, n_outer)) {
            free(outer);
            /* quoted as the request wrote it (canonical): a host's address bare */
            const char *text = json_string_value(json_array_get(field_json(r, field), i));
            reply_error(r, E_RULE, "%s[%zu]: %s must lie inside the site's blocks", field, i,
                        text ? text : "");
            return -1;
        }
    }
    free(outer);
    return 0;
}

int cp_blocks_not_hosts(struct req *r, const char *field, const struct cp_blocks *bl,
                        const struct resource *site, int64_t self_rid)
{
    struct block_filter siblings = {.kind = CP_HOST.name, .parent_rid = site->rid, .except_rid = self_rid};
    struct block_hit hit;
    size_t at;
    int rc = first_overlap(r, bl, &siblings, &hit, &at);
    if (rc == 0) {
        char text[NET_TEXT_MAX];
        ip_format(&bl->b[at].addr, text);
        reply_error(r, E_CONFLICT, "%s[%zu]: %s is already an address of host %s", field, at, text, hit.id);
    }
    return rc == 1 ? 0 : -1;
}

int cp_blocks_store(struct req *r, int64_t rid, const struct cp_blocks *bl)
{
    int rc = r->store->ops->blocks_set(r->store, rid, bl->b, bl->n);
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    return 0;
}
