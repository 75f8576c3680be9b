/* test_dp_plane.c — deploy passes of a fragment-rendering data plane
 * (dataplane/plane.h), here BIRD's, against a real SQLite store in a
 * scratch directory, with a stand-in `bird` that refuses candidates whose
 * flow4.conf names port 666: per-site states with BIRD's message, the last
 * good fragment kept for a refused site, nothing installed when nothing
 * changed, everything tried again under changed options, a fixed site
 * deployed again; no checker run when nothing changed; FastNetMon's own
 * check run on the fragments it has not accepted yet only. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/op/op_kinds.h"
#include "dataplane/bird/bird_plane.h"
#include "dataplane/fastnetmon/fnm_plane.h"
#include "deploy/files.h"
#include "unit/scratch_store.h"
#include "unit/unit.h"

static char dir[64], bird_dir[128], fake_bird[128];
static struct store *db;

/* "bird -p -c DIR/check/bird.conf": refuses a flow4.conf naming dport 666,
 * in BIRD's words. */
static void write_fake_bird(void)
{
    snprintf(fake_bird, sizeof fake_bird, "%s/fake-bird", dir);
    files_replace(fake_bird, "#!/bin/sh\n"
                             "f=\"$(dirname \"$3\")/flow4.conf\"\n"
                             "if grep -q 'dport 666;' \"$f\"; then\n"
                             "  echo \"bird: $f:4:40 Port 666 is cursed\" >&2\n"
                             "  exit 1\n"
                             "fi\n"
                             "exit 0\n");
    chmod(fake_bird, 0700);
}

static void setup(void)
{
    db = scratch_open(dir, (struct customer){.svc_op = true});
    snprintf(bird_dir, sizeof bird_dir, "%s/bird", dir);
    write_fake_bird();
}

static void teardown(void)
{
    scratch_close(db, dir);
}

static int64_t add_site(const char *name)
{
    struct resource r = {0};
    snprintf(r.customer_id, sizeof r.customer_id, "00000000000000c1");
    snprintf(r.name, sizeof r.name, "%s", name);
    r.doc = json_pack("{s:[s]}", "cidr", "10.1.0.0/24");
    db->ops->begin(db, true);
    CHECK_INT(db->ops->res_create(db, &OP_SITE, &r), STORE_OK);
    db->ops->commit(db);
    json_decref(r.doc);
    return r.rid;
}

/* An OP site of the model whose one host has a flex filter dropping UDP to `port`. */
static json_t *site(int64_t rid, const char *id, const char *block, int port)
{
    return json_pack("{s:I,s:s,s:[s],s:{},s:[{s:I,s:[s],s:i,s:[{s:I,s:[s],s:i,s:[{s:s,s:s,s:s,s:{s:i,s:s},"
                     "s:{s:i,s:[i]},s:{s:i}}]}]}],s:[]}",
                     "rid", (json_int_t)rid, "id", id, "blocks", block, "bogons", "networks", "rid",
                     (json_int_t)rid * 10, "blocks", block, "mitigation_mode", 0, "hosts", "rid",
                     (json_int_t)rid * 100, "blocks", block, "mitigation_mode", 0, "flex", "id", "f", "filter_name",
                     "f", "action", "drop", "protocol", "is_enabled", 1, "type", "udp", "port", "is_enabled", 1,
                     "ports", port, "payload_string", "is_enabled", 0, "events");
}

static json_t *state_of(int64_t rid)
{
    json_t *rows = NULL;
    db->ops->begin(db, false);
    db->ops->dataplane_states(db, "bird", rid, &rows);
    db->ops->commit(db);
    json_t *row = json_incref(json_array_get(rows, 0));
    json_decref(rows);
    return row;
}

static char *live_flow4(void)
{
    char path[200];
    snprintf(path, sizeof path, "%s/flow4.conf", bird_dir);
    return files_read(path);
}

TEST(refused_site_keeps_last_good)
{
    setup();
    int64_t a = add_site("a"), b = add_site("b");
    struct bird_plane_config cfg = {.render = {.dir = bird_dir, .router_id = "192.0.2.1", .as = 64512},
                                    .bird = fake_bird};
    struct dp_plane p;
    bird_plane_init(&p, &cfg);
    struct dp_pass_result res;

    /* 1. both render and pass: both deployed, installed */
    json_t *model = json_pack("{s:[o,o],s:[]}", "op_sites", site(a, "sa", "10.1.0.0/24", 53),
                              site(b, "sb", "10.2.0.0/24", 123), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.deployed, 2);
    CHECK(res.installed);
    json_decref(model);

    /* 2. b's filter moves to port 666, which "BIRD" refuses: b failed with
     * its message (no directory), a untouched, b served as it was */
    model = json_pack("{s:[o,o],s:[]}", "op_sites", site(a, "sa", "10.1.0.0/24", 53),
                      site(b, "sb", "10.2.0.0/24", 666), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.failed, 1);
    CHECK_INT(res.deployed, 0);
    json_t *st = state_of(b);
    CHECK_STR(json_string_value(json_object_get(st, "state")), "failed");
    CHECK_STR(json_string_value(json_object_get(st, "reason")), "BIRD refused the configuration: flow4.conf:4:40 "
                                                                "Port 666 is cursed");
    json_decref(st);
    st = state_of(a);
    CHECK_STR(json_string_value(json_object_get(st, "state")), "deployed");
    json_decref(st);
    char *live = live_flow4();
    CHECK(live && strstr(live, "dst 10.2.0.0/24; proto 17; dport 123;") && !strstr(live, "666"));
    free(live);

    /* 3. the same again: nothing checked, nothing installed, b still failed */
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK(!res.installed);
    CHECK_INT(res.failed + res.deployed, 0);
    CHECK_INT(res.checks, 0);

    /* 3b. the operator's options change the header: every site is tried
     * again (b refused again, a deployed under the new header) */
    cfg.render.router_id = "192.0.2.9";
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.failed, 1);
    CHECK_INT(res.deployed, 1);
    CHECK(res.installed);
    json_decref(model);

    /* 4. fixed: deployed, installed */
    model = json_pack("{s:[o,o],s:[]}", "op_sites", site(a, "sa", "10.1.0.0/24", 53),
                      site(b, "sb", "10.2.0.0/24", 5353), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.deployed, 1);
    CHECK(res.installed);
    live = live_flow4();
    CHECK(live && strstr(live, "dport 5353;"));
    free(live);
    json_decref(model);
    teardown();
}

static char *read_in(const char *sub, const char *name)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    return files_read(path);
}

/* `fastnetmon --configuration_check` (a stand-in that accepts anything)
 * reads the header and the fragments not accepted yet; parapet's validator
 * and the installed file take the whole. */
TEST(fastnetmon_checks_fresh_fragments)
{
    setup();
    int64_t a = add_site("a"), b = add_site("b");
    char fnm_dir[128], fake_fnm[128];
    snprintf(fnm_dir, sizeof fnm_dir, "%s/fnm", dir);
    snprintf(fake_fnm, sizeof fake_fnm, "%s/fake-fastnetmon", dir);
    files_replace(fake_fnm, "#!/bin/sh\nexit 0\n");
    chmod(fake_fnm, 0700);
    struct fnm_plane_config cfg = {.render = {.dir = fnm_dir, .netflow_host = "127.0.0.1", .netflow_port = 2055,
                                              .ban_time = 300, .average_calculation_time = 15},
                                   .fastnetmon = fake_fnm};
    struct dp_plane p;
    fnm_plane_init(&p, &cfg);
    struct dp_pass_result res;

    /* 1. both new: both checked */
    json_t *model = json_pack("{s:[o,o],s:[]}", "op_sites", site(a, "sa", "10.1.0.0/24", 53),
                              site(b, "sb", "10.2.0.0/24", 53), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.deployed, 2);
    CHECK_INT(res.checks, 1);
    char *checked = read_in("fnm/check", "fastnetmon.conf");
    CHECK(checked && strstr(checked, "10.1.0.0/24") && strstr(checked, "10.2.0.0/24"));
    free(checked);
    json_decref(model);

    /* 2. b moves: only b (and the header) goes to fastnetmon; the live file has both */
    model = json_pack("{s:[o,o],s:[]}", "op_sites", site(a, "sa", "10.1.0.0/24", 53),
                      site(b, "sb", "10.3.0.0/24", 53), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.deployed, 1);
    CHECK(res.installed);
    checked = read_in("fnm/check", "fastnetmon.conf");
    CHECK(checked && strstr(checked, "10.3.0.0/24") && !strstr(checked, "10.1.0.0/24"));
    CHECK(checked && strstr(checked, "disable_usage_report = on"));
    free(checked);
    char *live = read_in("fnm", "fastnetmon.conf");
    CHECK(live && strstr(live, "10.1.0.0/24") && strstr(live, "10.3.0.0/24") && !strstr(live, "10.2.0.0/24"));
    free(live);

    /* 3. nothing changed: nothing checked */
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.checks, 0);
    CHECK(!res.installed);
    json_decref(model);
    teardown();
}

UNIT_MAIN(UNIT_CASE(refused_site_keeps_last_good), UNIT_CASE(fastnetmon_checks_fresh_fragments))
