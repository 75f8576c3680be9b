/* ap_vip.c — virtual addresses: each site holds one IPv4 and one IPv6
 * address from the operator's pools (catalogue value ap_vip_pools:
 * {"ipv4": [CIDR...], "ipv6": [CIDR...]}, managed with `parapet admin
 * vip-pool`). An allocation is an ap.vip resource under the site whose
 * platform-unique name is the address, so two sites never share one, and
 * it goes with the site. The lowest free address of all pools is taken. */
#include <string.h>

#include "api/ap/ap_common.h"
#include "core/catalogue.h"
#include "core/net.h"
#include "core/text.h"

/* Every allocated address (any family) as the keys of a new object. */
static int used_addresses(struct req *r, json_t **used)
{
    struct res_query q = {.kind = AP_VIP.name, .limit = 1000000};
    json_t *rows = NULL;
    long total;
    int rc = r->store->ops->res_list(r->store, &q, &rows, &total);
    if (rc != STORE_OK) {
        json_decref(rows);
        return reply_store_error(r, rc), -1;
    }
    *used = json_object();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_object_set_new(*used, json_string_value(json_object_get(row, "name")), json_true());
    }
    json_decref(rows);
    return 0;
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

int ap_vip_allocate(struct req *r, const struct resource *site, json_t *site_doc, int family)
{
    const char *fam = family == NET_V4 ? "ipv4" : "ipv6";
    json_t *pools = catalogue_value(r, "ap_vip_pools");
    if (!pools)
        return -1;
    json_t *list = json_object_get(pools, fam);
    if (json_array_size(list) == 0) {
        reply_error(r, E_LIMIT, "vip: no %s VIP pool is configured (the operator adds one with parapet admin "
                                "vip-pool add)", family == NET_V4 ? "IPv4" : "IPv6");
        return -1;
    }
    json_t *used;
    if (used_addresses(r, &used) != 0)
        return -1;
    bool found = false;
    struct ip_addr best = {0};
    char names[512] = "";
    size_t i;
    json_t *p;
    json_array_foreach (list, i, p) {
        struct cidr pool;
        struct ip_addr a;
        if (!json_is_string(p) || cidr_parse(json_string_value(p), 0, &pool) != 0 ||
            pool.addr.family != family)
            continue;
        size_t n = strlen(names);
        snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", json_string_value(p));
        if (lowest_free(&pool, used, &a) == 0 && (!found || ip_cmp(&a, &best) < 0)) {
            best = a;
            found = true;
        }
    }
    json_decref(used);
    if (!found) {
        reply_error(r, E_LIMIT, "vip: the %s VIP pool %s is exhausted", family == NET_V4 ? "IPv4" : "IPv6",
                    names);
        return -1;
    }
    struct resource vip = {.parent_rid = site->rid};
    copy_text(vip.customer_id, sizeof vip.customer_id, site->customer_id);
    ip_format(&best, vip.name);
    vip.doc = req_hold(r, json_pack("{s:i}", "family", family));
    int rc = r->store->ops->res_create(r->store, &AP_VIP, &vip);
    if (rc != STORE_OK)
        return reply_res_error(r, rc, "vip", "vip: the address was taken meanwhile; try again"), -1;
    json_array_append_new(json_object_get(site_doc, family == NET_V4 ? "vip" : "vip_v6"),
                          json_string(vip.name));
    return 0;
}
