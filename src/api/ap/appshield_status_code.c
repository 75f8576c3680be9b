/* appshield_status_code.c — {ASH}/status-code (POST creates an overwrite,
 * 409 when the code has one; PUT changes one, 404 when it has none; DELETE)
 * and {ASH}/status-codes. Replies (gap A2.6): POST and PUT answer the entry
 * {"error_code", "error_code_rewrite", "error_page_type", "error_page_info"};
 * the list answers {"status_codes": [entries by error_code]}. */
#include "api/ap/ap_policy.h"
#include "api/ap/appshield.h"
#include "core/resource.h"

/* The entry the request's fields describe, or NULL having replied. */
static json_t *request_entry(struct req *r)
{
    char err[256];
    int code = E_FIELD_INVALID;
    json_t *e = status_entry_make(field_int(r, "error_code", 0), field_int(r, "error_code_rewrite", 0),
                                  field_str(r, "error_page_type"), field_str(r, "error_page_info"), &code,
                                  err, sizeof err);
    if (!e)
        reply_error(r, (enum err)code, "%s", err);
    return req_hold(r, e);
}

/* The list stays ordered by error_code. */
static void insert_sorted(json_t *list, json_t *entry)
{
    json_int_t code = json_integer_value(json_object_get(entry, "error_code"));
    size_t i = 0;
    while (i < json_array_size(list) &&
           json_integer_value(json_object_get(json_array_get(list, i), "error_code")) < code)
        i++;
    json_array_insert(list, i, entry);
}

/* POST (create) and PUT (!create) differ only in which state they require. */
static int status_code_write(struct req *r, bool create)
{
    struct port_policy p;
    json_t *entry;
    if (appshield_load(r, &p) != 0 || !(entry = request_entry(r)))
        return 0;
    long long code = field_int(r, "error_code", 0);
    json_t *list = json_object_get(p.doc, "status_codes");
    long at = status_entry_find(list, code);
    if (create && at >= 0)
        return reply_error(r, E_CONFLICT, "error_code: %lld already has an overwrite; change it with PUT",
                           code);
    if (!create && at < 0)
        return reply_error(r, E_NOT_FOUND, "error_code: %lld has no overwrite; create one with POST", code);
    if (create)
        insert_sorted(list, entry);
    else
        json_array_set(list, (size_t)at, entry);
    if (port_policy_save(r, &AP_APPSHIELD, &p) != 0)
        return 0;
    return reply_result(r, json_incref(entry));
}

int appshield_status_code_create(struct req *r)
{
    return status_code_write(r, true);
}

int appshield_status_code_update(struct req *r)
{
    return status_code_write(r, false);
}

int appshield_status_code_delete(struct req *r)
{
    struct port_policy p;
    if (appshield_load(r, &p) != 0)
        return 0;
    long long code = field_int(r, "error_code", 0);
    json_t *list = json_object_get(p.doc, "status_codes");
    long at = status_entry_find(list, code);
    if (at < 0)
        return reply_error(r, E_NOT_FOUND, "error_code: %lld has no overwrite", code);
    json_array_remove(list, (size_t)at);
    if (port_policy_save(r, &AP_APPSHIELD, &p) != 0)
        return 0;
    return reply_result(r, NULL);
}

int appshield_status_codes_list(struct req *r)
{
    struct port_policy p;
    if (appshield_load(r, &p) != 0)
        return 0;
    /* each entry in the order POST and PUT answer it, whatever order the stored document has */
    static const char *const order[] = {"error_code", "error_code_rewrite", "error_page_type",
                                        "error_page_info"};
    json_t *list = json_array(), *e;
    size_t i;
    json_array_foreach (json_object_get(p.doc, "status_codes"), i, e) {
        json_t *v = json_object();
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
            if (json_object_get(e, order[k]))
                json_object_set(v, order[k], json_object_get(e, order[k]));
        json_array_append_new(list, v);
    }
    return reply_result(r, json_pack("{s:o}", "status_codes", list));
}
