/* names.c — names the dashboards answer from the catalogue (dashboard.h). */
#include "api/dashboard/dashboard.h"

const char *dash_country_name(json_t *countries, const char *code)
{
    const char *name = code && *code ? json_string_value(json_object_get(countries, code)) : NULL;
    return name ? name : code ? code : "";
}

const char *dash_protocol_name(json_t *protocols, const char *number)
{
    const char *name = json_string_value(json_object_get(protocols, number));
    return name ? name : number;
}
