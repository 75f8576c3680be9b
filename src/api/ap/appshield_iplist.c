/* appshield_iplist.c — {ASH}/ip-black-list and {ASH}/ip-white-list: add
 * (one or more comma-separated entries), read, delete (comma-separated).
 * A list holds no two overlapping entries, no address is in both lists, and
 * a list holds at most APPSHIELD_LIST_MAX entries. Replies (gap A2.5): the
 * list after the change, {"ip_black_list": [...]} / {"ip_white_list": [...]},
 * entries in the order they were added, in canonical text. */
#include <string.h>

#include "api/ap/ap_policy.h"
#include "api/ap/appshield.h"
#include "core/resource.h"

static const char BLACK[] = "ip_black_list", WHITE[] = "ip_white_list";

static int reply_list(struct req *r, struct port_policy *p, const char *field)
{
    return reply_result(r, json_pack("{s:O}", field, json_object_get(p->doc, field)));
}

/* The canonical entries of the request's field, or NULL having replied. */
static json_t *request_entries(struct req *r, const char *field)
{
    char err[256];
    json_t *entries = ip_entries_parse(field_str(r, field), field, APPSHIELD_LIST_MAX, err, sizeof err);
    if (!entries)
        reply_error(r, E_FIELD_INVALID, "%s", err);
    return req_hold(r, entries);
}

static int list_add(struct req *r, const char *field, const char *other_field)
{
    struct port_policy p;
    json_t *entries;
    if (appshield_load(r, &p) != 0 || !(entries = request_entries(r, field)))
        return 0;
    json_t *list = json_object_get(p.doc, field), *other = json_object_get(p.doc, other_field);
    size_t i;
    json_t *e;
    json_array_foreach (entries, i, e) {
        const char *text = json_string_value(e), *why;
        char canon[APPSHIELD_ENTRY_TEXT_MAX];
        struct ip_range range;
        ip_range_parse(text, &range, canon, &why); /* canonical already */
        long at = ip_list_find_overlap(list, &range);
        if (at >= 0) {
            const char *have = json_string_value(json_array_get(list, (size_t)at));
            if (strcmp(have, text) == 0)
                return reply_error(r, E_CONFLICT, "%s: %s is already in the list", field, text);
            return reply_error(r, E_CONFLICT, "%s: %s overlaps %s, already in the list", field, text, have);
        }
        at = ip_list_find_overlap(other, &range);
        if (at >= 0)
            return reply_error(r, E_RULE, "%s: %s overlaps %s of %s; an address cannot be in both lists",
                               field, text, json_string_value(json_array_get(other, (size_t)at)),
                               other_field);
        json_array_append(list, e);
    }
    if (json_array_size(list) > APPSHIELD_LIST_MAX)
        return reply_error(r, E_LIMIT, "%s: a domain port's list holds at most %d entries (it has %zu)",
                           field, APPSHIELD_LIST_MAX, json_array_size(list) - json_array_size(entries));
    if (port_policy_save(r, &AP_APPSHIELD, &p) != 0)
        return 0;
    return reply_list(r, &p, field);
}

static int list_get(struct req *r, const char *field)
{
    struct port_policy p;
    if (appshield_load(r, &p) != 0)
        return 0;
    return reply_list(r, &p, field);
}

/* Every entry named must be in the list (as its canonical text); all or
 * nothing. */
static int list_delete(struct req *r, const char *field)
{
    struct port_policy p;
    json_t *entries;
    if (appshield_load(r, &p) != 0 || !(entries = request_entries(r, field)))
        return 0;
    json_t *list = json_object_get(p.doc, field);
    size_t i, j;
    json_t *e, *have;
    json_array_foreach (entries, i, e) {
        bool found = false;
        json_array_foreach (list, j, have) {
            if (json_equal(have, e)) {
                json_array_remove(list, j);
                found = true;
                break;
            }
        }
        if (!found)
            return reply_error(r, E_NOT_FOUND, "%s: %s is not in the list", field, json_string_value(e));
    }
    if (port_policy_save(r, &AP_APPSHIELD, &p) != 0)
        return 0;
    return reply_result(r, NULL);
}

int appshield_black_list_add(struct req *r)
{
    return list_add(r, BLACK, WHITE);
}

int appshield_black_list_get(struct req *r)
{
    return list_get(r, BLACK);
}

int appshield_black_list_delete(struct req *r)
{
    return list_delete(r, BLACK);
}

int appshield_white_list_add(struct req *r)
{
    return list_add(r, WHITE, BLACK);
}

int appshield_white_list_get(struct req *r)
{
    return list_get(r, WHITE);
}

int appshield_white_list_delete(struct req *r)
{
    return list_delete(r, WHITE);
}
