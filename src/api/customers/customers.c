/* customers.c — the customer list of a portal (paged with `page`, 1-based,
 * and `page_size`) and one customer record. Tenancy was checked by the
 * dispatcher: r->customer is already the caller's. */
#include "api/customers/customers.h"

#include "store/store.h"

static json_t *protect_services(json_t *flags)
{
    return json_pack("{s:O,s:O,s:O,s:O}", "application_protection", json_object_get(flags, "ap"),
                     "origin_protection", json_object_get(flags, "op"), "dns_protection",
                     json_object_get(flags, "dns"), "cdn_federation", json_object_get(flags, "cdn"));
}

int customers_list(struct req *r)
{
    long long page = field_int(r, "page", 1), size = field_int(r, "page_size", 20);
    json_t *rows;
    long total;
    int rc = r->store->ops->customer_list(r->store, r->caller.portal_id, (long)((page - 1) * size),
                                          (long)size, &rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    json_t *list = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        json_array_append_new(list, json_pack("{s:O,s:O,s:o}", "customer_name", json_object_get(row, "name"),
                                              "customer_id", json_object_get(row, "id"), "protect_services",
                                              protect_services(json_object_get(row, "services"))));
    }
    json_decref(rows);
    long pages = (total + (long)size - 1) / (long)size;
    return reply_result(
        r, json_pack("{s:i,s:I,s:o}", "pages", (int)pages, "page", (json_int_t)page, "customer", list));
}

int customers_get(struct req *r)
{
    const struct customer *c = &r->customer;
    return reply_result(r, json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:{s:i,s:i,s:i,s:i}}", "website", c->website,
                                     "address", c->address, "phone", c->phone, "company", c->company,
                                     "customer_name", c->name, "email", c->email, "protect_services",
                                     "application_protection", c->svc_ap, "origin_protection", c->svc_op,
                                     "dns_protection", c->svc_dns, "cdn_federation", c->svc_cdn));
}
