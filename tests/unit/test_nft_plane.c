/* test_nft_plane.c — deploy passes of the nftables scrubber
 * (dataplane/nftables/nft_plane.h) against a real SQLite store and the real
 * kernel, in a network namespace of the test's own: sites deployed and their
 * chains live; a site whose rules the kernel refuses is failed with
 * nftables' message while the others (and its own last good rules) stay in
 * force; a table deleted behind parapet's back is applied again; what
 * the counters counted before a new ruleset replaced them is kept (read
 * before the install) and comes back as flow records the ingest stores. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <net/if.h>
#include <unistd.h>

#include "api/op/op_kinds.h"
#include "base/net.h"
#include "dataplane/ingest_batch.h"
#include "dataplane/nftables/nft_counter_loop.h"
#include "dataplane/nftables/nft_counters.h"
#include "dataplane/nftables/nft_lib.h"
#include "dataplane/nftables/nft_plane.h"
#include "unit/db_count.h"
#include "unit/netns_private.h"
#include "unit/scratch_store.h"
#include "unit/unit.h"

static char dir[64], nft_dir[128];
static struct store *db;

static int64_t add_site(const char *name, const char *block)
{
    struct resource r = {0};
    snprintf(r.customer_id, sizeof r.customer_id, SCRATCH_CUSTOMER);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.doc = json_pack("{s:[s]}", "cidr", block);
    struct cidr c;
    db->ops->begin(db, true);
    CHECK_INT(db->ops->res_create(db, &OP_SITE, &r), STORE_OK);
    CHECK_INT(cidr_parse(block, 0, &c), 0);
    CHECK_INT(db->ops->blocks_set(db, r.rid, &c, 1), STORE_OK); /* what attributes the records */
    db->ops->commit(db);
    json_decref(r.doc);
    return r.rid;
}

/* An OP site of the model: a block list of `source`, and one host (the
 * whole block) whose flex filter drops UDP to `port`. */
static json_t *site(int64_t rid, const char *block, const char *source, int port)
{
    return json_pack("{s:I,s:s,s:[s],s:{s:i,s:[s]},s:{},s:[{s:I,s:[s],s:i,s:[{s:I,s:[s],s:i,s:[{s:s,s:s,"
                     "s:s,s:{s:i,s:s},s:{s:i,s:[i]},s:{s:i}}]}]}],s:[]}",
                     "rid", (json_int_t)rid, "id", "s", "blocks", block, "block_list", "is_enabled", 1, "source_ips",
                     source, "bogons", "networks", "rid", (json_int_t)rid * 10, "blocks", block, "mitigation_mode",
                     0, "hosts", "rid", (json_int_t)rid * 100, "blocks", block, "mitigation_mode", 0, "flex", "id",
                     "f", "filter_name", "f", "action", "drop", "protocol", "is_enabled", 1, "type", "udp", "port",
                     "is_enabled", 1, "ports", port, "payload_string", "is_enabled", 0, "events");
}

static json_t *state_of(int64_t rid)
{
    json_t *rows = NULL;
    db->ops->begin(db, false);
    db->ops->dataplane_states(db, "nftables", rid, &rows);
    db->ops->commit(db);
    json_t *row = json_incref(json_array_get(rows, 0));
    json_decref(rows);
    return row;
}

/* `nft list table inet parapet` (JSON), or NULL when there is none. */
static char *live_table(void)
{
    char why[512], *out = NULL;
    if (nft_lib_json("list table inet parapet", &out, why, sizeof why) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static void lo_up(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct ifreq ifr = {0};
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
    ioctl(fd, SIOCGIFFLAGS, &ifr);
    ifr.ifr_flags |= IFF_UP;
    CHECK_INT(ioctl(fd, SIOCSIFFLAGS, &ifr), 0);
    close(fd);
}

/* n datagrams of `size` payload bytes from `src` to 127.0.0.1:port. */
static void send_udp(const char *src, int port, int n, int size)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in from = {.sin_family = AF_INET}, to = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, src, &from.sin_addr);
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    CHECK_INT(bind(fd, (struct sockaddr *)&from, sizeof from), 0);
    char buf[1500] = {0};
    for (int i = 0; i < n; i++)
        CHECK_INT(sendto(fd, buf, (size_t)size, 0, (struct sockaddr *)&to, sizeof to), size);
    close(fd);
}

TEST(passes_against_the_kernel)
{
    db = scratch_open(dir, (struct customer){.svc_op = true});
    snprintf(nft_dir, sizeof nft_dir, "%s/nftables", dir);
    int64_t a = add_site("a", "10.1.0.0/24"), b = add_site("b", "10.2.0.0/24");
    struct nft_plane_config cfg = {.render = {.table = "parapet"}, .dir = nft_dir};
    struct dp_plane p;
    nft_plane_init(&p, &cfg);
    struct dp_pass_result res;

    /* 1. both deployed and live */
    json_t *model = json_pack("{s:[o,o],s:[]}", "op_sites", site(a, "10.1.0.0/24", "192.0.2.1", 53),
                              site(b, "10.2.0.0/24", "192.0.2.2", 123), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.deployed, 2);
    CHECK(res.installed && res.reloaded);
    char *live = live_table(), chain[32];
    snprintf(chain, sizeof chain, "\"op_%lld\"", (long long)b);
    CHECK(live && strstr(live, chain) && strstr(live, "\"dport\"") && strstr(live, "123"));
    free(live);
    json_decref(model);

    /* 2. b's port is out of range: the kernel's parser refuses b alone; b is
     * failed with nftables' message and still filters as before; a deployed */
    model = json_pack("{s:[o,o],s:[]}", "op_sites", site(a, "10.1.0.0/24", "192.0.2.1", 5353),
                      site(b, "10.2.0.0/24", "192.0.2.2", 70000), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.failed, 1);
    CHECK_INT(res.deployed, 1);
    json_t *st = state_of(b);
    CHECK_STR(json_string_value(json_object_get(st, "state")), "failed");
    const char *reason = json_string_value(json_object_get(st, "reason"));
    CHECK(reason && strstr(reason, "nftables refused the ruleset: line ") == reason &&
          strstr(reason, "70000") && strstr(reason, "udp dport { 70000 }"));
    json_decref(st);
    live = live_table();
    CHECK(live && strstr(live, "5353") && strstr(live, "123") && !strstr(live, "70000"));
    free(live);

    /* 3. someone deletes the table: the next pass (nothing changed) applies it again */
    char why[512], *out = NULL;
    CHECK_INT(nft_lib_json("delete table inet parapet", &out, why, sizeof why), 0);
    free(out);
    CHECK(live_table() == NULL);
    nft_plane_refresh(&p);
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK(!res.installed && res.reloaded);
    live = live_table();
    CHECK(live && strstr(live, "5353"));
    free(live);
    json_decref(model);

    /* 4. b is deleted: its chain, counters and jump go, a's stay (the
     * table is not replaced: what a's counters hold is kept) */
    model = json_pack("{s:[o],s:[]}", "op_sites", site(a, "10.1.0.0/24", "192.0.2.1", 5353), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK(res.installed && res.reloaded);
    live = live_table();
    char counter_a[64], counter_b[64];
    snprintf(counter_a, sizeof counter_a, "\"op_%lld_site_pass\"", (long long)a);
    snprintf(counter_b, sizeof counter_b, "\"op_%lld_site_pass\"", (long long)b);
    CHECK(live && !strstr(live, chain) && !strstr(live, counter_b) && strstr(live, counter_a) &&
          !strstr(live, "10.2.0.0"));
    free(live);
    json_decref(model);
    scratch_close(db, dir);
}

/* Packets over lo pass prerouting: a site on 127.0.0.0/8 whose block list
 * holds 127.0.0.2 drops what that source sends and passes the rest. */
TEST(counters_survive_a_new_ruleset)
{
    db = scratch_open(dir, (struct customer){.svc_op = true});
    snprintf(nft_dir, sizeof nft_dir, "%s/nftables", dir);
    int64_t a = add_site("lo", "127.0.0.0/8");
    struct nft_plane_config cfg = {.render = {.table = "parapet"}, .dir = nft_dir};
    struct dp_plane p;
    nft_plane_init(&p, &cfg);
    struct dp_pass_result res;
    lo_up();
    json_decref(nft_counters_take()); /* sums of an earlier test */
    json_t *model = json_pack("{s:[o],s:[]}", "op_sites", site(a, "127.0.0.0/8", "127.0.0.2", 9), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK_INT(res.deployed, 1);
    json_decref(model);

    int rx = socket(AF_INET, SOCK_DGRAM, 0); /* a listener: no ICMP answers to count */
    struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons(7000)};
    inet_pton(AF_INET, "127.0.0.1", &at.sin_addr);
    CHECK_INT(bind(rx, (struct sockaddr *)&at, sizeof at), 0);
    send_udp("127.0.0.2", 7000, 5, 100); /* block list: dropped */
    send_udp("127.0.0.3", 7000, 3, 200); /* passes */
    send_udp("127.0.0.3", 9, 2, 50);     /* the flex filter (UDP 9): dropped */

    /* a new ruleset replaces the table (zeroing its counters): what they
     * held was read first */
    model = json_pack("{s:[o],s:[]}", "op_sites", site(a, "127.0.0.0/8", "127.0.0.2", 19), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    CHECK(res.installed && res.reloaded);
    json_decref(model);
    send_udp("127.0.0.2", 7000, 1, 100);
    char why[512];
    CHECK_INT(nft_plane_collect(&cfg, why, sizeof why), 0);
    json_t *sums = nft_counters_take();
    char name[64];
    snprintf(name, sizeof name, "op_%lld_site_block_list", (long long)a);
    json_t *bl = json_object_get(sums, name);
    CHECK_INT(json_integer_value(json_object_get(bl, "packets")), 6);
    CHECK_INT(json_integer_value(json_object_get(bl, "bytes")), 6 * (20 + 8 + 100));
    CHECK_STR(json_string_value(json_object_get(bl, "address")), "127.0.0.0");
    CHECK_STR(json_string_value(json_object_get(bl, "action")), "drop");
    /* what passed toward the host (whose block is the site's): its own counter */
    snprintf(name, sizeof name, "op_%lld_h%lld_pass", (long long)a, (long long)a * 100);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(sums, name), "packets")), 3);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(sums, name), "bytes")), 3 * 228);
    snprintf(name, sizeof name, "op_%lld_h%lld_flex_filter", (long long)a, (long long)a * 100);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(sums, name), "packets")), 2);
    CHECK_INT(json_integer_value(json_object_get(json_object_get(sums, name), "protocol")), 17);
    CHECK_INT(json_object_size(sums), 3);
    /* read and zeroed: the next reading holds nothing */
    CHECK_INT(nft_plane_collect(&cfg, why, sizeof why), 0);
    json_t *none = nft_counters_take();
    CHECK_INT(json_object_size(none), 0);
    json_decref(none);

    /* the records go through the ingest: three flows, once */
    json_t *records = nft_counter_records(sums, 1764000000);
    CHECK_INT(json_array_size(records), 3);
    long stored = 0, dropped = 0;
    json_t *copy = json_copy(records);
    CHECK_INT(dp_ingest_records(db, copy, 1764000100, "test", &stored, &dropped), 0);
    CHECK_INT(stored, 3);
    CHECK_INT(dropped, 0);
    json_decref(copy);
    stored = 0;
    CHECK_INT(dp_ingest_records(db, records, 1764000100, "test", &stored, &dropped), 0);
    CHECK_INT(stored, 0); /* duplicates */
    json_decref(records), json_decref(sums);
    close(rx);
    scratch_close(db, dir);
}

static long count_rows(const char *sql)
{
    char path[96];
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    return db_count(path, sql);
}

/* The reader of serve: every second here, stored through the ingest by its
 * own store connection, and a last reading at stop. */
TEST(counter_loop_stores)
{
    db = scratch_open(dir, (struct customer){.svc_op = true});
    snprintf(nft_dir, sizeof nft_dir, "%s/nftables", dir);
    int64_t a = add_site("lo", "127.0.0.0/8");
    struct nft_plane_config cfg = {.render = {.table = "parapet"}, .dir = nft_dir};
    struct dp_plane p;
    nft_plane_init(&p, &cfg);
    struct dp_pass_result res;
    lo_up();
    json_decref(nft_counters_take());
    json_t *model = json_pack("{s:[o],s:[]}", "op_sites", site(a, "127.0.0.0/8", "127.0.0.2", 9), "cp_sites");
    CHECK_INT(dp_plane_pass(db, &p, model, &res), 0);
    json_decref(model);
    char path[128];
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    struct store_config sc = {.backend = "sqlite", .path = path};
    CHECK_INT(nft_counter_loop_start(&cfg, 1, &sc), 0);
    send_udp("127.0.0.2", 7000, 4, 100);
    sleep(2); /* at least one reading */
    send_udp("127.0.0.2", 7000, 3, 100);
    nft_counter_loop_stop(); /* the last reading */
    CHECK_INT(count_rows("SELECT sum(packets) FROM tel_flows WHERE router = 'nftables' AND action = 1 AND "
                         "policy = 'block_list'"),
              7);
    CHECK(count_rows("SELECT count(*) FROM tel_flows WHERE router = 'nftables'") >= 2);
    scratch_close(db, dir);
}

/* nftables' JSON joined with the map: unmapped and empty counters left out. */
TEST(readings)
{
    const char *json = "{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\"}},"
                       " {\"counter\": {\"family\": \"inet\", \"name\": \"op_1_site_pass\", \"table\": \"parapet\","
                       "   \"handle\": 2, \"packets\": 10, \"bytes\": 1500}},"
                       " {\"counter\": {\"name\": \"op_1_h2_udp_flood\", \"packets\": 0, \"bytes\": 0}},"
                       " {\"counter\": {\"name\": \"someone_elses\", \"packets\": 5, \"bytes\": 5}},"
                       " {\"counter\": {\"name\": \"op_1_e00_blackhole\", \"packets\": 7, \"bytes\": 700}}]}";
    const char *map = "# counter\taddress\taction\tpolicy_type\tprotocol\n"
                      "op_1_site_pass\t10.0.0.0\tpass\t-\t0\n"
                      "op_1_h2_udp_flood\t10.0.0.5\tdrop\tudp_flood\t17\n"
                      "op_1_e00_blackhole\t2001:db8::7\tdrop\tblackhole\t0\n";
    json_t *r = nft_counter_readings(json, map);
    CHECK_INT(json_array_size(r), 2);
    char *text = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(text, "[{\"action\":\"pass\",\"address\":\"10.0.0.0\",\"bytes\":1500,\"name\":\"op_1_site_pass\","
                    "\"packets\":10,\"policy\":\"\",\"protocol\":0},{\"action\":\"drop\",\"address\":\"2001:db8::7\","
                    "\"bytes\":700,\"name\":\"op_1_e00_blackhole\",\"packets\":7,\"policy\":\"blackhole\",\"protocol\":0}]");
    free(text);
    json_decref(r);
    CHECK(nft_counter_readings("Error: no", map) == NULL);
    json_t *sums = json_pack("{s:{s:s,s:s,s:s,s:i,s:i,s:i}}", "op_1_e00_blackhole", "address", "2001:db8::7",
                             "action", "drop", "policy", "blackhole", "protocol", 58, "packets", 7, "bytes", 700);
    json_t *rec = nft_counter_records(sums, 1764000060);
    json_t *one = json_loads(json_string_value(json_array_get(rec, 0)), 0, NULL);
    CHECK_STR(json_string_value(json_object_get(one, "src_ip")), "::");
    CHECK_STR(json_string_value(json_object_get(one, "policy_type")), "blackhole");
    CHECK_INT(json_integer_value(json_object_get(one, "protocol")), 58);
    CHECK_INT(json_integer_value(json_object_get(one, "time")), 1764000060);
    CHECK(strncmp(json_string_value(json_object_get(one, "flow_id")), "nft-1764000060-", 15) == 0);
    json_decref(one), json_decref(rec), json_decref(sums);
}

int main(void)
{
    if (netns_private() != 0) {
        printf("unit %s: 0 passed, 1 failed\n", __FILE__);
        return 1;
    }
    static const struct unit_case cases[] = {UNIT_CASE(passes_against_the_kernel),
                                             UNIT_CASE(counters_survive_a_new_ruleset), UNIT_CASE(counter_loop_stores),
                                             UNIT_CASE(readings)};
    return unit_run(__FILE__, cases, sizeof cases / sizeof cases[0]);
}
