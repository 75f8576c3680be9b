/* config_options.c — GET {OPC}/config_options: the operator's catalogue
 * values the document lists, under their own names (docs/architecture.md). */
#include "api/op/op.h"
#include "core/catalogue.h"

static const char *const option_keys[] = {
    "collector_ip",      "countries", "filter_icmp_type",        "filter_tcp_flags",
    "icmp_filter_types", "idc_name",  "ip_protocol_number_list",
};

int op_config_options(struct req *r)
{
    json_t *result = json_object();
    for (size_t i = 0; i < sizeof option_keys / sizeof option_keys[0]; i++) {
        json_t *v = catalogue_value(r, option_keys[i]);
        if (!v) { /* replied 500 */
            json_decref(result);
            return 0;
        }
        json_object_set(result, option_keys[i], v);
    }
    return reply_result(r, result);
}
