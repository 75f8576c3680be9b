/* test_ap_vip.c — VIP allocation (src/api/ap/ap_vip.c) on a SQLite store:
 * the lowest free address over all pools of a family, never one another
 * site holds, exhaustion, release with the site. */
#include <stdlib.h>
#include <unistd.h>

#include "api/ap/ap_common.h"
#include "store/select/select.h"
#include "store/sqlite/sqlite.h"
#include "unit.h"

static char dir[64] = "/tmp/parapet-apvip-XXXXXX";
static struct store *s;

static void teardown(void)
{
    s->ops->close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", dir);
}

static void setup(void)
{
    if (s)
        return;
    if (!mkdtemp(dir))
        abort();
    char path[128];
    snprintf(path, sizeof path, "%s/v.db", dir);
    s = sqlite_store_open(path);
    if (!s)
        abort();
    atexit(teardown);
    s->ops->begin(s, true);
    struct portal p = {.id = "p000000000000001", .name = "P"};
    struct customer a = {.id = "c00000000000000a", .portal_id = "p000000000000001", .name = "A"};
    if (s->ops->portal_create(s, &p) || s->ops->customer_create(s, &a) || s->ops->commit(s))
        abort();
}

static struct resource site(const char *name)
{
    struct resource r = {.customer_id = "c00000000000000a"};
    snprintf(r.name, sizeof r.name, "%s", name);
    r.doc = json_object();
    if (s->ops->res_create(s, &AP_SITE, &r) != STORE_OK)
        abort();
    json_decref(r.doc);
    r.doc = NULL;
    return r;
}

/* Takes an address for `site`; "NONE <pools>" when exhausted. */
static const char *take(const struct resource *st, const json_t *pools, int family)
{
    static char out[600];
    char addr[NET_TEXT_MAX], names[512];
    int rc = ap_vip_take(s, st, pools, family, addr, names, sizeof names);
    if (rc == STORE_NOT_FOUND)
        snprintf(out, sizeof out, "NONE %s", names);
    else
        snprintf(out, sizeof out, "%s", rc == STORE_OK ? addr : "ERROR");
    return out;
}

TEST(lowest_free_and_exhaustion)
{
    setup();
    s->ops->begin(s, true);
    json_t *pools =
        json_pack("{s:[s,s],s:[s]}", "ipv4", "198.51.100.8/31", "192.0.2.4/31", "ipv6", "2001:db8::ff/128");
    struct resource a = site("a"), b = site("b"), c = site("c");
    CHECK_STR(take(&a, pools, NET_V4), "192.0.2.4"); /* the lower pool, though listed second */
    CHECK_STR(take(&b, pools, NET_V4), "192.0.2.5");
    CHECK_STR(take(&c, pools, NET_V4), "198.51.100.8");
    CHECK_STR(take(&a, pools, NET_V6), "2001:db8::ff");
    CHECK_STR(take(&b, pools, NET_V6), "NONE 2001:db8::ff/128");
    /* b's delete releases its address: the next site gets it */
    CHECK_INT(s->ops->res_delete(s, b.rid, NULL), STORE_OK);
    struct resource d = site("d");
    CHECK_STR(take(&d, pools, NET_V4), "192.0.2.5");
    CHECK_STR(take(&d, pools, NET_V4), "198.51.100.9");
    CHECK_STR(take(&d, pools, NET_V4), "NONE 198.51.100.8/31, 192.0.2.4/31");
    json_t *none = json_pack("{s:[],s:[]}", "ipv4", "ipv6");
    CHECK_STR(take(&d, none, NET_V4), "NONE ");
    s->ops->rollback(s);
    json_decref(pools);
    json_decref(none);
}

UNIT_MAIN(UNIT_CASE(lowest_free_and_exhaustion))
