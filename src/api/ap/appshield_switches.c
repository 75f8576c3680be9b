/* appshield_switches.c — POST {ASH}/switch (one switch of the tree by its
 * name) and GET {ASH}/switches (the whole tree; appshield_switch.c). */
#include "api/ap/ap_policy.h"
#include "api/ap/appshield.h"

int appshield_switch_update(struct req *r)
{
    struct port_policy p;
    if (appshield_load(r, &p) != 0)
        return 0;
    /* the route's ONE_OF holds exactly the tree's names */
    appshield_switch_set(json_object_get(p.doc, "switches"), field_str(r, "name"),
                         (int)field_int(r, "enable", 0));
    if (port_policy_save(r, &AP_APPSHIELD, &p) != 0)
        return 0;
    return reply_result(r, NULL);
}

int appshield_switches_get(struct req *r)
{
    struct port_policy p;
    if (appshield_load(r, &p) != 0)
        return 0;
    return reply_result(r, appshield_switches_view(json_object_get(p.doc, "switches")));
}
