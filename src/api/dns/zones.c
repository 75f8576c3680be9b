/* zones.c — the zone list, creating standard and zone transfer zones,
 * deleting a zone, and its deploy status. */
#include <string.h>

#include "api/dns/dns.h"
#include "base/text.h"
#include "deploy/dns_deployer.h"

int dns_zone_list(struct req *r)
{
    long long page = field_int(r, "page_index", 1);
    char search[DNS_ORIGIN_NAME_MAX + 1] = "";
    copy_text(search, sizeof search, field_str(r, "search") ? field_str(r, "search") : "");
    size_t n = strlen(search);
    if (n > 0 && search[n - 1] == '.') /* "example.com." finds example.com */
        search[n - 1] = '\0';
    struct dns_zone_query q = {
        .search = search[0] ? search : NULL,
        .descending = strcmp(field_str(r, "order"), "DESC") == 0,
        .offset = (long)((page - 1) * DNS_PAGE_SIZE),
        .limit = DNS_PAGE_SIZE,
    };
    json_t *rows;
    long total;
    int rc = r->store->ops->dns_zone_list(r->store, r->customer.id, &q, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *zones = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_array_append_new(zones,
                              json_pack("{s:b,s:b,s:O,s:b,s:O}", "enable_dnssec",
                                        (int)json_integer_value(json_object_get(row, "enable_dnssec")),
                                        "enable_root_cname",
                                        (int)json_integer_value(json_object_get(row, "enable_root_cname")),
                                        "id", json_object_get(row, "id"), "is_zone_transfer",
                                        (int)json_integer_value(json_object_get(row, "is_zone_transfer")),
                                        "zone_name", json_object_get(row, "zone_name")));
    }
    json_decref(rows);
    return reply_result(r,
                        json_pack("{s:I,s:I,s:o}", "total_count", (json_int_t)total, "total_page",
                                  (json_int_t)((total + DNS_PAGE_SIZE - 1) / DNS_PAGE_SIZE), "zones", zones));
}

/* Creates a zone of the customer's from the request's settings. */
static int create_zone(struct req *r, bool transfer, struct dns_zone *z)
{
    memset(z, 0, sizeof *z);
    copy_text(z->customer_id, sizeof z->customer_id, r->customer.id);
    copy_text(z->name, sizeof z->name, field_str(r, "zone_name"));
    copy_text(z->origin_name, sizeof z->origin_name, field_as_sent(r, "zone_name"));
    z->is_zone_transfer = transfer;
    if (dns_apply_settings(r, z) != 0)
        return -1;
    long count;
    int rc = r->store->ops->dns_zone_count(r->store, r->customer.id, &count);
    if (rc == STORE_OK && count >= DNS_MAX_ZONES_PER_CUSTOMER) {
        reply_error(r, E_LIMIT, "zone_name: a customer may have at most %d zones",
                    DNS_MAX_ZONES_PER_CUSTOMER);
        return -1;
    }
    if (rc == STORE_OK)
        rc = r->store->ops->dns_zone_create(r->store, z);
    if (rc == STORE_CONFLICT) {
        reply_error(r, E_CONFLICT, "zone_name: %s is already a zone on this platform", z->name);
        return -1;
    }
    if (rc != STORE_OK) {
        reply_store_error(r, rc);
        return -1;
    }
    r->after_commit = dns_deployer_wake;
    return 0;
}

int dns_zone_create_standard(struct req *r)
{
    struct dns_zone z;
    if (create_zone(r, false, &z) != 0)
        return 0;
    return reply_result(r, json_pack("{s:b,s:b,s:I,s:s,s:s}", "enable_dnssec", z.enable_dnssec,
                                     "enable_root_cname", z.enable_root_cname, "id", (json_int_t)z.id, "name",
                                     z.name, "origin_name", z.origin_name));
}

int dns_zone_create_transfer(struct req *r)
{
    struct dns_zone z;
    if (create_zone(r, true, &z) != 0)
        return 0;
    return reply_result(r, json_pack("{s:s,s:b,s:o}", "zone_name", z.name, "enable_root_cname",
                                     z.enable_root_cname, "master_servers", dns_masters_json(&z)));
}

int dns_zone_delete(struct req *r)
{
    struct dns_zone z;
    if (dns_zone_load(r, &z) != 0)
        return 0;
    int rc = r->store->ops->dns_zone_delete(r->store, z.id);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    r->after_commit = dns_deployer_wake;
    return reply_result(r, json_pack("{s:s}", "zone_name", z.name));
}

int dns_zone_deploy_status(struct req *r)
{
    struct dns_zone z;
    if (dns_zone_load(r, &z) != 0)
        return 0;
    json_t *result = json_pack("{s:s}", "test_zone_name", z.deploy_state);
    if (z.deploy_reason[0]) /* why it failed, or what a pending zone waits for */
        json_object_set_new(result, "reason", json_string(z.deploy_reason));
    return reply_result(r, result);
}
