/* admin_vip.c — `parapet admin vip-pool add --cidr CIDR | list | remove
 * --cidr CIDR`: the operator's Application Protection VIP pools, kept as the
 * catalogue value ap_vip_pools {"ipv4": [...], "ipv6": [...]} (each site
 * takes the lowest free address of each family, src/api/ap/ap_vip.c). A
 * pool that overlaps another cannot be added; one from which a site holds
 * an address cannot be removed. */
#include <stdio.h>
#include <string.h>

#include "base/net.h"
#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/args.h"

static json_t *load_pools(struct store *s)
{
    json_t *v = NULL;
    if (s->ops->catalogue_get(s, "ap_vip_pools", &v) != STORE_OK || !json_is_object(v)) {
        json_decref(v);
        v = json_pack("{s:[],s:[]}", "ipv4", "ipv6");
    }
    for (int i = 0; i < 2; i++) {
        const char *fam = i ? "ipv6" : "ipv4";
        if (!json_is_array(json_object_get(v, fam)))
            json_object_set_new(v, fam, json_array());
    }
    return v;
}

/* Whether an allocated VIP lies inside `pool`. */
static int pool_in_use(struct store *s, const struct cidr *pool, char used[NET_TEXT_MAX])
{
    struct res_query q = {.kind = "ap.vip", .limit = 1000000};
    json_t *rows = NULL;
    long total;
    int found = 0;
    if (s->ops->res_list(s, &q, &rows, &total) != STORE_OK)
        return -1;
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        struct ip_addr a;
        const char *name = json_string_value(json_object_get(row, "name"));
        if (name && ip_parse(name, &a) == 0 && cidr_contains_ip(pool, &a)) {
            snprintf(used, NET_TEXT_MAX, "%s", name);
            found = 1;
            break;
        }
    }
    json_decref(rows);
    return found;
}

static int change(struct store *s, const char *verb, const char *text)
{
    struct cidr c;
    if (!text || cidr_parse(text, CIDR_REJECT_HOST_BITS, &c) != 0) {
        fprintf(stderr, "parapet: --cidr must be an address block such as 192.0.2.0/28 (no host bits)\n");
        return 2;
    }
    char canon[NET_TEXT_MAX], used[NET_TEXT_MAX];
    cidr_format(&c, canon);
    s->ops->begin(s, true);
    json_t *pools = load_pools(s);
    json_t *list = json_object_get(pools, c.addr.family == NET_V4 ? "ipv4" : "ipv6");
    size_t i, at = (size_t)-1;
    json_t *p;
    json_array_foreach (list, i, p) {
        struct cidr other;
        if (cidr_parse(json_string_value(p), 0, &other) != 0)
            continue;
        if (cidr_equal(&other, &c))
            at = i;
        else if (!strcmp(verb, "add") && cidr_overlaps(&other, &c)) {
            fprintf(stderr, "parapet: %s overlaps the pool %s\n", canon, json_string_value(p));
            goto refused;
        }
    }
    if (!strcmp(verb, "add")) {
        if (at == (size_t)-1)
            json_array_append_new(list, json_string(canon));
    } else {
        if (at == (size_t)-1) {
            fprintf(stderr, "parapet: %s is not a VIP pool\n", canon);
            goto refused;
        }
        int in_use = pool_in_use(s, &c, used);
        if (in_use != 0) {
            fprintf(stderr,
                    in_use < 0 ? "parapet: the store could not be read\n"
                               : "parapet: a site holds %s from this pool; delete the site first\n",
                    used);
            goto refused;
        }
        json_array_remove(list, at);
    }
    if (s->ops->catalogue_set(s, "ap_vip_pools", pools, "operator") != STORE_OK ||
        s->ops->commit(s) != STORE_OK) {
        fprintf(stderr, "parapet: the VIP pools could not be saved\n");
        goto refused;
    }
    return admin_print(json_pack("{s:o}", "ap_vip_pools", pools));
refused:
    s->ops->rollback(s);
    json_decref(pools);
    return 1;
}

int admin_vip_pool(struct store *s, const char *verb, json_t *args)
{
    if (!strcmp(verb, "list")) {
        s->ops->begin(s, false);
        json_t *pools = load_pools(s);
        s->ops->commit(s);
        return admin_print(json_pack("{s:o}", "ap_vip_pools", pools));
    }
    return change(s, verb, arg_str(args, "cidr"));
}
