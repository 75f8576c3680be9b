/* admin_dns.c — `parapet admin dns deploy` (one deploy pass now, with the
 * options `parapet serve` takes) and `parapet admin dns zones` (every zone
 * of the platform with its deploy state; secrets are not shown). */
#include <stdio.h>
#include <string.h>

#include "cli/admin.h"
#include "cli/admin_print.h"
#include "cli/dns_options.h"

static int deploy(struct store *s, json_t *a, const char *data_dir)
{
    struct dns_options o;
    if (dns_options_configure(a, data_dir, &o) != 0)
        return 2;
    struct dns_deploy_result res;
    if (dns_deploy_run(s, &o.cfg, &res) != 0) {
        fprintf(stderr, "parapet: dns deploy: %s\n", res.error);
        return 1;
    }
    char conf[1100];
    snprintf(conf, sizeof conf, "%s/knot.conf", o.dir);
    return admin_print(json_pack("{s:i,s:i,s:i,s:b,s:b,s:s}", "zones", res.zones, "deployed", res.deployed,
                                 "failed", res.failed, "installed", res.installed, "validated",
                                 o.cfg.knotc != NULL, "config", conf));
}

static int zones(struct store *s)
{
    json_t *snap = NULL;
    s->ops->begin(s, false);
    int rc = s->ops->dns_deploy_snapshot(s, &snap);
    s->ops->commit(s);
    if (rc != STORE_OK) {
        fprintf(stderr, "parapet: the store could not be read\n");
        return 1;
    }
    json_t *list = json_array();
    size_t i;
    json_t *z;
    json_array_foreach (snap, i, z) {
        json_t *spec = json_object_get(z, "spec");
        json_array_append_new(
            list, json_pack("{s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "id", json_object_get(z, "id"), "zone_name",
                            json_object_get(spec, "name"), "customer_id", json_object_get(z, "customer_id"),
                            "is_zone_transfer", json_object_get(spec, "zone_transfer"), "enable_dnssec",
                            json_object_get(spec, "dnssec"), "state", json_object_get(z, "state"), "reason",
                            json_object_get(z, "reason")));
    }
    json_decref(snap);
    return admin_print(json_pack("{s:o}", "zones", list));
}

int admin_dns(struct store *s, const char *verb, json_t *a, const char *data_dir)
{
    return strcmp(verb, "deploy") == 0 ? deploy(s, a, data_dir) : zones(s);
}
