/* test_pm_collector.c — pmacct's collector (dataplane/pmacct/pm_collector.h):
 * its configuration from the model, the filter of the protected blocks
 * checked by libpcap, its JSON lines read, and the real nfacctd run on
 * loopback by the collector: NetFlow v5 exports (tests/tools/netflow_send.c)
 * toward a protected address, an Application Protection VIP and an
 * unprotected address end up in the store as flow records of the first two
 * only, with every packet counted. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/ap/ap_kinds.h"
#include "api/op/op_kinds.h"
#include "base/net.h"
#include "core/catalogue.h"
#include "dataplane/pmacct/pm_collector.h"
#include "unit/scratch_store.h"
#include "unit/unit.h"

static const struct pm_settings settings = {.dir = "/srv/pm", .host = "127.0.0.1", .port = 2100, .refresh_s = 60,
                                            .cache_entries = 16411};

TEST(render)
{
    json_t *model = json_loads("{\"op_sites\": [{\"rid\": 1, \"blocks\": [\"198.51.100.0/24\", \"2001:db8:1::/48\"]}],"
                               " \"cp_sites\": [{\"rid\": 2, \"blocks\": [\"192.0.2.0/25\"],"
                               "   \"hosts\": [{\"blocks\": [\"192.0.2.200\"]}, {\"blocks\": [\"192.0.2.5\"]}]}],"
                               " \"ap_sites\": [{\"rid\": 3, \"blocks\": [\"203.0.113.80\"]}]}",
                               0, NULL);
    char why[256] = "";
    char *text = pm_render(&settings, model, why, sizeof why);
    CHECK_STR(text, "! nfacctd.conf: written by parapet from stored state; edits are overwritten.\n"
                    "daemonize: false\nlogfile: /srv/pm/nfacctd.log\n"
                    "nfacctd_ip: 127.0.0.1\nnfacctd_port: 2100\nnfacctd_time_new: true\nnfacctd_renormalize: true\n"
                    "nfacctd_pipe_size: 4194304\n"
                    "nfacctd_templates_file: /srv/pm/templates.json\nnfacctd_as: netflow\n"
                    "timestamps_since_epoch: true\nplugins: print[parapet]\n"
                    "aggregate[parapet]: peer_src_ip, src_host, dst_host, src_port, dst_port, proto, src_as\n"
                    "aggregate_filter[parapet]: dst net 198.51.100.0/24 or dst net 2001:db8:1::/48 or dst net "
                    "192.0.2.0/25 or dst net 192.0.2.200/32 or dst net 192.0.2.5/32 or dst net 203.0.113.80/32\n"
                    "print_output[parapet]: json\nprint_num_protos[parapet]: true\nprint_markers[parapet]: true\n"
                    "print_history[parapet]: 1m\nprint_history_roundoff[parapet]: m\n"
                    "print_refresh_time[parapet]: 60\nprint_output_lock_file[parapet]: /srv/pm/print.lock\n"
                    "print_cache_entries[parapet]: 16411\n");
    free(text);
    struct pm_settings sf = settings;
    sf.sflow = true;
    sf.sampling = 512;
    text = pm_render(&sf, model, why, sizeof why);
    CHECK(text && strstr(text, "sfacctd_port: 2100\n") && strstr(text, "sfacctd_ext_sampling_rate: 512\n") &&
          strstr(text, "sfacctd_as: sflow\n") && !strstr(text, "templates"));
    free(text);
    json_decref(model);
    model = json_loads("{\"op_sites\": [], \"cp_sites\": [{\"rid\": 2, \"blocks\": [], \"hosts\": []}]}", 0, NULL);
    CHECK(pm_render(&settings, model, why, sizeof why) == NULL);
    CHECK_STR(why, "no site has a protected block");
    json_decref(model);
}

TEST(lines)
{
    struct pm_row r;
    char router[64], batch[64] = "";
    CHECK_INT(pm_parse_line("{\"event_type\": \"purge_init\", \"writer_id\": \"parapet/25059\"}", &r, router,
                            sizeof router, batch, sizeof batch),
              3);
    CHECK_STR(batch, "25059");
    CHECK_INT(pm_parse_line("{\"event_type\": \"purge\", \"as_src\": 64500, \"peer_ip_src\": \"192.0.2.2\","
                            " \"ip_src\": \"203.0.113.5\", \"ip_dst\": \"198.51.100.10\", \"port_src\": 40000,"
                            " \"port_dst\": 53, \"ip_proto\": \"17\", \"stamp_inserted\": \"1795843380\","
                            " \"stamp_updated\": \"1795843421\", \"packets\": 200, \"bytes\": 100000}",
                            &r, router, sizeof router, batch, sizeof batch),
              1);
    CHECK_STR(router, "192.0.2.2");
    CHECK_INT(r.proto, 17);
    CHECK_INT(r.sport, 40000);
    CHECK_INT(r.dport, 53);
    CHECK_INT(r.src_as, 64500);
    CHECK_INT(r.minute, 1795843380);
    CHECK_INT(r.bytes, 100000);
    CHECK_INT(pm_parse_line("{\"event_type\": \"purge_close\", \"purged_entries\": 10}", &r, router, sizeof router,
                            batch, sizeof batch),
              2);
    CHECK_INT(pm_parse_line("{\"event_type\": \"purge\", \"ip_src\": \"x\"}", &r, router, sizeof router, batch,
                            sizeof batch),
              -1);
    CHECK_INT(pm_parse_line("garbage", &r, router, sizeof router, batch, sizeof batch), -1);
}

static char dir[64];

static long count_rows(const char *sql)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sqlite3 '%s/parapet.db' \"%s\"", dir, sql);
    FILE *f = popen(cmd, "r");
    long n = -1;
    if (f && fscanf(f, "%ld", &n) != 1)
        n = -1;
    if (f)
        pclose(f);
    return n;
}

TEST(nfacctd_to_the_store)
{
    struct store *db = scratch_open(dir, (struct customer){.svc_op = true, .svc_ap = true});
    CHECK_INT(catalogue_seed(db), 0); /* the model reads the mitigation defaults */
    /* an Application Protection site with its VIP */
    struct resource ap = {0}, vip = {0};
    snprintf(ap.customer_id, sizeof ap.customer_id, SCRATCH_CUSTOMER);
    snprintf(ap.name, sizeof ap.name, "shop");
    ap.doc = json_object();
    db->ops->begin(db, true);
    CHECK_INT(db->ops->res_create(db, &AP_SITE, &ap), STORE_OK);
    vip.parent_rid = ap.rid;
    snprintf(vip.customer_id, sizeof vip.customer_id, SCRATCH_CUSTOMER);
    snprintf(vip.name, sizeof vip.name, "203.0.113.80");
    vip.doc = json_pack("{s:i}", "family", 4);
    CHECK_INT(db->ops->res_create(db, &AP_VIP, &vip), STORE_OK);
    db->ops->commit(db);
    json_decref(ap.doc), json_decref(vip.doc);
    struct resource res = {0};
    snprintf(res.customer_id, sizeof res.customer_id, SCRATCH_CUSTOMER);
    snprintf(res.name, sizeof res.name, "pm");
    res.doc = json_pack("{s:[s]}", "cidr", "198.51.100.0/24");
    struct cidr c;
    cidr_parse("198.51.100.0/24", 0, &c);
    db->ops->begin(db, true);
    CHECK_INT(db->ops->res_create(db, &OP_SITE, &res), STORE_OK);
    CHECK_INT(db->ops->blocks_set(db, res.rid, &c, 1), STORE_OK);
    db->ops->commit(db);
    json_decref(res.doc);
    char path[128], pm_dir[128], sender[PATH_MAX + 32], cmd[3 * PATH_MAX + 512];
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    snprintf(pm_dir, sizeof pm_dir, "%s/pmacct", dir);
    ssize_t len = readlink("/proc/self/exe", sender, PATH_MAX);
    sender[len > 0 ? len : 0] = '\0';
    snprintf(strrchr(sender, '/') ? strrchr(sender, '/') : sender, 32, "/../netflow-send");
    int port = 30000 + getpid() % 20000;
    struct pm_collector_config cfg = {
        .render = {.dir = pm_dir, .host = "127.0.0.1", .port = port, .refresh_s = 2, .cache_entries = 16411},
        .binary = "nfacctd"};
    struct store_config sc = {.backend = "sqlite", .path = path};
    CHECK_INT(pm_collector_start(&cfg, &sc), 0);
    sleep(1); /* nfacctd binds */
    snprintf(cmd, sizeof cmd, "'%s' 127.0.0.1:%d 203.0.113.5 198.51.100.10 17 53 1000 500 2 && "
                              "'%s' 127.0.0.1:%d 203.0.113.5 192.0.2.10 17 53 1000 500 1 && "
                              "'%s' 127.0.0.1:%d 198.51.100.7 203.0.113.80 6 443 500 100 1",
             sender, port, sender, port, sender, port);
    CHECK_INT(system(cmd), 0);
    for (int i = 0; i < 50 && pm_collector_stored() < 20; i++) /* a batch every 2 s */
        usleep(100000);
    pm_collector_stop();
    CHECK_INT(count_rows("SELECT sum(packets) FROM tel_flows WHERE router = '127.0.0.1'"), 2500);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT sum(packets) FROM tel_flows WHERE site_rid = %lld", (long long)ap.rid);
    CHECK_INT(count_rows(sql), 500); /* the VIP's flows are the AP site's */
    CHECK_INT(count_rows("SELECT sum(bytes) FROM tel_flows WHERE router = '127.0.0.1' AND protocol = 17 AND "
                         "dst_port = 53"),
              1000000);
    scratch_close(db, dir);
}

UNIT_MAIN(UNIT_CASE(render), UNIT_CASE(lines), UNIT_CASE(nfacctd_to_the_store))
