/* event.c — a DDoS event as the Origin Protection and CleanPipe lists answer
 * it (dashboard.h). */
#include <string.h>

#include "api/dashboard/dashboard.h"
#include "store/store.h"

static json_int_t op_severity(json_int_t stored)
{
    /* document 001: 0 low, 1 high, 2 medium; blackhole noted (3, gaps A1.15) */
    static const json_int_t map[] = {[TEL_SEV_LOW] = 0, [TEL_SEV_MEDIUM] = 2, [TEL_SEV_HIGH] = 1,
                                     [TEL_SEV_BLACKHOLE] = 3};
    return stored >= 0 && stored <= TEL_SEV_BLACKHOLE ? map[stored] : 0;
}

static const char *const SEVERITY_LEVEL[] = {"low", "medium", "high", "blackhole"};

json_t *dash_event_json(const json_t *row, const char *family, const char *site_name, int64_t now)
{
    json_int_t start = json_integer_value(json_object_get(row, "start_time"));
    json_t *end_v = json_object_get(row, "end_time");
    bool ongoing = json_is_null(end_v);
    json_int_t end = ongoing ? 0 : json_integer_value(end_v);
    json_int_t duration = (ongoing ? (json_int_t)now : end) - start;
    json_int_t stored = json_integer_value(json_object_get(row, "severity"));
    if (stored < 0 || stored > TEL_SEV_BLACKHOLE)
        stored = TEL_SEV_LOW;
    json_t *e = json_pack(
        "{s:O,s:O,s:I,s:I,s:I,s:O,s:O,s:O,s:O,s:s,s:O,s:i}", "alert_id", json_object_get(row, "alert_id"),
        "attack_type", json_object_get(row, "attack_type"), "duration", duration < 0 ? 0 : duration, "start_time",
        start, "end_time", end, "max_bps", json_object_get(row, "max_bps"), "max_pps",
        json_object_get(row, "max_pps"), "profile_name", json_object_get(row, "profile_name"), "profile_desc",
        json_object_get(row, "profile_desc"), "site_name", site_name, "site_ip", json_object_get(row, "site_ip"),
        "status", ongoing ? 1 : 0);
    if (strcmp(family, "cp") == 0) {
        json_object_set_new(e, "severity", json_integer(stored + 1));
        json_object_set_new(e, "severity_level", json_string(SEVERITY_LEVEL[stored]));
        json_object_set(e, "p_type", json_object_get(row, "p_type"));
    } else {
        json_object_set_new(e, "severity", json_integer(op_severity(stored)));
    }
    return e;
}

int dash_event_lookup(struct req *r, int rc, const char *owner)
{
    if (rc == STORE_OK && strcmp(owner, r->customer.id) != 0)
        rc = STORE_NOT_FOUND;
    if (rc == STORE_NOT_FOUND)
        return reply_error(r, E_NOT_FOUND, "event_id: no such event"), -1;
    if (rc != STORE_OK)
        return reply_store_error(r, rc), -1;
    return 0;
}
