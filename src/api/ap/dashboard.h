/* dashboard.h — what the Application Protection dashboard handlers share
 * (family-internal; docs/decisions.md, "Dashboards: Application
 * Protection"). The handlers are declared in ap.h. */
#ifndef PARAPET_API_AP_DASHBOARD_H
#define PARAPET_API_AP_DASHBOARD_H

#include <stdint.h>

#include "core/req.h"
#include "store/store.h"

enum {
    AP_DASH_NUM_DEFAULT = 20,
    AP_DASH_NUM_MAX = 50,
    AP_DASH_TZ_MAX_MS = 14 * 3600 * 1000, /* timezone_offset: UTC-14h to UTC+14h */
};

/* timezone_offset (milliseconds east of UTC) in whole seconds. */
int64_t ap_dash_offset_s(struct req *r);
/* t as 'year-month-day hour:minute:second' at offset_s, a new JSON string. */
json_t *ap_dash_time(int64_t t, int64_t offset_s);
/* The name of the site with store key rid ("" when it is gone). */
void ap_dash_site_name(struct req *r, int64_t rid, char *id, size_t id_size, char *name, size_t name_size);

#endif
