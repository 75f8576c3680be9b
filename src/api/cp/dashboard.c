/* dashboard.c — the CleanPipe dashboard ({CPC}/dashboard, document 001):
 * the DDoS event list of a customer's CleanPipe sites and the stop of an
 * ongoing event (docs/decisions.md, "Dashboards"). From stored telemetry. */
#include <string.h>
#include <time.h>

#include "api/cp/cp.h"
#include "api/cp/cp_common.h"
#include "api/dashboard/dashboard.h"
#include "base/timefmt.h"

enum { CP_DASH_MAX_SITES = 100000 };

/* The customer's CleanPipe sites: rows {rid, id, name, ...}. */
static int customer_sites(struct req *r, json_t **rows)
{
    struct res_query q = {.kind = CP_SITE.name,
                          .customer_id = r->customer.id,
                          .parent_rid = RES_TOP_LEVEL,
                          .limit = CP_DASH_MAX_SITES};
    long total;
    int rc = r->store->ops->res_list(r->store, &q, rows, &total);
    if (rc != STORE_OK)
        return reply_store_error(r, rc), -1;
    return 0;
}

static const json_t *site_by(const json_t *sites, const char *member, const json_t *value)
{
    size_t i;
    json_t *s;
    json_array_foreach (sites, i, s)
        if (json_equal(json_object_get(s, member), value))
            return s;
    return NULL;
}

/* The rids the list looks at: the sites named by site_id (each must be one
 * of the customer's CleanPipe sites) or all, narrowed to site_name. */
static int selected_sites(struct req *r, const json_t *sites, int64_t *rids, size_t *n)
{
    const json_t *ids = field_json(r, "site_id");
    const char *name = field_str(r, "site_name");
    *n = 0;
    size_t i;
    json_t *s;
    if (ids) {
        json_array_foreach (ids, i, s) {
            const json_t *site = site_by(sites, "id", s);
            if (!site)
                return reply_error(r, E_NOT_FOUND, "site_id: no such site: %s", json_string_value(s)), -1;
            if (!name || strcmp(json_string_value(json_object_get(site, "name")), name) == 0)
                rids[(*n)++] = json_integer_value(json_object_get(site, "rid"));
        }
        return 0;
    }
    json_array_foreach (sites, i, s)
        if (!name || strcmp(json_string_value(json_object_get(s, "name")), name) == 0)
            rids[(*n)++] = json_integer_value(json_object_get(s, "rid"));
    return 0;
}

int cp_dash_events(struct req *r)
{
    int64_t now = (int64_t)time(NULL), from, to;
    struct dash_window_rule rule = {DASH_STAMP, time_month_start(now, 0), 0, DASH_MONTH_SPAN, "31 days", 0};
    if (dash_window(r, &rule, &from, &to) != 0)
        return 0;
    json_t *sites, *rows = NULL;
    if (customer_sites(r, &sites) != 0)
        return 0;
    size_t n_sites = json_array_size(sites), n = 0;
    int64_t *rids = arena_alloc(&r->arena, (n_sites ? n_sites : 1) * sizeof *rids);
    long total = 0;
    int rc = STORE_OK;
    if (selected_sites(r, sites, rids, &n) != 0) {
        json_decref(sites);
        return 0;
    }
    if (n > 0) {
        struct tel_event_query q = {.family = "cp",
                                    .customer_id = r->customer.id,
                                    .site_rids = rids,
                                    .n_sites = n,
                                    .from = from,
                                    .to = to,
                                    .status = (enum tel_status)field_int(r, "status", TEL_ANY),
                                    .alert_id = field_str(r, "alert_id"),
                                    .site_ip = field_str(r, "site_ip"),
                                    .offset = field_int(r, "start", 0),
                                    .limit = field_int(r, "num", 10)};
        rc = r->store->ops->tel_events_list(r->store, &q, &rows, &total);
    }
    if (rc != STORE_OK) {
        json_decref(sites);
        return reply_store_error(r, rc);
    }
    json_t *events = json_array();
    size_t i;
    json_t *row;
    json_array_foreach (rows, i, row) {
        const json_t *site = site_by(sites, "rid", json_object_get(row, "site_rid"));
        const char *site_name = site ? json_string_value(json_object_get(site, "name")) : "";
        json_array_append_new(events, dash_event_json(row, "cp", site_name, now));
    }
    json_decref(rows);
    json_decref(sites);
    return reply_result(r, json_pack("{s:o,s:I}", "events", events, "total", (json_int_t)total));
}

/* stop_type 1 (default): the event; 2: also the host events of its site
 * that it covers. An event already stopped answers 409 (gaps B.5.6). */
int cp_dash_stop(struct req *r)
{
    const char *alert_id = path_param(r, "event_id");
    json_t *sites, *rows = NULL;
    if (customer_sites(r, &sites) != 0)
        return 0;
    size_t n = 0;
    int64_t *rids = arena_alloc(&r->arena, (json_array_size(sites) + 1) * sizeof *rids);
    selected_sites(r, sites, rids, &n); /* no site_id field here: all of them */
    json_decref(sites);
    long total = 0;
    int rc = STORE_OK;
    if (n > 0) {
        struct tel_event_query q = {.family = "cp",
                                    .customer_id = r->customer.id,
                                    .site_rids = rids,
                                    .n_sites = n,
                                    .from = 0,
                                    .to = INT64_MAX,
                                    .status = TEL_ANY,
                                    .alert_id = alert_id,
                                    .limit = 1};
        rc = r->store->ops->tel_events_list(r->store, &q, &rows, &total);
    }
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    bool ongoing = total > 0 && json_is_null(json_object_get(json_array_get(rows, 0), "end_time"));
    json_decref(rows);
    if (total == 0)
        return reply_error(r, E_NOT_FOUND, "event_id: no such DDoS event");
    if (!ongoing)
        return reply_error(r, E_STATE, "event_id: the event has already stopped");
    long stopped;
    bool hosts_too = strcmp(field_str(r, "stop_type"), "2") == 0;
    rc = r->store->ops->tel_event_stop(r->store, alert_id, hosts_too, (int64_t)time(NULL), &stopped);
    if (rc != STORE_OK)
        return reply_store_error(r, rc);
    return reply_result(r, NULL);
}
