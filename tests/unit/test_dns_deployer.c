/* test_dns_deployer.c — deploy passes against a real SQLite store in a
 * scratch directory, with a stand-in knotc that refuses candidates
 * containing a pattern (deploy/dns_deployer.h). */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deploy/dns_deployer.h"
#include "deploy/files.h"
#include "unit/scratch_store.h"
#include "unit/unit.h"

static char dir[64], knot_dir[128], fake_knotc[128];
static struct store *db;
static struct dns_deploy_config cfg;
static const char *const nameservers[] = {"ns1.test.example"};

/* The stand-in: "knotc -c CHECK.conf conf-check" fails when the candidate
 * next to CHECK.conf contains $REFUSE (quoting a secret and a path, as Knot
 * does); "reload" succeeds. */
static void write_fake_knotc(void)
{
    snprintf(fake_knotc, sizeof fake_knotc, "%s/knotc", dir);
    files_replace(
        fake_knotc,
        "#!/bin/sh\n"
        "[ \"$3\" = conf-check ] || exit 0\n"
        "cand=\"$(dirname \"$2\")/zones.conf.new\"\n"
        "if [ -n \"$REFUSE\" ] && grep -q \"$REFUSE\" \"$cand\"; then\n"
        "  echo \"error: config, file '$cand', line 7, item 'secret', value 'c2VjcmV0' (refused)\" >&2\n"
        "  exit 1\n"
        "fi\n"
        "if [ -n \"$REFUSE_PAIRS\" ] && [ \"$(grep -c 'domain:' \"$cand\")\" -gt 1 ]; then\n"
        "  echo \"error: config, file '$cand', line 1, (too many zones together)\" >&2\n"
        "  exit 1\n"
        "fi\n"
        "exit 0\n");
    chmod(fake_knotc, 0700);
}

static void setup(void)
{
    db = scratch_open(dir, (struct customer){.svc_dns = true});
    snprintf(knot_dir, sizeof knot_dir, "%s/knot", dir);
    write_fake_knotc();
    cfg = (struct dns_deploy_config){
        .knot = {.dir = knot_dir, .listen = "127.0.0.1@5300", .nameservers = nameservers, .n_nameservers = 1},
        .knotc = fake_knotc,
        .interval_s = 5,
    };
}

static void teardown(void)
{
    scratch_close(db, dir);
}

static struct dns_zone zone_named(const char *name, bool transfer)
{
    struct dns_zone z;
    memset(&z, 0, sizeof z);
    snprintf(z.customer_id, sizeof z.customer_id, "00000000000000c1");
    snprintf(z.name, sizeof z.name, "%s", name);
    snprintf(z.origin_name, sizeof z.origin_name, "%s", name);
    z.is_zone_transfer = transfer;
    return z;
}

static void add_zone(struct dns_zone *z)
{
    db->ops->begin(db, true);
    CHECK_INT(db->ops->dns_zone_create(db, z), STORE_OK);
    db->ops->commit(db);
}

static void save_zone(struct dns_zone *z)
{
    db->ops->begin(db, true);
    CHECK_INT(db->ops->dns_zone_save(db, z), STORE_OK);
    db->ops->commit(db);
}

static struct dns_zone load(const char *name)
{
    struct dns_zone z;
    memset(&z, 0, sizeof z);
    db->ops->begin(db, false);
    CHECK_INT(db->ops->dns_zone_get(db, "00000000000000c1", name, &z), STORE_OK);
    db->ops->commit(db);
    return z;
}

static char *file_text(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", knot_dir, name);
    return files_read(path);
}

static bool file_has(const char *name, const char *text)
{
    char *t = file_text(name);
    bool has = t && strstr(t, text);
    free(t);
    return has;
}

static bool file_absent(const char *name)
{
    char *t = file_text(name);
    free(t);
    return t == NULL;
}

/* Adds a standard zone with default settings. */
static void add_standard(const char *name)
{
    struct dns_zone z = zone_named(name, false);
    add_zone(&z);
}

static int run(struct dns_deploy_result *res)
{
    return dns_deploy_run(db, &cfg, res);
}

TEST(deploys_pending_zones_and_writes_zone_files)
{
    setup();
    struct dns_zone a = zone_named("a.example", false), b = zone_named("b.example", false);
    b.enable_dnssec = true;
    add_zone(&a);
    add_zone(&b);
    CHECK_STR(load("a.example").deploy_state, "pending");
    struct dns_deploy_result res;
    CHECK_INT(run(&res), 0);
    CHECK_INT(res.zones, 2);
    CHECK_INT(res.deployed, 2);
    CHECK_INT(res.failed, 0);
    CHECK(res.installed);
    CHECK_STR(load("a.example").deploy_state, "deployed");
    CHECK_STR(load("b.example").deploy_state, "deployed");
    CHECK(file_has("zones.conf", "- domain: \"a.example\""));
    CHECK(file_has("zones.conf", "- domain: \"b.example\"\n    dnssec-signing: on"));
    CHECK(file_has("knot.conf", "include: \""));
    CHECK(file_has("zones/a.example.zone", "SOA\tns1.test.example. hostmaster.a.example."));
    /* nothing changed: a second pass does nothing */
    CHECK_INT(run(&res), 0);
    CHECK_INT(res.deployed, 0);
    CHECK(!res.installed);
    teardown();
}

TEST(a_refused_zone_fails_alone_and_keeps_its_served_version)
{
    setup();
    add_standard("a.example");
    add_standard("b.example");
    struct dns_deploy_result res;
    CHECK_INT(run(&res), 0);
    /* b gets a root CNAME, which the stand-in refuses; a changes too */
    setenv("REFUSE", "semantic-checks", 1);
    struct dns_zone b = load("b.example");
    b.enable_root_cname = true;
    save_zone(&b);
    struct dns_zone a = load("a.example");
    a.enable_dnssec = true;
    save_zone(&a);
    CHECK_INT(run(&res), 0);
    CHECK_INT(res.deployed, 1);
    CHECK_INT(res.failed, 1);
    struct dns_zone got = load("b.example");
    CHECK_STR(got.deploy_state, "failed");
    /* Knot's words reach the client without the server's paths or the secret it quoted */
    CHECK_STR(got.deploy_reason, "Knot DNS refused the zone configuration: error: config, line 7, "
                                 "item 'secret', value '...' (refused)");
    CHECK_STR(load("a.example").deploy_state, "deployed");
    /* b is still served as it was; a is served with its new settings */
    CHECK(file_has("zones.conf", "- domain: \"b.example\"\n"));
    CHECK(!file_has("zones.conf", "semantic-checks"));
    CHECK(file_has("zones.conf", "- domain: \"a.example\"\n    dnssec-signing: on"));
    /* a failed zone is not retried until it changes */
    CHECK_INT(run(&res), 0);
    CHECK_INT(res.failed, 0);
    unsetenv("REFUSE");
    b = load("b.example");
    b.enable_root_cname = false;
    save_zone(&b);
    CHECK_STR(load("b.example").deploy_state, "pending");
    CHECK_STR(load("b.example").deploy_reason, "");
    CHECK_INT(run(&res), 0);
    CHECK_STR(load("b.example").deploy_state, "deployed");
    teardown();
}

TEST(a_refused_new_zone_is_not_served)
{
    setup();
    setenv("REFUSE", "bad.example", 1);
    add_standard("good.example");
    add_standard("bad.example");
    struct dns_deploy_result res;
    CHECK_INT(run(&res), 0);
    CHECK_STR(load("bad.example").deploy_state, "failed");
    CHECK_STR(load("good.example").deploy_state, "deployed");
    CHECK(!file_has("zones.conf", "bad.example"));
    CHECK(file_absent("zones/bad.example.zone"));
    unsetenv("REFUSE");
    teardown();
}

TEST(a_failure_of_the_whole_leaves_zones_pending)
{
    setup();
    setenv("REFUSE_PAIRS", "1", 1);
    add_standard("a.example");
    add_standard("b.example");
    struct dns_deploy_result res;
    CHECK_INT(run(&res), -1);
    CHECK(strstr(res.error, "too many zones together") != NULL);
    CHECK_STR(load("a.example").deploy_state, "pending");
    CHECK_STR(load("b.example").deploy_state, "pending");
    CHECK(!file_has("zones.conf", "a.example"));
    unsetenv("REFUSE_PAIRS");
    CHECK_INT(run(&res), 0);
    CHECK_INT(res.deployed, 2);
    teardown();
}

TEST(transfer_zone_waits_for_a_master)
{
    setup();
    struct dns_zone x = zone_named("x.example", true);
    add_zone(&x);
    struct dns_deploy_result res;
    CHECK_INT(run(&res), 0);
    struct dns_zone got = load("x.example");
    CHECK_STR(got.deploy_state, "pending");
    CHECK_STR(got.deploy_reason, "waiting for a master server: a zone transfer zone needs one");
    CHECK(!file_has("zones.conf", "x.example"));
    x = load("x.example");
    x.n_masters = 1;
    snprintf(x.masters[0].ip, sizeof x.masters[0].ip, "192.0.2.1");
    snprintf(x.masters[0].key_name, sizeof x.masters[0].key_name, "xfr");
    snprintf(x.masters[0].secret, sizeof x.masters[0].secret, "c2VjcmV0");
    snprintf(x.masters[0].algorithm, sizeof x.masters[0].algorithm, "hmac-sha256");
    save_zone(&x);
    CHECK_INT(run(&res), 0);
    CHECK_STR(load("x.example").deploy_state, "deployed");
    CHECK(file_has("zones.conf", "    master: [ \"x.example#m0\" ]"));
    CHECK(file_has("zones.conf", "  - id: \"xfr.\"\n    algorithm: hmac-sha256\n    secret: \"c2VjcmV0\"\n"));
    /* secondary zones get no zone file from parapet (knotd writes what it transfers) */
    CHECK(file_absent("zones/x.example.zone"));
    teardown();
}

TEST(deleted_zones_leave_the_configuration)
{
    setup();
    add_standard("a.example");
    add_standard("b.example");
    struct dns_deploy_result res;
    CHECK_INT(run(&res), 0);
    CHECK(file_has("zones/a.example.zone", "SOA"));
    int64_t id = load("a.example").id;
    db->ops->begin(db, true);
    CHECK_INT(db->ops->dns_zone_delete(db, id), STORE_OK);
    db->ops->commit(db);
    CHECK_INT(run(&res), 0);
    CHECK(res.installed);
    CHECK(!file_has("zones.conf", "a.example"));
    CHECK(file_has("zones.conf", "b.example"));
    CHECK(file_absent("zones/a.example.zone"));
    teardown();
}

TEST(a_change_during_a_pass_stays_pending)
{
    setup();
    struct dns_zone a = zone_named("a.example", false);
    add_zone(&a);
    json_t *snap = NULL;
    db->ops->begin(db, false);
    db->ops->dns_deploy_snapshot(db, &snap);
    db->ops->commit(db);
    json_t *z = json_array_get(snap, 0);
    int64_t gen = json_integer_value(json_object_get(z, "generation"));
    a = load("a.example");
    a.enable_dnssec = true;
    save_zone(&a); /* a newer generation */
    db->ops->begin(db, true);
    CHECK_INT(db->ops->dns_deploy_mark(db, a.id, gen, "deployed", "", "{}"), STORE_OK);
    db->ops->commit(db);
    CHECK_STR(load("a.example").deploy_state, "pending");
    json_decref(snap);
    teardown();
}

TEST(without_knotc_the_api_checks_stand)
{
    setup();
    cfg.knotc = NULL;
    setenv("REFUSE", "a.example", 1); /* the stand-in is not asked */
    struct dns_zone a = zone_named("a.example", false);
    add_zone(&a);
    struct dns_deploy_result res;
    CHECK_INT(run(&res), 0);
    CHECK_STR(load("a.example").deploy_state, "deployed");
    unsetenv("REFUSE");
    teardown();
}

UNIT_MAIN(UNIT_CASE(deploys_pending_zones_and_writes_zone_files),
          UNIT_CASE(a_refused_zone_fails_alone_and_keeps_its_served_version),
          UNIT_CASE(a_refused_new_zone_is_not_served), UNIT_CASE(a_failure_of_the_whole_leaves_zones_pending),
          UNIT_CASE(transfer_zone_waits_for_a_master), UNIT_CASE(deleted_zones_leave_the_configuration),
          UNIT_CASE(a_change_during_a_pass_stays_pending), UNIT_CASE(without_knotc_the_api_checks_stand))
