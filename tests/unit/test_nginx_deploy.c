/* test_nginx_deploy.c — deploy passes of the Application Protection data
 * plane against a real SQLite store in a scratch directory, with a
 * stand-in nginx that refuses candidates containing a pattern
 * (dataplane/nginx/nginx_deploy.h): per-site states, the last good
 * fragment kept, nothing installed when nothing changed. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/ap/ap_kinds.h"
#include "dataplane/nginx/nginx_deploy.h"
#include "deploy/files.h"
#include "unit/scratch_store.h"
#include "unit/unit.h"

static char dir[64], ngx_dir[128], keys_dir[128], fake_nginx[128];
static struct store *db;
static struct nginx_settings st;

/* "nginx -t -q -c CHECK ...": fails when the candidate next to CHECK
 * contains $REFUSE, as nginx words it. */
static void write_fake_nginx(void)
{
    snprintf(fake_nginx, sizeof fake_nginx, "%s/fake-nginx", dir);
    files_replace(fake_nginx, "#!/bin/sh\n"
                              "cand=\"$(dirname \"$4\")/sites.conf.new\"\n"
                              "if [ -n \"$REFUSE\" ] && grep -q \"$REFUSE\" \"$cand\"; then\n"
                              "  echo \"nginx: [emerg] host not found in upstream \\\"$REFUSE\\\" in $cand:12\" >&2\n"
                              "  exit 1\n"
                              "fi\n"
                              "exit 0\n");
    chmod(fake_nginx, 0700);
}

static void setup(void)
{
    db = scratch_open(dir, (struct customer){.svc_ap = true});
    snprintf(ngx_dir, sizeof ngx_dir, "%s/nginx", dir);
    snprintf(keys_dir, sizeof keys_dir, "%s/ap-keys", dir);
    write_fake_nginx();
    st = (struct nginx_settings){.dir = ngx_dir, .keys_dir = keys_dir, .nginx = fake_nginx, .listen = "127.0.0.1",
                                 .crs_setup = "/x/crs-setup.conf", .crs_rules = "/x/rules"};
}

static void teardown(void)
{
    scratch_close(db, dir);
}

static void create(const struct res_kind *k, struct resource *r, int64_t parent, const char *name, json_t *doc)
{
    memset(r, 0, sizeof *r);
    snprintf(r->customer_id, sizeof r->customer_id, "00000000000000c1");
    snprintf(r->name, sizeof r->name, "%s", name);
    r->parent_rid = parent;
    r->doc = doc;
    db->ops->begin(db, true);
    CHECK_INT(db->ops->res_create(db, k, r), STORE_OK);
    db->ops->commit(db);
}

/* A site with one domain and its HTTP port 80. */
static void add_site(const char *name, const char *domain, struct resource *site)
{
    create(&AP_SITE, site, 0, name,
           json_pack("{s:i,s:[s],s:[s],s:{s:i,s:i,s:i}}", "backend_type", 0, "backend_ip", "198.51.100.1", "vip",
                     "192.0.2.241", "switch", "appshield", 1, "waf", 1, "cache", 0));
    struct resource d, p;
    create(&AP_DOMAIN, &d, site->rid, domain, json_pack("{s:[]}", "redirects"));
    create(&AP_DOMAIN_PORT, &p, d.rid, "80", json_pack("{s:s,s:i,s:s}", "domain_id", d.id, "port", 80, "scheme", "http"));
    json_decref(d.doc);
    json_decref(p.doc);
}

static void set_backend(struct resource *site, const char *ip)
{
    json_object_set_new(site->doc, "backend_ip", json_pack("[s]", ip));
    db->ops->begin(db, true);
    CHECK_INT(db->ops->res_update(db, site), STORE_OK);
    db->ops->commit(db);
}

static const char *state_of(const struct resource *site, const char *member)
{
    static char out[600];
    json_t *rows = NULL;
    db->ops->begin(db, false);
    db->ops->dataplane_states(db, "nginx", site->rid, &rows);
    db->ops->commit(db);
    snprintf(out, sizeof out, "%s", json_string_value(json_object_get(json_array_get(rows, 0), member)) ?: "");
    json_decref(rows);
    return out;
}

static char *sites_conf(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/sites.conf", ngx_dir);
    return files_read(path);
}

TEST(states_and_last_good)
{
    setup();
    struct resource a, b;
    add_site("A", "a.example", &a);
    add_site("B", "b.example", &b);
    struct nginx_deploy_result res;
    CHECK_INT(nginx_deploy_run(db, &st, &res), 0);
    CHECK_INT(res.sites, 2);
    CHECK_INT(res.deployed, 2);
    CHECK(res.installed);
    CHECK_STR(state_of(&a, "state"), "deployed");
    CHECK_STR(state_of(&b, "state"), "deployed");
    char *conf = sites_conf();
    CHECK(conf && strstr(conf, "server_name a.example;") && strstr(conf, "server_name b.example;"));
    CHECK(conf && strstr(conf, "listen 127.0.0.1:80;"));
    free(conf);

    /* nothing changed: nothing installed */
    CHECK_INT(nginx_deploy_run(db, &st, &res), 0);
    CHECK(!res.installed && res.deployed == 0 && res.failed == 0);

    /* B's new settings are refused by nginx: B failed, served as it last was; A untouched */
    setenv("REFUSE", "198.51.100.66", 1);
    set_backend(&b, "198.51.100.66");
    CHECK_INT(nginx_deploy_run(db, &st, &res), 0);
    CHECK_INT(res.failed, 1);
    CHECK_STR(state_of(&b, "state"), "failed");
    CHECK_STR(state_of(&b, "reason"), "nginx refused the configuration: host not found in upstream \"198.51.100.66\"");
    CHECK_STR(state_of(&a, "state"), "deployed");
    conf = sites_conf();
    CHECK(conf && strstr(conf, "server_name b.example;") && strstr(conf, "server 198.51.100.1:80;"));
    CHECK(conf && !strstr(conf, "198.51.100.66"));
    free(conf);
    /* the same refused settings are not tried again */
    CHECK_INT(nginx_deploy_run(db, &st, &res), 0);
    CHECK(!res.installed && res.failed == 0);

    /* fixed: deployed again */
    unsetenv("REFUSE");
    set_backend(&b, "198.51.100.67");
    CHECK_INT(nginx_deploy_run(db, &st, &res), 0);
    CHECK_INT(res.deployed, 1);
    CHECK_STR(state_of(&b, "state"), "deployed");
    conf = sites_conf();
    CHECK(conf && strstr(conf, "server 198.51.100.67:80;"));
    free(conf);
    json_decref(a.doc);
    json_decref(b.doc);
    teardown();
}

UNIT_MAIN(UNIT_CASE(states_and_last_good))
