/* ap_vip.c — virtual addresses: each site holds one IPv4 and one IPv6
 * address from the operator's pools (catalogue value ap_vip_pools:
 * {"ipv4": [CIDR...], "ipv6": [CIDR...]}, managed with `parapet admin
 * vip-pool`). An allocation is an ap.vip resource under the site whose
 * platform-unique name is the address, so two sites never share one, and
 * it goes with the site. The lowest free address of all pools is taken. */
#include <string.h>

#include "api/ap/ap_common.h"
#include "base/net.h"
#include "base/text.h"
#include "core/catalogue.h"

/* Every allocated address (any family) as the keys of a new object. */
static int used_addresses(struct store *s, json_t **used)
{
    struct res_query q = {.kind = AP_VIP.name, .limit = 1000000};
    json_t *rows = NULL;
    long total;
    int rc = s->ops->res_list(s, &q, &rows, &total);
    if (rc != STORE_OK) {
        json_decref(rows);
        return rc;
    }
    *used = json_object();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_object_set_new(*used, json_string_value(json_object_get(row, "name")), json_true());
    }
    json_decref(rows);
    return STORE_OK;
}

static void ip_next(struct ip_addr *a)
{
    for (int i = a->family == NET_V4 ? 3 : 15; i >= 0; i--)
        if (++a->b[i] != 0)
            break;
}

static int ip_cmp(const struct ip_addr *a, const struct ip_addr *b)
{
    return memcmp(a->b, b->b, 16);
}

/* The lowest address of `pool` not in `used`; -1 when all are taken. At
 * most |used| + 1 addresses are looked at. */
static int lowest_free(const struct cidr *pool, json_t *used, struct ip_addr *out)
{
    struct ip_addr a = pool->addr;
    uint64_t size = cidr_size(pool), limit = json_object_size(used) + 1;
    for (uint64_t k = 0; k < size && k < limit + 1; k++, ip_next(&a)) {
        char text[NET_TEXT_MAX];
        ip_format(&a, text);
        if (!json_object_get(used, text)) {
            *out = a;
            return 0;
        }
    }
    return -1;
}

int ap_vip_take(struct store *s, const struct resource *site, const json_t *pools, int family,
                char addr[NET_TEXT_MAX], char *names, size_t names_size)
{
    json_t *list = json_object_get(pools, family == NET_V4 ? "ipv4" : "ipv6");
    json_t *used;
    int rc = used_addresses(s, &used);
    if (rc != STORE_OK)
        return rc;
    bool found = false;
    struct ip_addr best = {0};
    names[0] = '\0';
    size_t i;
    json_t *p;
    json_array_foreach (list, i, p) {
        struct cidr pool;
        struct ip_addr a;
        if (!json_is_string(p) || cidr_parse(json_string_value(p), 0, &pool) != 0 ||
            pool.addr.family != family)
            continue;
        size_t n = strlen(names);
        snprintf(names + n, names_size - n, "%s%s", n ? ", " : "", json_string_value(p));
        if (lowest_free(&pool, used, &a) == 0 && (!found || ip_cmp(&a, &best) < 0)) {
            best = a;
            found = true;
        }
    }
    json_decref(used);
    if (!found)
        return STORE_NOT_FOUND;
    struct resource vip = {.parent_rid = site->rid};
    copy_text(vip.customer_id, sizeof vip.customer_id, site->customer_id);
    ip_format(&best, vip.name);
    vip.doc = json_pack("{s:i}", "family", family);
    rc = s->ops->res_create(s, &AP_VIP, &vip);
    json_decref(vip.doc);
    copy_text(addr, NET_TEXT_MAX, vip.name);
    return rc;
}

int ap_vip_allocate(struct req *r, const struct resource *site, json_t *site_doc, int family)
{
    const char *fam = family == NET_V4 ? "IPv4" : "IPv6";
    json_t *pools = catalogue_value(r, "ap_vip_pools");
    if (!pools)
        return -1;
    char addr[NET_TEXT_MAX], names[512];
    int rc = ap_vip_take(r->store, site, pools, family, addr, names, sizeof names);
    if (rc == STORE_NOT_FOUND && !names[0])
        return reply_error(r, E_LIMIT,
                           "vip: no %s VIP pool is configured (the operator adds one with parapet "
                           "admin vip-pool add)",
                           fam),
               -1;
    if (rc == STORE_NOT_FOUND)
        return reply_error(r, E_LIMIT, "vip: the %s VIP pool %s is exhausted", fam, names), -1;
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "vip", "vip: the address was taken meanwhile; try again"), -1;
    json_array_append_new(json_object_get(site_doc, family == NET_V4 ? "vip" : "vip_v6"), json_string(addr));
    return 0;
}
