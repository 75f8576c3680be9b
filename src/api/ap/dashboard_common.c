/* dashboard_common.c — see dashboard.h. */
#include "api/ap/dashboard.h"

#include <stdio.h>

#include "base/timefmt.h"

int64_t ap_dash_offset_s(struct req *r)
{
    return (int64_t)(field_int(r, "timezone_offset", 0) / 1000);
}

json_t *ap_dash_time(int64_t t, int64_t offset_s)
{
    char text[TIME_TEXT_LEN];
    time_format_text(t, offset_s, text);
    return json_string(text);
}

void ap_dash_site_name(struct req *r, int64_t rid, char *id, size_t id_size, char *name, size_t name_size)
{
    struct resource site;
    id[0] = name[0] = '\0';
    if (r->store->ops->res_get_rid(r->store, rid, &site) != STORE_OK)
        return;
    snprintf(id, id_size, "%s", site.id);
    snprintf(name, name_size, "%s", site.name);
    resource_clear(&site);
}
