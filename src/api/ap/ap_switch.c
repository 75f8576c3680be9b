/* ap_switch.c — overview switches ({OVW}/switch): appshield, cache, waf and
 * netshield at the site level (domain_port_id 449cbcf57ff0ba74), and per
 * domain port either inherited from the site (is_derived 0: no switch
 * shown) or its own appshield, cache and waf (is_derived 1). netshield is a
 * site-level switch only (gaps B.4.16). */
#include <string.h>

#include "api/ap/ap_common.h"

static const char *const port_switches[] = {"appshield", "cache", "waf"};

json_t *ap_switch_site_defaults(void)
{
    return json_pack("{s:i,s:i,s:i,s:i}", "appshield", 1, "cache", 0, "waf", 1, "netshield", 1);
}

/* The switch object in the document's member order (appshield, cache, waf,
 * then netshield at the site level), whatever order the store keeps; without
 * netshield it is also what a port starts its own set with. */
static json_t *switch_read(const json_t *stored, bool site_level)
{
    json_t *out = json_object();
    for (size_t i = 0; i < sizeof port_switches / sizeof *port_switches; i++)
        json_object_set_new(out, port_switches[i],
                            json_integer(json_integer_value(json_object_get(stored, port_switches[i]))));
    if (site_level)
        json_object_set_new(out, "netshield",
                            json_integer(json_integer_value(json_object_get(stored, "netshield"))));
    return out;
}

int ap_overview_switch_set(struct req *r)
{
    struct resource site, port;
    if (ap_domain_port_from_path(r, &site, &port) != 0)
        return 0;
    const char *type = field_str(r, "type");
    long long status = field_int(r, "status", 0);
    json_t *site_switch = json_object_get(site.doc, "switch");
    if (ap_port_is_site_level(&port)) {
        if (!strcmp(type, "is_derived"))
            return reply_error(r, E_RULE, "type: is_derived applies to a domain port, not to the site level");
        json_object_set_new(site_switch, type, json_integer(status));
        return ap_update(r, &site) == 0 ? reply_result(r, NULL) : 0;
    }
    if (!strcmp(type, "netshield"))
        return reply_error(r, E_RULE, "type: netshield is set at the site level (domain_port_id %s)",
                           AP_SITE_LEVEL_PORT_ID);
    bool derived = json_integer_value(json_object_get(port.doc, "is_derived")) == 1;
    if (!strcmp(type, "is_derived")) {
        if (status == 0)
            json_object_del(port.doc, "switch");
        else if (!derived)
            json_object_set_new(port.doc, "switch", switch_read(site_switch, false));
        json_object_set_new(port.doc, "is_derived", json_integer(status));
    } else {
        /* setting one switch of a port that inherits gives it its own set */
        if (!derived)
            json_object_set_new(port.doc, "switch", switch_read(site_switch, false));
        json_object_set_new(port.doc, "is_derived", json_integer(1));
        json_object_set_new(json_object_get(port.doc, "switch"), type, json_integer(status));
    }
    return ap_update(r, &port) == 0 ? reply_result(r, NULL) : 0;
}

int ap_overview_switch_get(struct req *r)
{
    struct resource site, port;
    if (ap_domain_port_from_path(r, &site, &port) != 0)
        return 0;
    if (ap_port_is_site_level(&port))
        return reply_result(
            r, json_pack("{s:o}", "switch", switch_read(json_object_get(site.doc, "switch"), true)));
    if (json_integer_value(json_object_get(port.doc, "is_derived")) != 1)
        return reply_result(r, json_pack("{s:i}", "is_derived", 0));
    return reply_result(r, json_pack("{s:i,s:o}", "is_derived", 1, "switch",
                                     switch_read(json_object_get(port.doc, "switch"), false)));
}
