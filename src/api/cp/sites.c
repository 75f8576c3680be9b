/* sites.c — the customer's CleanPipe sites: the list and the site report
 * (gaps A1.11, A1.12; docs/decisions.md). Both read in a fixed number of
 * queries: the sites, then (report) every host and template of the customer. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "api/cp/cp_common.h"
#include "core/deploy_report.h"

/* The same array of site objects GET {CPS} answers, plus site_id. */
int cp_sites_list(struct req *r)
{
    return cp_reply_list(r, CP_SITE.name, NULL, CP_MAX_SITES, cp_site_json);
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static json_int_t as_json_int(uint64_t v)
{
    return v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v;
}

/* Protected space of a site: IPv4 addresses, or IPv6 /64 networks. */
static uint64_t site_space(const json_t *doc, bool v6)
{
    uint64_t sum = 0;
    size_t i;
    json_t *c;
    json_array_foreach (json_object_get(doc, "cidr"), i, c) {
        struct cidr b;
        if (cidr_parse(json_string_value(c), 0, &b) != 0)
            continue;
        if (v6)
            sum = add_sat(sum,
                          b.prefix > 64 ? 1 : (b.prefix == 0 ? UINT64_MAX : (uint64_t)1 << (64 - b.prefix)));
        else
            sum = add_sat(sum, cidr_size(&b));
    }
    return sum;
}

static json_t *list_summary(const json_t *doc, const char *type)
{
    json_t *l = json_object_get(json_object_get(doc, "lists"), type);
    /* counts, named apart from the list's own arrays (source_ips, source_countries) */
    return json_pack("{s:I,s:I,s:I}", "is_enabled", (json_int_t)cp_doc_int(l, "is_enabled", 0),
                     "source_ip_count", (json_int_t)json_array_size(json_object_get(l, "source_ips")),
                     "source_country_count",
                     (json_int_t)json_array_size(json_object_get(l, "source_countries")));
}

static json_int_t policy_flag(const json_t *doc, const char *mode, const char *key)
{
    json_t *p = json_object_get(doc, "policy");
    return (json_int_t)cp_doc_int(mode ? json_object_get(p, mode) : p, key, 0);
}

/* Per site: hosts, addresses of hosts, customised hosts, hosts with TCP
 * option filtering on, route templates. */
struct site_counts {
    int64_t rid;
    json_int_t hosts, host_addresses, customised, tcp_option, templates;
};

static struct site_counts *counts_of(struct site_counts *c, size_t n, int64_t rid)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].rid == rid)
            return &c[i];
    return NULL;
}

/* Counts each site's hosts and templates (rows under any parent). */
static void tally(struct site_counts *counts, size_t n, json_t *hosts, json_t *templates)
{
    size_t i;
    json_t *row;
    json_array_foreach (hosts, i, row) {
        struct site_counts *c = counts_of(counts, n, cp_doc_int(row, "parent_rid", 0));
        json_t *doc = json_object_get(row, "doc");
        if (!c)
            continue;
        c->hosts++;
        c->host_addresses += (json_int_t)json_array_size(json_object_get(doc, "cidr"));
        c->customised += policy_flag(doc, NULL, "is_customize") != 0;
        c->tcp_option += cp_doc_int(json_object_get(doc, "tcp_option"), "is_enabled", 0) != 0;
    }
    json_array_foreach (templates, i, row) {
        struct site_counts *c = counts_of(counts, n, cp_doc_int(row, "parent_rid", 0));
        if (c)
            c->templates++;
    }
}

/* One site of the report: the site object plus its space, counts and switches. */
static json_t *report_entry(const struct resource *s, const struct site_counts *c, bool is_v6, uint64_t space)
{
    json_t *site = cp_site_json(s);
    json_t *extra = json_pack(
        "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:{s:I,s:I,s:I},s:o,s:o}", "ipv4_addresses",
        as_json_int(is_v6 ? 0 : space), "ipv6_networks_64", as_json_int(is_v6 ? space : 0), "host_count",
        c->hosts, "host_address_count", c->host_addresses, "customised_host_count", c->customised,
        "tcp_option_host_count", c->tcp_option, "route_template_count", c->templates, "policy", "detection",
        policy_flag(s->doc, NULL, "detection"), "auto_mitigation", policy_flag(s->doc, "auto", "enable"),
        "manual_mitigation", policy_flag(s->doc, "manual", "enable"), "allow_list",
        list_summary(s->doc, "allow_list"), "block_list", list_summary(s->doc, "block_list"));
    json_object_update(site, extra);
    json_decref(extra);
    return site;
}

int cp_site_report(struct req *r)
{
    json_t *sites = cp_list(r, CP_SITE.name, RES_TOP_LEVEL, CP_MAX_SITES);
    json_t *hosts = sites ? cp_list(r, CP_HOST.name, 0, (long)CP_MAX_SITES * CP_MAX_HOSTS) : NULL;
    json_t *templates = hosts ? cp_list(r, CP_TEMPLATE.name, 0, (long)CP_MAX_SITES * CP_MAX_TEMPLATES) : NULL;
    if (!templates)
        return 0;
    size_t n = json_array_size(sites) < CP_MAX_SITES ? json_array_size(sites) : CP_MAX_SITES;
    struct site_counts counts[CP_MAX_SITES] = {{0}};
    for (size_t i = 0; i < n; i++)
        counts[i].rid = cp_doc_int(json_array_get(sites, i), "rid", 0);
    tally(counts, n, hosts, templates);
    json_t *out = json_array();
    uint64_t v4 = 0, v6 = 0;
    json_int_t all_hosts = 0, all_templates = 0;
    for (size_t i = 0; i < n; i++) {
        struct resource s;
        cp_row_resource(json_array_get(sites, i), &s);
        bool is_v6 = cp_site_family(&s) == NET_V6;
        uint64_t space = site_space(s.doc, is_v6);
        if (is_v6)
            v6 = add_sat(v6, space);
        else
            v4 = add_sat(v4, space);
        all_hosts += counts[i].hosts;
        all_templates += counts[i].templates;
        json_t *deploy = deploy_report(r, s.rid);
        if (!deploy) {
            json_decref(out);
            return 0;
        }
        json_t *entry = report_entry(&s, &counts[i], is_v6, space);
        json_object_set_new(entry, "dataplane", deploy);
        json_array_append_new(out, entry);
    }
    return reply_result(r, json_pack("{s:I,s:o,s:{s:I,s:I,s:I,s:I,s:I}}", "generated_at",
                                     (json_int_t)time(NULL), "sites", out, "totals", "sites", (json_int_t)n,
                                     "hosts", all_hosts, "route_templates", all_templates, "ipv4_addresses",
                                     as_json_int(v4), "ipv6_networks_64", as_json_int(v6)));
}
