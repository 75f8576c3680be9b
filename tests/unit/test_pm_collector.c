/* test_pm_collector.c — pmacct's collector (dataplane/pmacct/pm_collector.h):
 * its configuration from the model, the filter of the protected blocks
 * checked by libpcap, its JSON lines read, and the real daemons run on
 * loopback by the collector (about 3 s each):
 * - nfacctd: NetFlow v5 exports (tests/tools/netflow_send.c) toward a
 *   protected address, an Application Protection VIP and an unprotected
 *   address end up in the store as flow records of the first two only, with
 *   every packet counted; an AP DDoS event on the VIP then has those flows as
 *   its top traffic patterns (what {DASH}/ddos/event/{id}/top_traffic_patterns
 *   reads);
 * - sfacctd: sFlow v5 datagrams built here (flow samples of raw packet
 *   headers) with a sampling rate are stored scaled by it; an IPv6 flood from
 *   300 sources of one /48 is folded into the exact top sources and that
 *   /48's bucket, every packet counted. */
#include <arpa/inet.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api/ap/ap_kinds.h"
#include "api/op/op_kinds.h"
#include "base/net.h"
#include "core/catalogue.h"
#include "dataplane/ingest_batch.h"
#include "dataplane/pmacct/pm_collector.h"
#include "unit/db_count.h"
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
                    "plugin_pipe_size[parapet]: 67108864\n"
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
    char path[96];
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    return db_count(path, sql);
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
    /* an Application Protection DDoS event on the VIP: its patterns are those flows */
    int64_t now = (int64_t)time(NULL);
    char event[256];
    snprintf(event, sizeof event,
             "{\"kind\":\"ddos_event\",\"alert_id\":\"pm-ap-1\",\"attack_type\":\"application\",\"site_id\":\"%s\","
             "\"site_ip\":\"203.0.113.80\",\"start_time\":%lld}",
             ap.id, (long long)(now - 600));
    json_t *records = json_pack("[s]", event);
    long stored = 0, dropped = 0;
    CHECK_INT(dp_ingest_records(db, records, now, "test", &stored, &dropped), 0);
    CHECK_INT(stored, 1);
    json_decref(records);
    struct tel_event_ref ev;
    CHECK_INT(db->ops->tel_op_event_get(db, "ap", "pm-ap-1", &ev), STORE_OK);
    struct tel_pattern *pat = NULL;
    size_t np = 0;
    CHECK_INT(db->ops->tel_op_patterns(db, ev.site_rid, &ev.range, ev.start_time, now + 60, TEL_BY_BYTES, 100,
                                       &pat, &np),
              STORE_OK);
    CHECK(np >= 1);
    int64_t packets = 0;
    for (size_t i = 0; i < np; i++) { /* netflow-send's records differ by source port only */
        CHECK_STR(pat[i].cidr, "198.51.100.0/24"); /* the source's /24 */
        CHECK_INT(pat[i].protocol, 6);
        CHECK_INT(pat[i].dst_port, 443);
        CHECK_STR(pat[i].router, "127.0.0.1");
        packets += pat[i].packets;
    }
    CHECK_INT(packets, 500);
    free(pat);
    scratch_close(db, dir);
}

/* ---- sFlow v5 (sflow.org, sflow_version_5.txt): a datagram of one flow
 * sample holding one raw packet header record (Ethernet, then IPv4 or IPv6
 * and UDP). Big-endian 32-bit words throughout. ---- */

struct out {
    uint8_t b[512];
    size_t n;
};

static void word(struct out *o, uint32_t v)
{
    uint32_t be = htonl(v);
    memcpy(o->b + o->n, &be, 4);
    o->n += 4;
}

static void bytes(struct out *o, const void *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

enum {
    SFLOW_PAYLOAD = 100, /* UDP payload bytes of each sampled packet */
    V6_SOURCES = 1000,
};

/* The sampled frame: Ethernet, IP (4 or 6), UDP sport -> dport with SFLOW_PAYLOAD bytes. */
static size_t frame(uint8_t *f, const char *src, const char *dst, unsigned sport, unsigned dport)
{
    bool v6 = strchr(src, ':') != NULL;
    size_t n = 0;
    static const uint8_t macs[12] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1};
    memcpy(f, macs, 12);
    f[12] = v6 ? 0x86 : 0x08, f[13] = v6 ? 0xdd : 0x00;
    n = 14;
    unsigned udp_len = 8 + SFLOW_PAYLOAD;
    if (v6) {
        uint8_t h[40] = {0x60, 0, 0, 0, (uint8_t)(udp_len >> 8), (uint8_t)udp_len, 17, 64};
        inet_pton(AF_INET6, src, h + 8);
        inet_pton(AF_INET6, dst, h + 24);
        memcpy(f + n, h, 40);
        n += 40;
    } else {
        unsigned total = 20 + udp_len;
        uint8_t h[20] = {0x45, 0, (uint8_t)(total >> 8), (uint8_t)total, 0, 1, 0, 0, 64, 17};
        inet_pton(AF_INET, src, h + 12);
        inet_pton(AF_INET, dst, h + 16);
        memcpy(f + n, h, 20);
        n += 20;
    }
    uint8_t u[8] = {(uint8_t)(sport >> 8), (uint8_t)sport, (uint8_t)(dport >> 8), (uint8_t)dport,
                    (uint8_t)(udp_len >> 8), (uint8_t)udp_len, 0, 0};
    memcpy(f + n, u, 8);
    n += 8;
    memset(f + n, 0x2a, SFLOW_PAYLOAD);
    return n + SFLOW_PAYLOAD;
}

/* Sends one sample of a packet src -> dst taken at 1 in `rate` to 127.0.0.1:port. */
static int sflow_send(int fd, int port, uint32_t seq, uint32_t rate, const char *src, const char *dst,
                      unsigned sport, unsigned dport)
{
    uint8_t f[256];
    size_t flen = frame(f, src, dst, sport, dport), padded = (flen + 3) / 4 * 4;
    memset(f + flen, 0, padded - flen);
    struct out o = {.n = 0};
    word(&o, 5), word(&o, 1); /* version, agent address IPv4 */
    uint8_t agent[4] = {192, 0, 2, 2};
    bytes(&o, agent, 4);
    word(&o, 0), word(&o, seq), word(&o, seq * 10), word(&o, 1); /* sub-agent, sequence, uptime, samples */
    word(&o, 1);                                                  /* enterprise 0, format 1: flow sample */
    word(&o, 32 + 8 + 16 + (uint32_t)padded);                     /* its length */
    word(&o, seq), word(&o, 3), word(&o, rate), word(&o, seq * rate), word(&o, 0), word(&o, 3), word(&o, 4),
        word(&o, 1);                                  /* seq, source id, rate, pool, drops, in, out, records */
    word(&o, 1), word(&o, 16 + (uint32_t)padded);     /* raw packet header, its length */
    word(&o, 1), word(&o, (uint32_t)flen + 4), word(&o, 4), word(&o, (uint32_t)flen); /* ethernet, frame, FCS */
    bytes(&o, f, padded);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return sendto(fd, o.b, o.n, 0, (struct sockaddr *)&to, sizeof to) == (ssize_t)o.n ? 0 : -1;
}

TEST(sfacctd_to_the_store)
{
    struct store *db = scratch_open(dir, (struct customer){.svc_op = true});
    CHECK_INT(catalogue_seed(db), 0);
    struct resource res = {0};
    snprintf(res.customer_id, sizeof res.customer_id, SCRATCH_CUSTOMER);
    snprintf(res.name, sizeof res.name, "sf");
    res.doc = json_pack("{s:[s,s]}", "cidr", "198.51.100.0/24", "2001:db8:1::/48");
    struct cidr c[2];
    cidr_parse("198.51.100.0/24", 0, &c[0]);
    cidr_parse("2001:db8:1::/48", 0, &c[1]);
    db->ops->begin(db, true);
    CHECK_INT(db->ops->res_create(db, &OP_SITE, &res), STORE_OK);
    CHECK_INT(db->ops->blocks_set(db, res.rid, c, 2), STORE_OK);
    db->ops->commit(db);
    json_decref(res.doc);
    char path[128], pm_dir[128];
    snprintf(path, sizeof path, "%s/parapet.db", dir);
    snprintf(pm_dir, sizeof pm_dir, "%s/pmacct", dir);
    int port = 30000 + (getpid() + 7) % 20000;
    struct pm_collector_config cfg = {.render = {.dir = pm_dir, .sflow = true, .host = "127.0.0.1", .port = port,
                                                 .refresh_s = 2, .cache_entries = 16411},
                                      .binary = "sfacctd"};
    struct store_config sc = {.backend = "sqlite", .path = path};
    CHECK_INT(pm_collector_start(&cfg, &sc), 0);
    sleep(1); /* sfacctd binds */
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    uint32_t seq = 1;
    /* 20 samples at 1 in 100 of an IPv4 flow: 2,000 packets */
    for (int i = 0; i < 20; i++)
        CHECK_INT(sflow_send(fd, port, seq++, 100, "203.0.113.5", "198.51.100.10", 40000, 53), 0);
    /* an IPv6 reflection from 1,000 sources of 2001:db8:99::/48, unsampled */
    for (int i = 0; i < V6_SOURCES; i++) {
        char src[64];
        snprintf(src, sizeof src, "2001:db8:99:%x::%x", i / 256, i % 256 + 1);
        CHECK_INT(sflow_send(fd, port, seq++, 1, src, "2001:db8:1::5", 123, 40000 + (unsigned)i), 0);
        if (i % 50 == 49)
            usleep(10000); /* (the loopback socket's buffer) */
    }
    close(fd);
    for (int i = 0; i < 60 && count_rows("SELECT coalesce(sum(packets), 0) FROM tel_flows") < 2000 + V6_SOURCES; i++)
        usleep(100000); /* a batch every 2 s */
    pm_collector_stop();
    CHECK_INT(count_rows("SELECT sum(packets) FROM tel_flows WHERE router = '192.0.2.2' AND protocol = 17 AND "
                         "dst_port = 53"),
              2000);
    /* bytes: the sampled frame's length (with its FCS) times the rate */
    CHECK_INT(count_rows("SELECT sum(bytes) FROM tel_flows WHERE dst_port = 53"),
              2000 * (14 + 20 + 8 + SFLOW_PAYLOAD + 4));
    /* every packet counted, in far fewer records than sources: the largest
     * sources exact (at most 200 a batch), the rest in their /48's bucket
     * (source 2001:db8:99::, the well-known source port kept, the other 0) */
    CHECK_INT(count_rows("SELECT sum(packets) FROM tel_flows WHERE src_port = 123"), V6_SOURCES);
    long rows = count_rows("SELECT count(*) FROM tel_flows WHERE src_port = 123");
    CHECK(rows > 1 && rows < V6_SOURCES / 2);
    CHECK(count_rows("SELECT sum(packets) FROM tel_flows WHERE src = x'0620010db8009900000000000000000000' AND "
                     "src_port = 123 AND dst_port = 0") >= V6_SOURCES / 2);
    scratch_close(db, dir);
}

UNIT_MAIN(UNIT_CASE(render), UNIT_CASE(lines), UNIT_CASE(nfacctd_to_the_store), UNIT_CASE(sfacctd_to_the_store))
