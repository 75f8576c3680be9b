/* tcp_option.c — TCP option filtering of a CleanPipe host: the filter sets
 * it uses (ids from the catalogue; one at present) and its switch, kept in
 * the host's document as tcp_option: {is_enabled, filter_sets: [id]}. */
#include "api/cp/cp_common.h"
#include "core/catalogue.h"

/* The catalogue entry of a filter set id, or NULL. */
static json_t *filter_set(const json_t *catalogue, json_int_t id)
{
    size_t i;
    json_t *f;
    json_array_foreach (catalogue, i, f) {
        json_t *fid = json_object_get(f, "filter_set_id");
        if (json_is_integer(fid) && json_integer_value(fid) == id)
            return f;
    }
    return NULL;
}

/* Replaces the host's filter sets ("only one option may be added at
 * present": a second is refused, not added). */
int cp_tcp_filter_sets_set(struct req *r)
{
    struct resource host;
    json_t *ids = field_json(r, "filter_set_id"), *sets;
    if (cp_path_host(r, &host) != 0 || !(sets = catalogue_value(r, CP_CAT_FILTER_SETS)))
        return 0;
    if (json_array_size(ids) > 1)
        return reply_error(r, E_FIELD_INVALID, "filter_set_id: only one filter set may be added at present");
    json_int_t id = json_integer_value(json_array_get(ids, 0));
    if (!filter_set(sets, id)) {
        /* no endpoint lists the sets (gaps B.3.7): the message names them */
        char known[256] = "";
        size_t used = 0, i;
        json_t *f;
        json_array_foreach (sets, i, f) {
            json_t *fid = json_object_get(f, "filter_set_id");
            if (!json_is_integer(fid) || used >= sizeof known - 24)
                continue;
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%lld", used ? ", " : "",
                                     (long long)json_integer_value(fid));
        }
        return reply_error(r, E_FIELD_INVALID,
                           "filter_set_id[0]: %lld is not one of the catalogue's TCP option filter sets (%s)",
                           (long long)id, used ? known : "none");
    }
    json_object_set_new(cp_doc_obj(host.doc, "tcp_option"), "filter_sets", json_pack("[I]", id));
    if (cp_save(r, &host, NULL) != 0)
        return 0;
    return reply_result(r, NULL);
}

int cp_tcp_policy_get(struct req *r)
{
    struct resource host;
    json_t *sets;
    if (cp_path_host(r, &host) != 0 || !(sets = catalogue_value(r, CP_CAT_FILTER_SETS)))
        return 0;
    json_t *tcp = json_object_get(host.doc, "tcp_option"), *out = json_array();
    size_t i;
    json_t *id;
    json_array_foreach (json_object_get(tcp, "filter_sets"), i, id) {
        json_t *f = filter_set(sets, json_integer_value(id));
        /* a set the operator has since removed is shown by its id, with
         * empty strings for its name and description */
        const char *name = json_string_value(json_object_get(f, "filter_set_name"));
        const char *desc = json_string_value(json_object_get(f, "filter_set_desc"));
        json_array_append_new(out, json_pack("{s:O,s:s,s:s}", "filter_set_id", id, "filter_set_name",
                                             name ? name : "", "filter_set_desc", desc ? desc : ""));
    }
    return reply_result(r, json_pack("{s:I,s:o}", "is_enabled", (json_int_t)cp_doc_int(tcp, "is_enabled", 0),
                                     "filter_sets", out));
}

int cp_tcp_switch_set(struct req *r)
{
    struct resource host;
    if (cp_path_host(r, &host) != 0)
        return 0;
    json_object_set_new(cp_doc_obj(host.doc, "tcp_option"), "is_enabled",
                        json_integer(field_int(r, "is_enabled", 0)));
    if (cp_save(r, &host, NULL) != 0)
        return 0;
    return reply_result(r, NULL);
}
