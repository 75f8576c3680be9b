/* sim_sites.c — the store's sites for the simulator (sim_sites.h). */
#include "telemetry/sim_sites.h"

#include <stdlib.h>
#include <string.h>

#include "store/resource.h"

enum { LIST_MAX = 1000000 };

static json_t *list(struct store *s, const char *kind, int64_t parent)
{
    struct res_query q = {.kind = kind, .parent_rid = parent, .limit = LIST_MAX};
    json_t *out = NULL;
    long total = 0;
    if (s->ops->res_list(s, &q, &out, &total) != STORE_OK)
        return NULL;
    return out;
}

static void copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

static int add_block_sites(struct store *s, const char *kind, enum sim_family fam, struct sim_site **v, size_t *n)
{
    json_t *sites = list(s, kind, RES_TOP_LEVEL), *r;
    size_t i;
    if (!sites)
        return -1;
    json_array_foreach (sites, i, r) {
        struct sim_site *ns = realloc(*v, (*n + 1) * sizeof **v);
        if (!ns)
            break;
        *v = ns;
        struct sim_site *site = &ns[*n];
        memset(site, 0, sizeof *site);
        site->family = fam;
        copy(site->id, sizeof site->id, json_string_value(json_object_get(r, "id")));
        if (s->ops->blocks_get(s, json_integer_value(json_object_get(r, "rid")), &site->blocks, &site->n_blocks) !=
            STORE_OK) {
            json_decref(sites);
            return -1;
        }
        (*n)++;
    }
    json_decref(sites);
    return 0;
}

static int ap_vips(struct store *s, int64_t site_rid, struct sim_site *site)
{
    json_t *vips = list(s, "ap.vip", site_rid), *r;
    size_t i;
    if (!vips)
        return -1;
    site->blocks = calloc(json_array_size(vips) + 1, sizeof *site->blocks);
    json_array_foreach (vips, i, r) {
        struct ip_addr a;
        if (site->blocks && ip_parse(json_string_value(json_object_get(r, "name")), &a) == 0) {
            site->blocks[site->n_blocks].addr = a;
            site->blocks[site->n_blocks++].prefix = a.family == NET_V4 ? 32 : 128;
        }
    }
    json_decref(vips);
    return 0;
}

static int ap_ports(struct store *s, int64_t site_rid, struct sim_site *site)
{
    json_t *domains = list(s, "ap.domain", site_rid), *d;
    size_t i;
    if (!domains)
        return -1;
    json_array_foreach (domains, i, d) {
        json_t *ports = list(s, "ap.domain_port", json_integer_value(json_object_get(d, "rid"))), *p;
        size_t j;
        if (!ports)
            break;
        json_array_foreach (ports, j, p) {
            struct sim_port *np = realloc(site->ports, (site->n_ports + 1) * sizeof *np);
            if (!np)
                break;
            site->ports = np;
            struct sim_port *port = &np[site->n_ports++];
            copy(port->id, sizeof port->id, json_string_value(json_object_get(p, "id")));
            copy(port->host, sizeof port->host, json_string_value(json_object_get(d, "name")));
            port->port = atoi(json_string_value(json_object_get(p, "name")) ?: "0");
        }
        json_decref(ports);
    }
    json_decref(domains);
    return 0;
}

static int add_ap_sites(struct store *s, struct sim_site **v, size_t *n)
{
    json_t *sites = list(s, "ap.site", RES_TOP_LEVEL), *r;
    size_t i;
    int rc = 0;
    if (!sites)
        return -1;
    json_array_foreach (sites, i, r) {
        struct sim_site *ns = realloc(*v, (*n + 1) * sizeof **v);
        if (!ns)
            break;
        *v = ns;
        struct sim_site *site = &ns[*n];
        memset(site, 0, sizeof *site);
        site->family = SIM_AP;
        copy(site->id, sizeof site->id, json_string_value(json_object_get(r, "id")));
        (*n)++;
        int64_t rid = json_integer_value(json_object_get(r, "rid"));
        if (ap_vips(s, rid, site) || ap_ports(s, rid, site)) {
            rc = -1;
            break;
        }
    }
    json_decref(sites);
    return rc;
}

int sim_sites_load(struct store *s, struct sim_site **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (s->ops->begin(s, false) != STORE_OK)
        return -1;
    int rc = add_block_sites(s, "op.site", SIM_OP, out, n);
    rc = rc ? rc : add_block_sites(s, "cp.site", SIM_CP, out, n);
    rc = rc ? rc : add_ap_sites(s, out, n);
    s->ops->rollback(s);
    if (rc) {
        sim_sites_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void sim_sites_free(struct sim_site *sites, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(sites[i].blocks);
        free(sites[i].ports);
    }
    free(sites);
}
